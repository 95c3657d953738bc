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
 * {@code scalasca_dump.csv}) per call path and thread that the OpenMP level of the analysis computes, the MPI
 * metrics of the threaded processes and the root causes across threads and ranks, and every value of the remapped
 * tree ({@code trace_dump.csv}), within the dumps' 6 significant digits (docs/openmp.md).
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
            "bytes_cout", "bytes_cin", "mpi_cls_count", "mpi_clr_count", "pthread_lock_contention_mutex_lock",
            "pthread_lock_contention_conditional");

    /**
     * The root causes of scout.cubex: delay costs of MPI and OpenMP wait states and of idle threads, short- and
     * long-term, the wait states' classification, the critical path through threads and ranks and its impact.
     */
    static final List<String> ROOT_CAUSES = List.of("delay_latesender", "delay_latesender_longterm",
            "delay_latereceiver", "delay_latereceiver_longterm", "delay_barrier", "delay_barrier_longterm",
            "delay_n2n", "delay_n2n_longterm", "delay_12n", "delay_12n_longterm", "delay_n21", "delay_n21_longterm",
            "delay_ompbarrier", "delay_ompbarrier_longterm", "delay_ompidle", "delay_ompidle_longterm",
            "mpi_wait_indirect_latesender", "mpi_wait_indirect_latereceiver", "mpi_wait_propagating_ls",
            "mpi_wait_propagating_lr", "critical_path", "critical_path_activities", "critical_imbalance_impact",
            "inter_partition_imbalance", "non_critical_path_activities");

    /**
     * What the remapping derives from the root causes and the computation (trace.cubex): the delay aggregates, the
     * wait states' complements, the critical-path imbalance and performance impact, and the computational imbalance
     * heuristic with its OpenMP branch.
     */
    static final List<String> REMAPPED_ROOT_CAUSES = List.of("delay", "delay_mpi", "delay_p2p",
            "delay_latesender_aggregate", "delay_latereceiver_aggregate", "delay_collective",
            "delay_barrier_aggregate", "delay_n21_aggregate", "delay_12n_aggregate", "delay_n2n_aggregate",
            "delay_omp", "delay_ompbarrier_aggregate", "delay_ompidle_aggregate",
            "waitstates_propagating_vs_terminal", "mpi_wait_propagating", "mpi_wait_terminal",
            "mpi_wait_terminal_ls", "mpi_wait_terminal_lr", "waitstates_direct_vs_indirect", "mpi_wait_direct",
            "mpi_wait_direct_latesender", "mpi_wait_direct_latereceiver", "mpi_wait_indirect", "critical_path",
            "critical_path_imbalance", "performance_impact", "performance_impact_criticalpath",
            "intra_partition_imbalance", "imbalance", "imbalance_above", "imbalance_above_single", "imbalance_below",
            "imbalance_below_bypass", "imbalance_below_singularity");

    /**
     * The remapped tree (trace.cubex) per call path and thread: time with the idle threads the remapping adds,
     * execution, computation and the OpenMP and MPI categories.
     */
    static final List<String> REMAPPED = List.of("time", "omp_idle_threads", "omp_limited_parallelism",
            "execution", "comp", "mpi", "mpi_management", "mpi_init_exit",
            "mpi_synchronization", "mpi_sync_collective", "mpi_communication", "mpi_point2point", "mpi_collective",
            "omp_time", "omp_management", "omp_fork", "omp_synchronization", "omp_barrier", "omp_ebarrier",
            "omp_ebarrier_wait", "omp_ibarrier", "omp_ibarrier_wait", "omp_critical", "omp_lock_contention_critical",
            "omp_lock_api", "omp_lock_contention_api", "omp_ordered", "omp_taskwait", "omp_flush", "pthread_time",
            "pthread_management", "pthread_synchronization", "pthread_lock_api", "pthread_lock_contention_mutex_lock",
            "pthread_conditional", "pthread_lock_contention_conditional");

    @TestFactory
    Stream<DynamicTest> openMpLevelReproducesScalascaOnEveryHybridTrace() throws IOException {
        return forEachTrace(ScalascaHybridTracesTest::check);
    }

    @TestFactory
    Stream<DynamicTest> openMpCategoriesReproduceTheRemappedTreeOnEveryHybridTrace() throws IOException {
        return forEachTrace(ScalascaHybridTracesTest::checkRemapped);
    }

    @TestFactory
    Stream<DynamicTest> rootCausesAcrossThreadsReproduceScalascaOnEveryHybridTrace() throws IOException {
        return forEachTrace(dir -> compare(dir, analyse(dir), ScalascaReference.load(dir), ROOT_CAUSES));
    }

    @TestFactory
    Stream<DynamicTest> remappedRootCausesAndImbalanceReproduceScalascaOnEveryHybridTrace() throws IOException {
        return forEachTrace(dir -> {
            Assumptions.assumeTrue(Files.exists(dir.resolve("trace_dump.csv")), "no trace_dump.csv in " + dir);
            AnalysisResult r = analyse(dir);
            ScalascaReference ref = ScalascaReference.loadRemapped(dir);
            compare(dir, r, ref, REMAPPED_ROOT_CAUSES);
            // where Scalasca's intra-partition imbalance of a location is negative, ours is the same and is said to be
            boolean negative = false;
            for (int loc : ref.locations().keySet()) {
                double sum = 0;
                for (int k = 0; k < ref.cnodeCount(); k++) {
                    sum += ref.value("intra_partition_imbalance", k, loc);
                }
                negative |= sum < 0;
            }
            assertEquals(negative, r.warnings().stream().anyMatch(w -> w.startsWith("intra-partition imbalance is "
                    + "negative")), dir.getFileName() + ": " + r.warnings());
        });
    }

    @TestFactory
    Stream<DynamicTest> rootCausesAcrossThreadsDoNotDependOnTheAnalysisThreads() throws IOException {
        return forEachTrace(dir -> {
            AnalysisResult one = analyse(dir, 1);
            AnalysisResult three = analyse(dir, 3);
            var a = one.cube();
            var b = three.cube();
            for (String m : ROOT_CAUSES) {
                int x = a.metricIndex(m);
                for (int c = 0; c < a.callPaths().size(); c++) {
                    for (int l = 0; l < a.locations().size(); l++) {
                        assertEquals(Double.doubleToLongBits(a.get(x, c, l)), Double.doubleToLongBits(b.get(x, c, l)),
                                m + " at call path " + c + ", location " + l);
                    }
                }
            }
        });
    }

    private interface Check {
        void run(Path dir) throws IOException;
    }

    /** Recorded with Score-P 8.4 and analysed by Scalasca 2.6 (samples/recorded/README.md): MPI+Pthreads, MPI in OpenMP. */
    static final Path RECORDED = Path.of("..", "samples", "recorded");

    /**
     * The analysis (root causes, two threads) of the recorded sample {@code name}; the test is skipped when the sample
     * or the OTF2 reader is absent.
     */
    static AnalysisResult analyseRecorded(String name) throws IOException {
        Path trace = RECORDED.resolve(name).resolve("traces.otf2");
        Assumptions.assumeTrue(Files.exists(trace), "no " + trace);
        return analyse(trace.getParent());
    }

    private static Stream<DynamicTest> forEachTrace(Check check) throws IOException {
        List<Path> roots = new ArrayList<>();
        Optional<Path> traces = RealTraces.tracesDir();
        traces.map(t -> t.resolve("hybrid")).filter(Files::isDirectory).ifPresent(roots::add);
        if (Files.isDirectory(RECORDED)) {
            roots.add(RECORDED);
        }
        Assumptions.assumeFalse(roots.isEmpty(), "neither shared hybrid traces (system property straggler.shared)"
                + " nor " + RECORDED + " found");
        List<DynamicTest> tests = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> dirs = Files.list(root)) {
                for (Path d : dirs.filter(p -> Files.exists(p.resolve("scalasca_dump.csv"))).sorted().toList()) {
                    tests.add(DynamicTest.dynamicTest(d.getFileName().toString(), () -> check.run(d)));
                }
            }
        }
        return tests.stream();
    }

    private static AnalysisResult analyse(Path dir) throws IOException {
        return analyse(dir, 2);
    }

    private static AnalysisResult analyse(Path dir, int threads) throws IOException {
        Optional<TraceSource> source = RealTraces.openOtf2(dir.resolve("traces.otf2"));
        Assumptions.assumeTrue(source.isPresent(), "OTF2 reader not in the build");
        try (TraceSource s = source.get()) {
            return Analysis.run(s, AnalysisOptions.defaults().withThreads(threads).withRootCauses(true));
        }
    }

    private static void check(Path dir) throws IOException {
        AnalysisResult r = analyse(dir);
        compare(dir, r, ScalascaReference.load(dir), METRICS);
        ScalascaRealTracesTest.causesExplainEveryInstanceWithinItsWait(r);
        if (r.mostSevere().stream().anyMatch(i -> i.metric().equals("mpi_earlyscan"))) {
            // the report says why an Early Scan instance has no cause instead of leaving the line out
            String report = dev.straggler.patterns.report.TextReport.render(r, 1000);
            assertTrue(report.contains(dev.straggler.patterns.report.TextReport.NO_SCAN_DELAY.strip()), report);
        }
    }


    /**
     * Idle time on a call path Scalasca created late is its id-order walk's double count, which Straggler leaves
     * out (docs/openmp.md, "Idle threads": a worker's time would exceed the run): those cells are checked apart.
     */
    private static void checkRemapped(Path dir) throws IOException {
        Assumptions.assumeTrue(Files.exists(dir.resolve("trace_dump.csv")), "no trace_dump.csv in " + dir);
        ScalascaReference ref = ScalascaReference.loadRemapped(dir);
        // without idle threads (a run without OpenMP) no cell has the double count
        java.util.Set<Integer> late = ref.hasMetric("omp_idle_threads") ? ref.lateCnodes() : java.util.Set.of();
        // the constructs whose per-thread sums a late call path upsets in Scalasca's id-order walk (docs/openmp.md):
        // the parallel region holding it, whose sums lack its time, and the construct open where its id falls, whose
        // sums gain it; the threads concerned show limited parallelism (and idle time) there
        java.util.Set<Integer> regionsOfLate = new java.util.TreeSet<>();
        for (int k : late) {
            for (int a = ref.parent(k); a >= 0; a = ref.parent(a)) {
                if (ref.regionName(a).startsWith("!$omp parallel")) {
                    regionsOfLate.add(a);
                    break;
                }
            }
        }
        int open = -1;
        int openDepth = -1;
        for (int k = 0; k < ref.cnodeCount(); k++) {
            int depth = ref.path(k).size() - 1;
            boolean openMp = "openmp".equals(ref.regionParadigm(k));
            if (openMp && (open < 0 || depth <= openDepth)) {
                open = k;
                openDepth = depth;
            } else if (open >= 0 && depth <= openDepth) {
                open = -1;
            }
            if (late.contains(k) && open >= 0) {
                regionsOfLate.add(open);
            }
        }
        AnalysisResult r = analyse(dir);
        compare(dir, r, ref, REMAPPED, (m, k) -> (late.contains(k) && (m.equals("time")
                || m.equals("omp_idle_threads"))) || (regionsOfLate.contains(k) && (m.equals("time")
                || m.equals("omp_idle_threads") || m.equals("omp_limited_parallelism"))));
        // there a full team has no limited parallelism, and time is execution plus idle time as everywhere
        var cube = r.cube();
        int limited = cube.metricIndex("omp_limited_parallelism");
        for (int k : regionsOfLate) {
            boolean found = false;
            for (int p = 0; p < cube.callPaths().size(); p++) {
                if (String.join("/", cube.pathNames(p)).equals(String.join("/", ref.path(k)))) {
                    found = true;
                    for (int l = 0; l < cube.locations().size(); l++) {
                        assertEquals(0.0, cube.get(limited, p, l), "limited parallelism in a full team at " + k);
                    }
                }
            }
            assertTrue(found, "no call path " + ref.path(k));
        }
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
        // a metric the report lacks (the remapping leaves out OpenMP's without OpenMP, Pthreads' without Pthreads)
        // is one our cube leaves out too
        List<String> absent = metrics.stream().filter(m -> !ref.hasMetric(m)).toList();
        for (String m : absent) {
            assertTrue(r.cube().isOmitted(r.cube().metricIndex(m)), dir.getFileName() + ": Scalasca has no " + m
                    + ", but our cube keeps it");
        }
        ScalascaComparison cmp = ScalascaComparison.compare(r, ref,
                metrics.stream().filter(ref::hasMetric).toList(), skip);
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
