package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The numbers of machine-readable output (analyze --csv, db query, bandwidth --table-out) are the shortest text that
 * reads back to the computed double: no Java E notation ({@code 9.3502E-5}), no 17 digits padded with zeros
 * ({@code 0.00021603000000000000}), no {@code .0} on whole numbers. The values they read back to are checked against
 * the doubles themselves: the analysis run in this process, the replay's JSON written by Jackson.
 */
class MachineReadableNumbersTest {
    @TempDir
    Path tmp;

    /** A field that is a number written as Java or a padded %.17g writes numbers, not as the shortest text. */
    private static void assertShortestText(String field, String where) {
        assertFalse(field.matches("-?[0-9.]+E-?[0-9]+"), "E notation in " + where);
        assertFalse(field.matches("-?[0-9]*\\.[0-9]*0") || field.matches("-?[0-9]*\\.[0-9]*0e-?[0-9]+"),
                "trailing zero in " + where);
    }

    private static Path realTrace(String name) {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path t = Path.of(shared, "traces", "real", name);
        Assumptions.assumeTrue(Files.isDirectory(t), t + " is absent");
        return t;
    }

    @Test
    void cubeCsvOfTheSampleReadsBackAsTheAnalysedDoubles() throws Exception {
        checkCsvAgainstCube(CliTest.SAMPLE);
    }

    @Test
    void cubeCsvOfARealRunReadsBackAsTheAnalysedDoubles() throws Exception {
        checkCsvAgainstCube(realTrace("npb-mg.S-4"));
    }

    /** Per metric, the CSV's values and the non-zero values of the same analysis run here are the same doubles. */
    private void checkCsvAgainstCube(Path trace) throws Exception {
        Path csv = tmp.resolve("a.csv");
        Run r = run("analyze", trace.toString(), "-q", "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        Map<String, List<Double>> fromCsv = new HashMap<>();
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            String value = line.substring(line.lastIndexOf(',') + 1);
            assertShortestText(value, line);
            fromCsv.computeIfAbsent(line.substring(0, line.indexOf(',')), k -> new ArrayList<>())
                    .add(Double.parseDouble(value));
        }
        SeverityCube c;
        try (TraceSource src = Traces.open(trace, false)) {
            // as analyze runs it: with root causes
            c = Analysis.run(src, AnalysisOptions.defaults().withRootCauses(true)).cube();
        }
        Map<String, List<Double>> fromCube = new HashMap<>();
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                for (int l = 0; l < c.locations().size(); l++) {
                    if (c.get(m, p, l) != 0) {
                        fromCube.computeIfAbsent(c.metrics().get(m).uniqueName(), k -> new ArrayList<>())
                                .add(c.get(m, p, l));
                    }
                }
            }
        }
        fromCsv.values().forEach(java.util.Collections::sort);
        fromCube.values().forEach(java.util.Collections::sort);
        assertEquals(fromCube.keySet(), fromCsv.keySet());
        for (String metric : fromCube.keySet()) {
            // compared one metric at a time: a failure prints one list, not the whole cube
            assertEquals(fromCube.get(metric), fromCsv.get(metric), metric);
        }
    }

    @Test
    void dbQueryOfStoredRunsWritesNumbersAsTheShortestText() {
        Path out = tmp.resolve("g");
        assertEquals(0, run("generate", "graph500-like", "-n", "2,4", "-o", out.toString(), "-q").code());
        Path db = tmp.resolve("runs.duckdb");
        Run add = run("db", "add", "--db", db.toString(), "-q", out.resolve("graph500-like.p2.r0").toString(),
                out.resolve("graph500-like.p4.r0").toString());
        assertEquals(0, add.code(), add.err());
        int numbers = 0;
        for (String view : List.of("metric_totals", "callpath_totals", "callsite_totals", "severities",
                "callsite_ranks")) {
            Run q = run("db", "query", "--db", db.toString(), "SELECT * FROM " + view);
            assertEquals(0, q.code(), q.err());
            for (String line : q.out().lines().skip(1).toList()) {
                for (String field : line.split(",")) {
                    if (field.matches("-?[0-9][0-9.eE+-]*")) {
                        assertShortestText(field, view + ": " + line);
                        numbers++;
                    }
                }
            }
        }
        assertTrue(numbers > 100, "numbers checked: " + numbers);
    }

    @Test
    void bandwidthTableReadsBackAsTheReplayedTimes() throws Exception {
        List<String> traces = new ArrayList<>();
        for (int p : new int[]{4, 8}) {
            Path out = tmp.resolve("gyro" + p);
            assertEquals(0, run("generate", "gyro-like", "-n", Integer.toString(p), "-p", "steps=2", "-o",
                    out.toString(), "-q").code());
            traces.add(out.resolve("gyro-like.p" + p + ".r0").toString());
        }
        Path table = tmp.resolve("t.csv");
        Path json = tmp.resolve("t.json");
        List<String> args = new ArrayList<>(List.of("bandwidth", "--from-traces", "--bandwidths", "100,50,25",
                "--table-out", table.toString(), "--json", json.toString(), "-q"));
        args.addAll(traces);
        Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        JsonNode doc = new ObjectMapper().readTree(json.toFile()).get("whatIfReplay");
        Map<String, Double> replayed = new HashMap<>();
        for (JsonNode t : doc.get("traces")) {
            for (int i = 0; i < doc.get("bandwidthPercent").size(); i++) {
                replayed.put(t.get("tasks").asInt() + "," + doc.get("bandwidthPercent").get(i).asDouble(),
                        t.get("completionTimeSeconds").get(i).asDouble());
            }
        }
        List<String> lines = Files.readAllLines(table);
        assertEquals(1 + replayed.size(), lines.size(), String.join("\n", lines));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            assertShortestText(f[1], line);
            assertShortestText(f[2], line);
            assertEquals(replayed.get(f[0] + "," + Double.parseDouble(f[1])), Double.parseDouble(f[2]), line);
        }
    }
}
