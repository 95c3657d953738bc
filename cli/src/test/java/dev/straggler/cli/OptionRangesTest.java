package dev.straggler.cli;

import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every numeric option is range-checked before any work: one line naming the option, its range and the value. */
class OptionRangesTest {
    static final String S = CliTest.SAMPLE.toString();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "dump SAMPLE -r 7|--rank 7 does not exist: SAMPLE has ranks 0 to 1",
            "dump SAMPLE --from 0.005 --to 0.001|--to takes a number from 0.005 to 0.012, not 0.001",
            "dump SAMPLE --from 5|--from takes a number from 0 to 0.012, not 5",
            "analyze SAMPLE --threads 0|--threads takes a whole number from 1 to 4096, not 0",
            "analyze SAMPLE --threads -3|--threads takes a whole number from 1 to 4096, not -3",
            "analyze SAMPLE --width 10|--width takes a whole number from 60 to 1000, not 10",
            "model SAMPLE SAMPLE --predict 0,-4|--predict takes positive process counts, not 0",
            "bandwidth SAMPLE --predict -4|--predict takes positive process counts, not -4",
            "generate late-sender -p extra=NaN -o OUT|scenario late-sender: parameter extra=NaN must be a finite number",
            "generate late-sender -n 1000000 -o OUT|--ranks takes a whole number from 1 to 65536, not 1000000",
            "generate graph500-like -n 2 --repetitions 0 -o OUT|--repetitions takes a whole number from 1 to 1000, not 0",
            "callsites SAMPLE --top 0|--top takes a whole number of at least 1, not 0",
            "scaling SAMPLE SAMPLE --threshold 2|--threshold takes a number from 0 to 1, not 2",
            "include-list SAMPLE --min-share 150|--min-share takes a number from 0 to 100, not 150",
            "import SAMPLE -o OUT --batch-size 0|--batch-size takes a whole number from 1 to 16777216, not 0",
            "validate SAMPLE --max 0|--max takes a positive number of findings, not 0"})
    void outOfRangeOptionIsOneLine(String line, String message) {
        String[] args = line.replace("SAMPLE", S).replace("OUT", "target/never-written").split(" ");
        Run r = run(args);
        assertEquals(1, r.code(), r.out() + r.err());
        assertEquals("straggler: " + message.replace("SAMPLE", S), r.err().strip());
    }
}
