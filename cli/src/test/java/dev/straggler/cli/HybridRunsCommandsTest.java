package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code diff}, the experiment database and {@code model} work unchanged on hybrid MPI+OpenMP runs and carry the
 * OpenMP metrics and delays. The runs are the simulator's {@code hybrid-omp-to-late-sender} at p = 2, 4, 8 ranks of
 * T = 4 threads, R = 3 repetitions, δ = 5 ms (docs/openmp.md, closed forms checked by ScenarioGroundTruthTest):
 * {@code mpi_latesender} = R(p−1)δ, {@code omp_ibarrier_wait} = {@code delay_ompbarrier} = R(T−1)δ,
 * {@code omp_idle_threads} = {@code delay_ompidle_longterm} = R(p−1)(T−1)δ, {@code delay_latesender_longterm} =
 * R(p−1)δ, {@code critical_path} = R(w+δ) with w = 10 ms.
 */
class HybridRunsCommandsTest {
    private static final double R = 3;
    private static final double T = 4;
    private static final double DELTA = 0.005;
    private static final double EPS = 1e-12;

    @TempDir
    static Path tmp;

    private static Path trace(int p) {
        return tmp.resolve("h" + p + ".txt");
    }

    @BeforeAll
    static void generate() {
        for (int p : new int[] {2, 4, 8}) {
            Run g = CliTest.run("generate", "hybrid-omp-to-late-sender", "-n", Integer.toString(p), "-o",
                    trace(p).toString(), "-q");
            assertEquals(0, g.code(), g.err());
        }
    }

    private static Map<String, double[]> diffMetrics(JsonNode diff) {
        Map<String, double[]> out = new HashMap<>();
        for (JsonNode m : diff.get("metrics")) {
            JsonNode c = m.get("change");
            out.put(m.get("metric").asText(), new double[] {c.get("a").asDouble(), c.get("b").asDouble()});
        }
        return out;
    }

    @Test
    void diffOfTwoHybridRunsHasTheClosedFormOpenMpMetricsAndDelays() throws Exception {
        Path json = tmp.resolve("diff.json");
        Run r = run("diff", trace(4).toString(), trace(2).toString(), "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        Map<String, double[]> m = diffMetrics(new ObjectMapper().readTree(json.toFile()));
        double[][] expected = {
                {R * 3 * DELTA, R * DELTA},                 // mpi_latesender
                {R * (T - 1) * DELTA, R * (T - 1) * DELTA}, // omp_ibarrier_wait
                {R * 3 * (T - 1) * DELTA, R * (T - 1) * DELTA}, // omp_idle_threads
                {R * (T - 1) * DELTA, R * (T - 1) * DELTA}, // delay_ompbarrier
                {R * 3 * (T - 1) * DELTA, R * (T - 1) * DELTA}, // delay_ompidle_longterm
                {R * 3 * DELTA, R * DELTA},                 // delay_latesender_longterm
                {R * (0.01 + DELTA), R * (0.01 + DELTA)}};  // critical_path
        String[] names = {"mpi_latesender", "omp_ibarrier_wait", "omp_idle_threads", "delay_ompbarrier",
                "delay_ompidle_longterm", "delay_latesender_longterm", "critical_path"};
        for (int i = 0; i < names.length; i++) {
            assertEquals(expected[i][0], m.get(names[i])[0], EPS, names[i] + " of A (4 ranks)");
            assertEquals(expected[i][1], m.get(names[i])[1], EPS, names[i] + " of B (2 ranks)");
        }
        // the growth of the waiting (Late Sender +2Rδ, idle threads +2R(T−1)δ): propagated delay of the slow thread
        assertTrue(r.out().contains("why: waiting +0.120 s; of the growth in the delays causing it, 100.0 % is caused"
                + " by `\u2026/work` on rank 0 of A: 0.000 s short-term, +0.120 s propagated"), r.out());
    }

    @Test
    void theExperimentDatabaseStoresTheOpenMpMetricsOfEachRun() {
        Path db = tmp.resolve("runs.duckdb");
        Run add = run("db", "add", "--db", db.toString(), "--app", "hyb", "-q", trace(2).toString(),
                trace(4).toString(), trace(8).toString());
        assertEquals(0, add.code(), add.err());
        Run q = run("db", "query", "--db", db.toString(), "SELECT processes, metric, value FROM metric_totals WHERE"
                + " metric IN ('omp_ibarrier_wait', 'omp_idle_threads', 'delay_ompidle_longterm') ORDER BY 1, 2");
        assertEquals(0, q.code(), q.err());
        String[] lines = q.out().strip().split("\n");
        assertEquals("processes,metric,value", lines[0]);
        assertEquals(10, lines.length, q.out());
        int row = 1;
        for (int p : new int[] {2, 4, 8}) {
            double[] expected = {R * (p - 1) * (T - 1) * DELTA, R * (T - 1) * DELTA, R * (p - 1) * (T - 1) * DELTA};
            for (double e : expected) {
                String[] f = lines[row++].split(",");
                assertEquals(p, Integer.parseInt(f[0]), q.out());
                assertEquals(e, Double.parseDouble(f[2]), EPS, f[1] + " at p = " + p);
            }
        }
    }

    @Test
    void modelFitsTheOpenMpDelaysPerProcessAsTheirClosedForms() {
        Run r = run("model", "-q", trace(2).toString(), trace(4).toString(), trace(8).toString());
        assertEquals(0, r.code(), r.err());
        // per process: delay_ompbarrier R(T−1)δ/p = 0.045/p, delay_ompidle R(p−1)(T−1)δ/p = 0.045 − 0.045/p
        assertTrue(r.out().matches("(?s).*\ndelay_ompbarrier_aggregate @ [^\n]*/work\n"
                + "\\s+\\S+ \\+ 0\\.04500·p\\^\\(-1\\)\\s+1\\.0000 .*"), r.out());
        assertTrue(r.out().matches("(?s).*\ndelay_ompidle_aggregate @ [^\n]*/work\n"
                + "\\s+0\\.04500 - 0\\.04500·p\\^\\(-1\\)\\s+1\\.0000 .*"), r.out());
    }
}
