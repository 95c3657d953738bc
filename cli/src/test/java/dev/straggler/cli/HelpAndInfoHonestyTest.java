package dev.straggler.cli;

import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** info, dump and the help texts say what they show, as a new user reads them. */
class HelpAndInfoHonestyTest {
    @TempDir
    Path tmp;

    @Test
    void infoLabelsCollectiveCallsAsTotalsOverRanks() {
        Run r = run("info", CliTest.SAMPLE.toString());
        assertEquals(0, r.code());
        assertTrue(r.out().contains("collective calls (records summed over all ranks)\n  BARRIER                               2\n"),
                r.out());
        assertFalse(r.out().contains("per rank"), r.out());
    }

    @Test
    void infoCountsTheEventsTheAnalysisReads() {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path mg = Path.of(shared, "traces", "real", "npb-mg.S-4");
        Assumptions.assumeTrue(Files.isDirectory(mg), mg + " is absent");
        Run info = run("info", mg.toString(), "-q");
        Run analyze = run("analyze", mg.toString(), "-q");
        // the archive holds 41,750 records; 20 (communicator creation and destruction) are not events of the model
        assertTrue(info.out().contains("events           41,730 read by the analysis (of 41,750 records; the 20 others "
                + "are listed below)"), info.out());
        assertTrue(analyze.out().contains("41,730 events"), analyze.out());
    }

    @Test
    void undefinedExitStatusIsPrintedAsUndefinedAndReadBack() throws Exception {
        String text = Files.readString(CliTest.SAMPLE).replace("0 0 ENTER main\n", "0 0 PROGRAM_BEGIN\n0 0 ENTER main\n")
                .replace("0 9000 LEAVE main\n", "0 9000 LEAVE main\n0 9000 PROGRAM_END status=undefined\n");
        Path t = Files.writeString(tmp.resolve("t.txt"), text);
        Run dump = run("dump", t.toString(), "-r", "0");
        assertEquals(0, dump.code(), dump.err());
        assertTrue(dump.out().contains("0 9000 PROGRAM_END status=undefined"), dump.out());
        assertFalse(dump.out().contains("-9223372036854775808"), dump.out());
    }

    @Test
    void helpTextsReadAsParagraphsAndOfferOnlyWhatTheCommandDoes() {
        String demo = run("demo", "--help").out();
        assertTrue(demo.contains("a hand-written two-rank\ntrace, and a simulated 16-rank BT-like solver"), demo);
        String imp = run("import", "--help").out();
        assertTrue(imp.contains("OTF2"), imp);
        assertFalse(run("generate", "--help").out().contains("--lenient"));
        assertFalse(run("demo", "--help").out().contains("--lenient"));
        assertFalse(run("validate", "--help").out().contains("--lenient"));
        assertTrue(run("analyze", "--help").out().contains("--lenient"));
        assertTrue(run("diff", "--help").out().contains("--lenient"));
    }
}
