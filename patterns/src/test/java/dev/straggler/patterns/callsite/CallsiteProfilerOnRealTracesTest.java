package dev.straggler.patterns.callsite;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexReader;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The callsite pass on real Score-P traces against Scalasca 2.6's analysis of the same traces ({@code scout.cubex}:
 * visits, time and collective wait states per call path) and against the facts pipit's tests assert.
 */
class CallsiteProfilerOnRealTracesTest {
    /** Scalasca's collective wait-state patterns, whose reference times the phase imbalance uses. */
    static final List<String> COLLECTIVE_WAITS = List.of("mpi_barrier_wait", "mpi_wait_nxn", "mpi_latebroadcast",
            "mpi_earlyreduce", "mpi_earlyscan");

    static Path shared() {
        String s = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(s != null, "system property straggler.shared is not set");
        Path p = Path.of(s, "traces");
        Assumptions.assumeTrue(Files.isDirectory(p), "no traces at " + p + " (shared folder absent)");
        return p;
    }

    static List<Path> experiments() throws Exception {
        Path real = shared().resolve("real");
        Assumptions.assumeTrue(Files.isDirectory(real), "no real traces at " + real);
        try (Stream<Path> s = Files.list(real)) {
            return s.filter(d -> Files.isRegularFile(d.resolve("scout.cubex")) && Files.isRegularFile(d.resolve("traces.otf2")))
                    .sorted().toList();
        }
    }

    /** Per MPI region name: {visits, time} of Scalasca's cube, or a pattern's severity when {@code metric} is given. */
    static Map<String, double[]> byMpiRegion(SeverityCube c, String... metrics) {
        Map<String, double[]> out = new HashMap<>();
        for (int cp = 0; cp < c.callPaths().size(); cp++) {
            String name = c.regions().get(c.callPaths().get(cp).region()).name();
            if (!name.startsWith("MPI_")) {
                continue;
            }
            double[] v = out.computeIfAbsent(name, k -> new double[metrics.length]);
            for (int i = 0; i < metrics.length; i++) {
                int m = c.metricIndex(metrics[i]);
                v[i] += m < 0 ? 0 : c.sumOverLocations(m, cp);
            }
        }
        return out;
    }

    @Test
    void countsAndTimesPerMpiCallEqualScalascasVisitsAndTime() throws Exception {
        for (Path dir : experiments()) {
            SeverityCube scout = CubexReader.read(dir.resolve("scout.cubex"));
            Map<String, double[]> ref = byMpiRegion(scout, "visits", "time");
            CallsiteStatistics s;
            try (TraceSource t = Traces.open(dir.resolve("traces.otf2"))) {
                s = CallsiteProfiler.profile(t, new CallsiteProfiler.Options(0, 1)).callsites();
            }
            assertTrue(s.callsites().size() >= 3, dir.toString());
            for (CallsiteEntry e : s.callsites()) {
                double[] v = ref.get(e.site().mpiCall());
                assertTrue(v != null, dir + ": Scalasca has no " + e.site().mpiCall());
                assertEquals(v[0], e.all().count(), dir + " " + e.site().mpiCall() + " visits");
                assertEquals(v[1], e.all().total(), 1e-9 + 1e-9 * v[1], dir + " " + e.site().mpiCall() + " time");
            }
            // Every MPI call Scalasca saw, apart from MPI_Init and MPI_Finalize, is a callsite.
            long calls = s.callsites().stream().mapToLong(e -> e.all().count()).sum();
            double expected = ref.entrySet().stream().filter(x -> !x.getKey().equals("MPI_Init") && !x.getKey().equals("MPI_Finalize"))
                    .mapToDouble(x -> x.getValue()[0]).sum();
            assertEquals(expected, calls, dir.toString());
        }
    }

    @Test
    void collectiveWaitsEqualScalascasCollectiveWaitStates() throws Exception {
        int compared = 0;
        for (Path dir : experiments()) {
            SeverityCube scout = CubexReader.read(dir.resolve("scout.cubex"));
            Map<String, double[]> ref = byMpiRegion(scout, COLLECTIVE_WAITS.toArray(String[]::new));
            TraceProfile p;
            try (TraceSource t = Traces.open(dir.resolve("traces.otf2"))) {
                // A phase depth beyond every call path makes each MPI call path its own phase.
                p = CallsiteProfiler.profile(t, new CallsiteProfiler.Options(0, 1000));
            }
            Map<String, Double> ours = new HashMap<>();
            for (PhaseBreakdown.Phase ph : p.phases().phases()) {
                ours.merge(ph.name(), ph.imbalanceSum(), Double::sum);
            }
            for (Map.Entry<String, double[]> e : ref.entrySet()) {
                double expected = 0;
                for (double v : e.getValue()) {
                    expected += v;
                }
                double actual = ours.getOrDefault(e.getKey(), 0.0);
                assertEquals(expected, actual, 1e-9 + 1e-9 * expected, dir + " " + e.getKey());
                if (expected > 0) {
                    compared++;
                }
            }
        }
        assertTrue(compared >= 20, "non-zero collective waits compared: " + compared);
    }

    @Test
    void pingPongHasPipitsCallCountsAndBytes() throws Exception {
        Path dir = shared().resolve("pipit-ping-pong");
        Assumptions.assumeTrue(Files.isDirectory(dir), "no " + dir);
        Path anchor;
        try (Stream<Path> s = Files.list(dir)) {
            anchor = s.filter(f -> f.toString().endsWith(".otf2")).findFirst().orElseThrow();
        }
        CallsiteStatistics s;
        try (TraceSource t = Traces.open(anchor)) {
            s = CallsiteProfiler.profile(t, new CallsiteProfiler.Options(0, 1)).callsites();
        }
        CallsiteEntry send = s.callsites().stream().filter(e -> e.site().mpiCall().equals("MPI_Send")).findFirst().orElseThrow();
        CallsiteEntry recv = s.callsites().stream().filter(e -> e.site().mpiCall().equals("MPI_Recv")).findFirst().orElseThrow();
        // pipit: 16 MPI_Send and 16 MPI_Recv calls; each rank sends 4,177,920 bytes in 8 messages.
        assertEquals(16, send.all().count());
        assertEquals(16, recv.all().count());
        assertEquals(2, send.perRank().size());
        for (RankStats r : send.perRank()) {
            assertEquals(8, r.count());
            assertEquals(4_177_920, r.bytes());
        }
    }
}
