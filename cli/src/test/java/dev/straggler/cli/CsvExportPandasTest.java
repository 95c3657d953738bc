package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code analyze --csv} read by the real pandas ({@code apt-get install python3-pandas}) in one line: the bundled
 * sample's Late Sender (5 ms on rank 1, hand-written) and its execution time per rank come out of
 * {@code pandas.read_csv} unchanged, and call paths with commas (C++ signatures) survive the quoting.
 */
class CsvExportPandasTest {
    @TempDir
    Path tmp;

    private static boolean pandas() {
        try {
            Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import pandas").redirectErrorStream(true).start();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static String python(String script) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.strip();
    }

    @Test
    void pandasReadsTheCubeInOneLine() throws Exception {
        Assumptions.assumeTrue(pandas(), "pandas is not installed: apt-get install python3-pandas");
        Path csv = tmp.resolve("a.csv");
        Path json = tmp.resolve("a.json");
        Run r = run("analyze", CliTest.SAMPLE.toString(), "-q", "--csv", csv.toString(), "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        String out = python("import pandas as pd\n"
                + "d = pd.read_csv('" + csv + "')\n"
                + "print(list(d.columns))\n"
                + "ls = d[d.metric == 'mpi_latesender']\n"
                + "print(ls['rank'].tolist(), round(ls['value'].sum(), 9), ls['call_path'].tolist())\n"
                + "print(round(d[d.metric == 'time']['value'].sum(), 9))\n");
        List<String> lines = out.lines().toList();
        assertEquals("['metric', 'metric_name', 'unit', 'call_path', 'rank', 'thread', 'value']", lines.get(0));
        // the sample: rank 1 waits 5 ms in main/MPI_Recv for rank 0's late send
        assertEquals("[1] 0.005 ['main/MPI_Recv']", lines.get(1));
        JsonNode doc = new ObjectMapper().readTree(json.toFile());
        assertTrue(doc.toString().contains("\"time\""));
        // two ranks of 9 ms each
        assertEquals("0.018", lines.get(2));
    }

    @Test
    void callPathsWithCommasAreQuoted() throws Exception {
        Assumptions.assumeTrue(pandas(), "pandas is not installed: apt-get install python3-pandas");
        String text = Files.readString(CliTest.SAMPLE).replace("region 1 compute ", "region 1 \"void f(int, double)\" ")
                .replace(" compute\n", " \"void f(int, double)\"\n");
        Path t = Files.writeString(tmp.resolve("commas.txt"), text);
        Path csv = tmp.resolve("c.csv");
        Run r = run("analyze", t.toString(), "-q", "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        String out = python("import pandas as pd\n"
                + "d = pd.read_csv('" + csv + "')\n"
                + "print(sorted(set(p for p in d.call_path if 'void' in p)))\n");
        assertEquals("['main/void f(int, double)']", out);
    }
}
