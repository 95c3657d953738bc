package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code straggler bandwidth} on the paper's layout (72, 162, 288 processes; 100 % and 20..40 % bandwidth) with
 * linear curves {@code CTI(bw) = s_p · (100 − bw)}: the demand is {@code 100 − CTI / s_p} by construction.
 */
class BandwidthCommandTest {
    @TempDir
    Path tmp;

    private static final int[] P = {72, 162, 288};
    private static final double[] SLOPE = {0.0026, 0.003, 0.0035};

    private Path table() throws Exception {
        StringBuilder b = new StringBuilder("tasks,bandwidth_percent,completion_time_s\n");
        for (int i = 0; i < P.length; i++) {
            double t100 = 2.0 + i;
            b.append(P[i]).append(",100,").append(t100).append('\n');
            for (int bw = 20; bw <= 40; bw += 2) {
                b.append(P[i]).append(',').append(bw).append(',').append(t100 * (1 + SLOPE[i] * (100 - bw))).append('\n');
            }
        }
        return Files.writeString(tmp.resolve("throttling.csv"), b.toString());
    }

    @Test
    void jsonHasTheDemandConstantAndPredictionsPerCtiInPercent() throws Exception {
        Path json = tmp.resolve("bw.json");
        Path html = tmp.resolve("bw.html");
        Run r = run("bandwidth", table().toString(), "--cti", "8,11,14,17,20", "--predict", "450", "--json",
                json.toString(), "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(json.toFile());
        assertEquals(15, j.get("pairConstants").size());
        double sum = 0;
        for (int a = 0; a < 3; a++) {
            for (int c = a + 1; c < 3; c++) {
                for (double cti : new double[] {0.08, 0.11, 0.14, 0.17, 0.20}) {
                    sum += (100 - cti / SLOPE[c]) / (100 - cti / SLOPE[a]) * Math.sqrt((double) P[a] / P[c]);
                }
            }
        }
        double dc = sum / 15;
        assertEquals(dc, j.get("demandConstant").asDouble(), 1e-9);
        JsonNode pr = j.get("predictions");
        assertEquals(5, pr.size());
        assertEquals(450, pr.get(0).get("tasks").asInt());
        assertEquals(8, pr.get(0).get("cti").asDouble(), 1e-12);
        assertEquals((100 - 0.08 / SLOPE[2]) * dc * Math.sqrt(450.0 / 288), pr.get(0).get("bandwidthPercent").asDouble(),
                1e-9);
        assertTrue(r.out().contains("mean DC = "), r.out());
        assertTrue(Files.readString(html).contains("Bandwidth demand"));
    }

    @Test
    void configurationWithoutAFullBandwidthRunIsAOneLineError() throws Exception {
        Path t = Files.writeString(tmp.resolve("bad.csv"), "8,40,11\n8,20,13\n");
        Run r = run("bandwidth", t.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("bad.csv") && r.err().contains("no run at 100 % bandwidth"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void missingTableOrDirectoryIsNamedOnce() {
        Run missing = run("bandwidth", tmp.resolve("none.csv").toString());
        assertEquals(1, missing.code());
        assertEquals("straggler: " + tmp.resolve("none.csv") + ": no such file", missing.err().strip());
        Run dir = run("bandwidth", tmp.toString());
        assertEquals(1, dir.code());
        assertEquals("straggler: " + tmp + ": a directory, not a CSV table (traces are read with --from-traces)",
                dir.err().strip());
    }
}
