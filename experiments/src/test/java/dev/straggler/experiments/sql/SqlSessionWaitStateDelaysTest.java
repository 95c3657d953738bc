package dev.straggler.experiments.sql;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexReader;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The delay behind each wait-state instance in {@code wait_states} and {@code wait_state_delays}: a closed form on
 * the hand-written sample, and bounds on NPB MG.
 */
class SqlSessionWaitStateDelaysTest {
    private static final Path SAMPLE = Path.of("..", "samples", "late-sender.txt");

    static List<List<Object>> rows(SqlSession s, String sql) throws IOException {
        List<List<Object>> out = new ArrayList<>();
        s.query(sql, new SqlSession.RowSink() {
            @Override
            public void columns(List<String> names, List<String> types) {
            }

            @Override
            public void row(Object[] values) {
                out.add(new ArrayList<>(Arrays.asList(values)));
            }
        });
        return out;
    }

    /**
     * samples/late-sender.txt: rank 1 waits in MPI_Recv from 2 ms until rank 0 enters MPI_Send at 7 ms. Since their
     * last synchronisation (MPI_Init, left at 1 ms by both) rank 0 computed 6 ms in main/compute, rank 1 1 ms; the
     * 5 ms more lie in main/compute, and rank 0 did not wait in between: delay 0.005 s, nothing propagated, on the
     * stretch 0.001 to 0.007 s of rank 0.
     */
    @Test
    void theSamplesLateSenderIsChargedToRankZerosCompute() throws IOException {
        try (TraceSource src = Traces.open(SAMPLE); SqlSession s = SqlSession.ofTrace(src, 1)) {
            List<List<Object>> r = rows(s, "SELECT w.severity, w.delay_rank, w.delay_thread, w.delay_from, w.delay_to, "
                    + "w.delay, w.propagated, c.path FROM wait_states w LEFT JOIN callpaths c ON c.id = w.delay_callpath "
                    + "WHERE w.pattern = 'mpi_latesender'");
            assertEquals(1, r.size(), r.toString());
            List<Object> w = r.get(0);
            assertEquals(0.005, (Double) w.get(0), 1e-12);
            assertEquals(0, w.get(1));
            assertEquals(0, w.get(2));
            assertEquals(0.001, (Double) w.get(3), 1e-12);
            assertEquals(0.007, (Double) w.get(4), 1e-12);
            assertEquals(0.005, (Double) w.get(5), 1e-12);
            assertEquals(0.0, (Double) w.get(6), 1e-12);
            assertEquals("main/compute", w.get(7));
            List<List<Object>> parts = rows(s, "SELECT c.path, d.seconds FROM wait_state_delays d "
                    + "JOIN wait_states w ON w.id = d.wait_state JOIN callpaths c ON c.id = d.callpath "
                    + "WHERE w.pattern = 'mpi_latesender'");
            assertEquals(1, parts.size(), parts.toString());
            assertEquals("main/compute", parts.get(0).get(0));
            assertEquals(0.005, (Double) parts.get(0).get(1), 1e-12);
        }
    }

    @Test
    void withoutRootCausesTheDelayColumnsAreNull() throws IOException {
        try (TraceSource src = Traces.open(SAMPLE); SqlSession s = SqlSession.ofTrace(src, 1, false)) {
            List<List<Object>> r = rows(s, "SELECT COUNT(*), COUNT(delay_rank), COUNT(delay), COUNT(delay_callpath) "
                    + "FROM wait_states");
            assertTrue((Long) r.get(0).get(0) > 0, r.toString());
            assertEquals(List.of(0L, 0L, 0L), r.get(0).subList(1, 4));
            assertEquals(0L, rows(s, "SELECT COUNT(*) FROM wait_state_delays").get(0).get(0));
        }
    }

    /**
     * NPB MG at 4 ranks: every point-to-point and MPI collective instance has its delay; the delay and the waiting
     * it propagated never explain more than the instance waited, so summed over the Late Sender instances of a
     * waiting call path the delay stays within their waiting; the parts of an instance add up to its delay, and
     * the largest part is its delay_callpath.
     */
    @Test
    void delaysOnMgStayWithinTheWaitsAndTheirPartsAddUp() throws IOException {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path trace = Path.of(shared, "traces", "real", "npb-mg.S-4", "traces.otf2");
        Assumptions.assumeTrue(Files.isRegularFile(trace), "shared traces absent");
        try (TraceSource src = Traces.open(trace); SqlSession s = SqlSession.ofTrace(src, 2)) {
            List<List<Object>> byPath = rows(s, "SELECT callpath, COUNT(*), COUNT(delay), SUM(severity), SUM(delay), "
                    + "SUM(delay + propagated) FROM wait_states WHERE pattern = 'mpi_latesender' GROUP BY callpath");
            assertTrue(byPath.size() > 1, byPath.toString());
            double delays = 0;
            for (List<Object> p : byPath) {
                assertEquals(p.get(1), p.get(2), "every Late Sender instance has its delay: " + p);
                double waits = (Double) p.get(3);
                assertTrue((Double) p.get(4) >= 0 && (Double) p.get(5) <= waits + 1e-12, p.toString());
                delays += (Double) p.get(4);
            }
            assertTrue(delays > 0, byPath.toString());
            assertEquals(0L, rows(s, "SELECT COUNT(*) FROM wait_states WHERE delay < 0 OR propagated < 0 "
                    + "OR delay + propagated > severity + 1e-12 OR delay_from > delay_to").get(0).get(0));
            assertEquals(List.of(0L), rows(s, "SELECT COUNT(*) FROM wait_states WHERE pattern IN ('mpi_wait_nxn', "
                    + "'mpi_barrier_wait') AND severity > 0 AND delay IS NULL").get(0));
            List<List<Object>> mismatch = rows(s, "SELECT w.id, w.delay, SUM(d.seconds), w.delay_callpath, "
                    + "arg_max(d.callpath, d.seconds) FROM wait_states w JOIN wait_state_delays d ON d.wait_state = w.id "
                    + "GROUP BY w.id, w.delay, w.delay_callpath HAVING abs(w.delay - SUM(d.seconds)) > 1e-12 "
                    + "OR max(d.seconds) > (SELECT seconds FROM wait_state_delays x "
                    + "WHERE x.wait_state = w.id AND x.callpath = w.delay_callpath) ");
            assertEquals(List.of(), mismatch);
        }
    }

