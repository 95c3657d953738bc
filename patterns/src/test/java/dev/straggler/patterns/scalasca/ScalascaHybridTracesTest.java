package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
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
 * The hybrid MPI+OpenMP traces: every value of Scalasca 2.6's hybrid analysis ({@code scout.hyb}, its
 * {@code scalasca_dump.csv}) per call path and thread that the OpenMP level of the analysis computes, and the MPI
 * metrics of the threaded processes, within the dump's 6 significant digits (docs/openmp.md).
 */
class ScalascaHybridTracesTest {
    /**
     * The flat metrics of scout.cubex computed so far for hybrid traces ({@code time} there is before the idle
     * threads, so it is compared with the remapped tree).
     */
    static final List<String> METRICS = List.of("visits", "omp_management", "omp_fork",
            "omp_ebarrier_wait", "omp_ibarrier_wait", "omp_lock_contention_critical", "omp_lock_contention_api",
            "mpi_init_completion", "mpi_finalize_wait", "mpi_barrier_wait", "mpi_barrier_completion",
            "mpi_latesender", "mpi_latesender_wo", "mpi_latereceiver", "mpi_earlyreduce", "mpi_earlyscan",
            "mpi_latebroadcast", "mpi_wait_nxn", "mpi_nxn_completion", "syncs_send", "syncs_recv", "syncs_coll",
            "comms_send", "comms_recv", "comms_cxch", "comms_csrc", "comms_cdst", "bytes_sent", "bytes_rcvd",
            "bytes_cout", "bytes_cin", "mpi_cls_count", "mpi_clr_count");

    /**
     * The remapped tree (trace.cubex) per call path and thread: time with the idle threads the remapping adds,
     * execution, computation and the OpenMP and MPI categories.
     */
    static final List<String> REMAPPED = List.of("time", "omp_idle_threads", "omp_limited_parallelism",
            "execution", "comp", "mpi", "mpi_management", "mpi_init_exit",
            "mpi_synchronization", "mpi_sync_collective", "mpi_communication", "mpi_point2point", "mpi_collective",
            "omp_time", "omp_management", "omp_fork", "omp_synchronization", "omp_barrier", "omp_ebarrier",
            "omp_ebarrier_wait", "omp_ibarrier", "omp_ibarrier_wait", "omp_critical", "omp_lock_contention_critical",
            "omp_lock_api", "omp_lock_contention_api", "omp_ordered", "omp_taskwait", "omp_flush");

    @TestFactory
    Stream<DynamicTest> openMpLevelReproducesScalascaOnEveryHybridTrace() throws IOException {
        return forEachTrace(ScalascaHybridTracesTest::check);
    }

    @TestFactory
    Stream<DynamicTest> openMpCategoriesReproduceTheRemappedTreeOnEveryHybridTrace() throws IOException {
        return forEachTrace(ScalascaHybridTracesTest::checkRemapped);
    }

    private interface Check {
        void run(Path dir) throws IOException;
    }

    private static Stream<DynamicTest> forEachTrace(Check check) throws IOException {
        Optional<Path> traces = RealTraces.tracesDir();
        Assumptions.assumeTrue(traces.isPresent(), "shared traces not found (system property straggler.shared)");
        Path hybrid = traces.get().resolve("hybrid");
        Assumptions.assumeTrue(Files.isDirectory(hybrid), "no hybrid traces in " + traces.get());
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(hybrid)) {
            for (Path d : dirs.filter(p -> Files.exists(p.resolve("scalasca_dump.csv"))).sorted().toList()) {
                tests.add(DynamicTest.dynamicTest(d.getFileName().toString(), () -> check.run(d)));
            }
        }
        return tests.stream();
    }

    private static AnalysisResult analyse(Path dir) throws IOException {
        Optional<TraceSource> source = RealTraces.openOtf2(dir.resolve("traces.otf2"));
        Assumptions.assumeTrue(source.isPresent(), "OTF2 reader not in the build");
        try (TraceSource s = source.get()) {
            return Analysis.run(s, AnalysisOptions.defaults().withThreads(2).withRootCauses(false));
        }
    }

    private static void check(Path dir) throws IOException {
        compare(dir, analyse(dir), ScalascaReference.load(dir), METRICS);
    }


    /**
     * Idle time on a call path Scalasca created late is its id-order walk's double count, which Straggler leaves
     * out (docs/openmp.md, "Idle threads": a worker's time would exceed the run): those cells are checked apart.
     */
    private static void checkRemapped(Path dir) throws IOException {
        Assumptions.assumeTrue(Files.exists(dir.resolve("trace_dump.csv")), "no trace_dump.csv in " + dir);
        ScalascaReference ref = ScalascaReference.loadRemapped(dir);
        java.util.Set<Integer> late = ref.lateCnodes();
        AnalysisResult r = analyse(dir);
        compare(dir, r, ref, REMAPPED, (m, k) -> late.contains(k) && (m.equals("time")
                || m.equals("omp_idle_threads")));
        // there, every thread's time is its execution: no idle time inside the parallel region
        ScalascaComparison inRegion = ScalascaComparison.compare(r, ref, List.of("execution"), (m, k) -> !late.contains(k));
        inRegion.outcomes().values().forEach(o -> assertEquals(0, o.mismatches(), o.examples().toString()));
        for (int k : late) {
            for (var loc : ref.locations().entrySet()) {
                double scalascaIdle = ref.value("omp_idle_threads", k, loc.getKey());
                assertTrue(scalascaIdle == 0 || loc.getValue()[1] > 0, "only workers get Scalasca's double count");
            }
        }
        double run = r.summary().durationSeconds();
        for (double t : r.cube().perLocation(r.cube().metricIndex("time"))) {
            assertTrue(t <= run * (1 + 1e-12), "a thread's time " + t + " s exceeds the run's " + run + " s");
        }
    }

    private static void compare(Path dir, AnalysisResult r, ScalascaReference ref, List<String> metrics) {
        compare(dir, r, ref, metrics, (m, k) -> false);
    }

    private static void compare(Path dir, AnalysisResult r, ScalascaReference ref, List<String> metrics,
                                java.util.function.BiPredicate<String, Integer> skip) {
        List<String> missing = metrics.stream().filter(m -> r.cube().metricIndex(m) < 0).toList();
        assertTrue(missing.isEmpty(), "metrics not in the cube: " + missing);
        ScalascaComparison cmp = ScalascaComparison.compare(r, ref, metrics, skip);
        assertTrue(cmp.unmappedCallPaths().isEmpty(), "call paths without counterpart: " + cmp.unmappedCallPaths());
        List<String> bad = new ArrayList<>();
        cmp.outcomes().values().forEach(o -> {
            if (o.mismatches() > 0) {
                bad.add(o.metric() + ": " + o.mismatches() + " of " + o.compared() + " differ (ours " + o.ours()
                        + ", Scalasca " + o.theirs() + "), e.g. " + o.examples());
            }
        });
        assertTrue(bad.isEmpty(), dir.getFileName() + "\n" + String.join("\n", bad));
    }
}
