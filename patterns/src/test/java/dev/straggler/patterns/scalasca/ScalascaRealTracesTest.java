package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The most important acceptance check: on the real NPB, LULESH and HPCG traces, every value of Scalasca 2.6's analysis
 * (scalasca_dump.csv: every metric, call path and location) is reproduced within the dump's 6 significant digits,
 * as are its hierarchy totals, its clock-condition violation counts and its instance counts.
 */
class ScalascaRealTracesTest {

    /** Derived metrics of the remapped hierarchy whose whole-run totals Scalasca lists. */
    private static final String[] TREE_METRICS = {"execution", "comp", "mpi", "mpi_management", "mpi_init_exit",
            "mpi_mgmt_comm", "mpi_synchronization", "mpi_sync_collective", "mpi_communication", "mpi_point2point",
            "mpi_collective", "syncs", "syncs_p2p", "comms", "comms_p2p", "comms_coll", "bytes", "bytes_p2p",
            "bytes_coll",
            // root causes: the remapping's aggregates, complements and CubePL-derived metrics
            "delay", "delay_mpi", "delay_p2p", "delay_latesender_aggregate", "delay_latereceiver_aggregate",
            "delay_collective", "delay_barrier_aggregate", "delay_n21_aggregate", "delay_12n_aggregate",
            "delay_n2n_aggregate", "waitstates_propagating_vs_terminal", "mpi_wait_propagating", "mpi_wait_terminal",
            "mpi_wait_terminal_ls", "mpi_wait_terminal_lr", "waitstates_direct_vs_indirect", "mpi_wait_direct",
            "mpi_wait_direct_latesender", "mpi_wait_direct_latereceiver", "mpi_wait_indirect",
            "critical_path_imbalance", "performance_impact", "performance_impact_criticalpath",
            "intra_partition_imbalance"};

    @TestFactory
    Stream<DynamicTest> analysisReproducesScalascaOnEveryRealTrace() throws IOException {
        Optional<Path> traces = RealTraces.tracesDir();
        Assumptions.assumeTrue(traces.isPresent(), "shared traces not found (system property straggler.shared)");
        List<DynamicTest> tests = new ArrayList<>();
        for (Path d : RealTraces.mpiParityFolders("scalasca_dump.csv")) {
            tests.add(DynamicTest.dynamicTest(d.getFileName().toString(), () -> check(d)));
        }
        return tests.stream();
    }

    private static void check(Path dir) throws IOException {
        Optional<TraceSource> source = RealTraces.openOtf2(dir.resolve("traces.otf2"));
        Assumptions.assumeTrue(source.isPresent(), "OTF2 reader not in the build yet");
        AnalysisResult r;
        try (TraceSource s = source.get()) {
            r = Analysis.run(s, AnalysisOptions.defaults().withThreads(2).withRootCauses(true));
        }
        ScalascaReference ref = ScalascaReference.load(dir);
        List<String> metrics = ref.metrics().stream().filter(m -> r.cube().metricIndex(m) >= 0).toList();
        assertTrue(metrics.size() >= 34, "metrics compared: " + metrics);
        ScalascaComparison cmp = ScalascaComparison.compare(r, ref, metrics);
        assertTrue(cmp.unmappedCallPaths().isEmpty(), "call paths without counterpart: " + cmp.unmappedCallPaths());
        List<String> bad = new ArrayList<>();
        cmp.outcomes().values().forEach(o -> {
            if (o.mismatches() > 0) {
                bad.add(o.metric() + ": " + o.mismatches() + " of " + o.compared() + " differ, e.g. " + o.examples());
            }
        });
        assertTrue(bad.isEmpty(), dir.getFileName() + "\n" + String.join("\n", bad));
        for (String m : TREE_METRICS) {
            double theirs = ref.treeTotal(m);
            if (!Double.isNaN(theirs)) {
                assertTrue(ScalascaComparison.close(r.cube().total(m), theirs),
                        m + ": ours " + r.cube().total(m) + ", Scalasca " + theirs);
            }
        }
        assertEquals(ref.clockViolationsP2p(), r.violations().pointToPoint(), "point-to-point clock violations");
        assertEquals(ref.clockViolationsCollective(), r.violations().collective(), "collective clock violations");
        ref.instanceCounts().forEach((metric, count) ->
                assertEquals(count, r.instanceCounts().getOrDefault(metric, 0L), "instances of " + metric));
        // the most severe point-to-point instances: same waits, ranks and call paths as trace.stat
        for (String metric : new String[]{"mpi_latesender", "mpi_latesender_wo", "mpi_latereceiver", "mpi_earlyreduce"}) {
            List<ScalascaReference.StatInstance> theirs = ref.mostSevere().getOrDefault(metric, List.of());
            List<Instance> ours = r.mostSevere().stream().filter(i -> i.metric().equals(metric)).toList();
            assertEquals(theirs.size(), ours.size(), metric + " instances listed");
            for (int k = 0; k < theirs.size(); k++) {
                ScalascaReference.StatInstance t = theirs.get(k);
                Instance o = ours.get(k);
                assertEquals(t.duration(), o.severity(), 1.5e-10, metric + " #" + k);
                assertEquals(t.rank(), o.rank(), metric + " #" + k);
                assertEquals(ref.path(t.cnode()), r.cube().pathNames(o.callPath()), metric + " #" + k);
                if (metric.equals("mpi_latesender") || metric.equals("mpi_latereceiver")) {
                    // the waiting call's Enter, in seconds since the start of the measurement
                    assertEquals(t.enter(), o.start(), 1.5e-9, metric + " #" + k + " enter");
                }
            }
        }
        causesExplainEveryInstanceWithinItsWait(r);
    }

    /**
     * Every most severe point-to-point and collective-wait instance is found again by the backward replay and gets
     * its delay; delay and propagated waiting together never exceed the wait, and the stretch lies before the wait.
     */
    static void causesExplainEveryInstanceWithinItsWait(AnalysisResult r) {
        java.util.Set<String> explained = java.util.Set.of("mpi_latesender", "mpi_latesender_wo", "mpi_latereceiver",
                "mpi_barrier_wait", "mpi_wait_nxn", "mpi_latebroadcast", "mpi_earlyreduce");
        for (Instance i : r.mostSevere()) {
            if (i.metric().equals("mpi_earlyscan")) {
                // Scalasca's delay analysis has no rule for scans (Delay.MPI.pattern): no delay is booked for one
                assertTrue(r.causeOf(i) == null, "a cause for " + i);
            }
            if (!explained.contains(i.metric())) {
                continue;
            }
            DelayCause c = r.causeOf(i);
            assertTrue(c != null, "no cause for " + i);
            assertTrue(c.delay() >= 0 && c.propagated() >= 0, c.toString());
            assertTrue(c.delay() + c.propagated() <= i.severity() * (1 + 1e-9) + 1e-12, c.toString());
            assertTrue(c.from() <= c.to() && c.to() <= i.end() + 1e-9, c.toString());
            // the delay happened within the stretch compared (MPI_Init's completion time included where it opens it),
            // once for each rank that waited (a collective instance sums its waiting ranks)
            assertTrue(c.delay() <= Math.max(1, i.waitingRanks()) * (c.to() - c.from()) * (1 + 1e-9) + 1e-12,
                    "delay longer than its stretch: " + c);
            double parts = c.callPaths().stream().mapToDouble(DelayCause.Part::seconds).sum();
            assertEquals(c.delay(), parts, 1e-12 + 1e-9 * c.delay(), c.toString());
        }
    }
}
