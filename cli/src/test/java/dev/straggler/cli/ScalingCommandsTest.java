package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scaling and model on the graph500-like family at p = 2, 4, 8, 16, whose run time is by construction
 * c0 + c1/p + c2/sqrt(p) with c0 = 0.2 s, c1 = 4 s, c2 = 0.5 s (its defaults), and whose frontier exchange
 * (Alltoallv) moves bytes/p while the level-end Allreduce takes log2(p) steps.
 */
class ScalingCommandsTest {
    static final double C0 = 0.2;
    static final double C1 = 4.0;
    static final double C2 = 0.5;

    @TempDir
    static Path tmp;
    static List<String> runs = new ArrayList<>();

    @BeforeAll
    static void family() {
        Path out = tmp.resolve("g");
        Run r = run("generate", "graph500-like", "-n", "2,4,8,16", "-o", out.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        for (int p : new int[]{2, 4, 8, 16}) {
            runs.add(out.resolve("graph500-like.p" + p + ".r0").toString());
        }
    }

    static double time(double p) {
        return C0 + C1 / p + C2 / Math.sqrt(p);
    }

    @Test
    void modelRecoversTheFamilysConstantsAndPredictsFromThem() throws Exception {
        Path json = tmp.resolve("model.json");
        Path extrap = tmp.resolve("extrap.txt");
        Path html = tmp.resolve("model.html");
        List<String> args = new ArrayList<>(List.of("model", "--predict", "64,128", "--json", json.toString(),
                "--extrap", extrap.toString(), "--html", html.toString(), "-q"));
        args.addAll(runs);
        Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        JsonNode total = new ObjectMapper().readTree(json.toFile()).get("medya").get("total");
        assertEquals(C0, total.get("c0").asDouble(), 1e-3);
        assertEquals(C1, total.get("c1").asDouble(), 1e-3);
        assertEquals(C2, total.get("c2").asDouble(), 1e-3);
        JsonNode at64 = new ObjectMapper().readTree(json.toFile()).get("medya").get("predictions").get(0);
        assertEquals(64, at64.get("tasks").asInt());
        assertEquals(time(64), at64.get("total").asDouble(), 1e-4);
        List<String> lines = Files.readAllLines(extrap);
        assertTrue(lines.contains("POINTS 2 4 8 16"), lines.toString());
        int data = lines.indexOf("METRIC time_per_process") + 2;
        assertEquals("REGION all", lines.get(data - 1));
        for (int i = 0; i < 4; i++) {
            String[] f = lines.get(data + i).split(" ");
            assertEquals(time(2 << i), Double.parseDouble(f[1]), 1e-6, lines.get(data + i));
        }
        assertTrue(Files.readString(html).contains("<html"));
    }

    @Test
    void shrinkingExchangeAndGrowingReductionHaveOppositeRankCorrelations() throws Exception {
        Path json = tmp.resolve("scaling.json");
        Path html = tmp.resolve("scaling.html");
        List<String> args = new ArrayList<>(List.of("scaling", "--json", json.toString(), "--html", html.toString(), "-q"));
        args.addAll(runs);
        Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("callsites").get("rows");
        assertEquals(+1.0, row(rows, "Allreduce").get("rs").asDouble(), 1e-12);
        assertEquals(-1.0, row(rows, "Alltoallv").get("rs").asDouble(), 1e-12);
        assertTrue(Files.readString(html).contains("scaling-callsites"));
    }

    @Test
    void scalingOfASingleRunIsAUsageError() {
        assertEquals(2, run("scaling", runs.get(0)).code());
    }

    private static JsonNode row(JsonNode rows, String call) {
        for (JsonNode n : rows) {
            if (n.get("key").asText().startsWith(call + " ")) {
                return n;
            }
        }
        throw new AssertionError("no row for " + call + " in " + rows);
    }
}