    /**
     * Scalasca's short-term delay cost of a wait-state pattern is the delay its instances were charged to, its
     * long-term cost the waiting they propagated (Böhme et al., reference §9): summed over the instances of each
     * pattern, {@code delay} and {@code propagated} equal Scalasca's own cube of NPB MG at 4 ranks (to the six digits
     * the comparison with Scalasca uses throughout, ScalascaComparison).
     */
    @Test
    void delaysSummedPerPatternEqualScalascasDelayCosts() throws IOException {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path dir = Path.of(shared, "traces", "real", "npb-mg.S-4");
        Assumptions.assumeTrue(Files.isRegularFile(dir.resolve("traces.otf2")), "shared traces absent");
        SeverityCube scout = CubexReader.read(dir.resolve("scout.cubex"));
        Map<String, String> costOf = Map.of("mpi_latesender", "delay_latesender", "mpi_latereceiver",
                "delay_latereceiver", "mpi_barrier_wait", "delay_barrier", "mpi_wait_nxn", "delay_n2n",
                "mpi_latebroadcast", "delay_12n", "mpi_earlyreduce", "delay_n21");
        try (TraceSource src = Traces.open(dir.resolve("traces.otf2")); SqlSession s = SqlSession.ofTrace(src, 2)) {
            int compared = 0;
            for (List<Object> r : rows(s, "SELECT pattern, SUM(delay), SUM(propagated) FROM wait_states "
                    + "GROUP BY pattern")) {
                String cost = costOf.get((String) r.get(0));
                if (cost == null) {
                    continue;
                }
                assertClose(scout.total(cost), (Double) r.get(1), r.get(0) + " delay vs " + cost);
                assertClose(scout.total(cost + "_longterm"), (Double) r.get(2), r.get(0) + " propagated");
                compared++;
            }
            assertEquals(costOf.size(), compared);
        }
    }

    /**
     * Where the delays lie: the parts of the Late Sender instances summed per call path are Scalasca's
     * {@code delay_latesender} per call path (summed over the locations), in its cube of NPB MG at 4 ranks.
     */
    @Test
    void partsPerCallPathEqualScalascasLateSenderDelayCostPerCallPath() throws IOException {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path dir = Path.of(shared, "traces", "real", "npb-mg.S-4");
        Assumptions.assumeTrue(Files.isRegularFile(dir.resolve("traces.otf2")), "shared traces absent");
        SeverityCube scout = CubexReader.read(dir.resolve("scout.cubex"));
        int m = scout.metricIndex("delay_latesender");
        Map<String, Double> expected = new TreeMap<>();
        for (int c = 0; c < scout.callPaths().size(); c++) {
            double v = scout.sumOverLocations(m, c);
            if (v != 0) {
                expected.put(String.join("/", scout.pathNames(c)), v);
            }
        }
        Map<String, Double> actual = new TreeMap<>();
        try (TraceSource src = Traces.open(dir.resolve("traces.otf2")); SqlSession s = SqlSession.ofTrace(src, 2)) {
            for (List<Object> r : rows(s, "SELECT c.path, SUM(d.seconds) FROM wait_states w JOIN wait_state_delays d "
                    + "ON d.wait_state = w.id JOIN callpaths c ON c.id = d.callpath WHERE w.pattern = 'mpi_latesender' "
                    + "GROUP BY c.path")) {
                actual.put((String) r.get(0), (Double) r.get(1));
            }
        }
        assertTrue(expected.size() > 10, expected.toString());
        assertEquals(expected.keySet(), actual.keySet());
        for (String k : expected.keySet()) {
            assertClose(expected.get(k), actual.get(k), k);
        }
    }

    private static void assertClose(double expected, double actual, String what) {
        assertEquals(expected, actual, 5e-6 * Math.max(Math.abs(expected), Math.abs(actual)) + 1e-11, what);
    }
}
