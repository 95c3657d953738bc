package dev.straggler.spark;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.patterns.report.TextReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hybrid MPI+OpenMP traces (locations are threads) on the Spark engine: the wait-state level and the OpenMP level give
 * the single-machine engine's cube value for value, whichever partition holds which thread of a process, and the
 * values are Scalasca 2.6's (its dumps of the same traces); root causes are left to the single-machine engine, and the
 * result says so.
 */
class SparkOpenMpTest {
    @TempDir
    static Path dir;

    private static final AnalysisOptions WITHOUT = AnalysisOptions.defaults().withRootCauses(false);
    private static final AnalysisOptions WITH = AnalysisOptions.defaults().withRootCauses(true);

    static List<Path> hybridTraces() throws IOException {
        List<Path> out = SparkAnalysisTest.sharedTraces().stream()
                .filter(p -> p.getParent().getParent().getFileName().toString().equals("hybrid")).toList();
        Assumptions.assumeFalse(out.isEmpty(), "no hybrid traces in ../shared/traces/hybrid");
        return out;
    }

    @TestFactory
    Stream<DynamicTest> hybridTracesGiveTheSingleMachineCubeForAnyPartitionCount() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path trace : hybridTraces()) {
            tests.add(DynamicTest.dynamicTest(trace.getParent().getFileName().toString(), () -> {
                AnalysisResult local = SparkAnalysisTest.local(trace, WITHOUT);
                assertTrue(local.cube().total("omp_idle_threads") > 0 && local.cube().total("omp_management") > 0,
                        "the trace has an OpenMP level to compare");
                // 1: every thread in one task; 3: a process's threads spread over tasks (locations are numbered
                // thread by thread, ranks interleaved); one partition per location
                int n = local.cube().locations().size();
                for (int partitions : new int[] {1, 3, n}) {
                    AnalysisResult spark = SparkAnalysisTest.spark(trace, partitions, WITHOUT);
                    Results.assertSame(local, spark);
                    assertEquals(TextReport.render(local, 100, true), TextReport.render(spark, 100, true),
                            "terminal report with " + partitions + " partitions");
                }
            }));
        }
        return tests.stream();
    }

    /**
     * Scalasca's own values, independently of the single-machine engine: every cell of the OpenMP metrics in its
     * analysis report (scout.cubex's dump) and of the idle threads and categories in the remapped report
     * (trace.cubex's), within the dumps' six significant digits.
     */
    @TestFactory
    Stream<DynamicTest> theSparkCubeHoldsScalascasValues() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path trace : hybridTraces()) {
            tests.add(DynamicTest.dynamicTest(trace.getParent().getFileName().toString(), () -> {
                SeverityCube cube = SparkAnalysisTest.spark(trace, 3, WITHOUT).cube();
                Path dir = trace.getParent();
                int cells = compare(cube, dir.resolve("scalasca_dump.csv"), List.of("omp_management", "omp_fork",
                        "omp_ebarrier_wait", "omp_ibarrier_wait", "omp_lock_contention_critical",
                        "omp_lock_contention_api", "mpi_latesender"), k -> false);
                // the idle time Scalasca gives workers on a call path created late inside a parallel region is its
                // double count, which Straggler leaves out (docs/openmp.md): that path only
                int late = cnodeOf(cube, "k7_master_mpi/!$omp parallel @omp_kernels.c:130/!$omp master"
                        + " @omp_kernels.c:132/sleep_ms");
                cells += compare(cube, dir.resolve("trace_dump.csv"), List.of("omp_idle_threads", "execution", "comp",
                        "omp_time", "omp_limited_parallelism"), k -> k == late);
                assertTrue(cells > 100, cells + " non-zero cells compared");
            }));
        }
        return tests.stream();
    }

    @Test
    void rootCausesOfAHybridTraceAreTheSingleMachineOnesForAnySpreadOverTasks() throws IOException {
        // 1: one task holds both processes; 2 and 3: the processes' threads on different tasks, which hand over MPI
        // costs while each team meets within its task
        for (Path trace : hybridTraces()) {
            AnalysisResult local = SparkAnalysisTest.local(trace, WITH);
            assertTrue(local.cube().total("delay_ompbarrier") > 0 && local.cube().total("critical_path") > 0,
                    trace + " exercises the OpenMP delays and the critical path through threads");
            for (int partitions : new int[] {1, 2, 3}) {
                Results.assertSame(local, SparkAnalysisTest.spark(trace, partitions, WITH));
            }
        }
    }

    /**
     * MPI with POSIX threads (samples/recorded/pthread-mutex, Score-P 8.4): the lock contention of mutexes and
     * condition waits, the created threads' call paths under THREADS, no idle threads and no imbalance heuristic
     * (Scalasca's remapping skips both when a run calls Pthreads), with and without root causes, also in the cube
     * the executors write.
     */
    @Test
    void aPthreadsTraceGivesTheSingleMachineResultsWithItsLockContention() throws IOException {
        Path trace = Path.of("..", "samples", "recorded", "pthread-mutex", "traces.otf2");
        Assumptions.assumeTrue(java.nio.file.Files.exists(trace), "no " + trace);
        for (AnalysisOptions options : List.of(WITHOUT, WITH)) {
            AnalysisResult local = SparkAnalysisTest.local(trace, options);
            assertTrue(local.cube().total("pthread_lock_contention_mutex_lock") > 0
                    && local.cube().total("pthread_lock_contention_conditional") > 0, "the trace has lock contention");
            for (int partitions : new int[] {1, 3}) {
                AnalysisResult spark = SparkAnalysisTest.spark(trace, partitions, options);
                Results.assertSame(local, spark);
                assertEquals(0, spark.cube().total("imbalance"));
                assertEquals(0, spark.cube().total("omp_idle_threads"));
            }
            StreamedCubeTest.assertSameCube(dir, trace, options, 3);
        }
    }

    @Test
    void theCubeWrittenByTheExecutorsOfAHybridTraceIsTheSingleMachineOne() throws IOException {
        for (Path trace : hybridTraces()) {
            StreamedCubeTest.assertSameCube(dir, trace, WITHOUT, 3);
            StreamedCubeTest.assertSameCube(dir, trace, WITH, 3);
        }
    }

    /**
     * Three processes of two threads, thread by thread in location order: the masters of ranks 0 and 1 fork a team
     * but record no join (no management time for that parallel region), rank 1's worker passes a barrier its master
     * does not (its barriers and locks are not analysed), and rank 2 runs serially, its worker recording nothing,
     * with a serial OpenMP lock call on its master.
     */
    private static final String UNEVEN = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=600
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 work paradigm=USER role=FUNCTION
            region 3 ibar paradigm=OPENMP role=IMPLICIT_BARRIER
            region 4 omp_init_lock paradigm=OPENMP role=WRAPPER
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=2 thread=0
            location 3 rank=0 thread=1 name="OMP thread 1"
            location 4 rank=1 thread=1 name="OMP thread 1"
            location 5 rank=2 thread=1 name="OMP thread 1"
            0 0 ENTER main
            0 10 THREAD_FORK model=openmp threads=2
            0 12 ENTER par
            0 20 ENTER work
            0 120 LEAVE work
            0 120 ENTER ibar
            0 200 LEAVE ibar
            0 200 LEAVE par
            0 600 LEAVE main
            1 0 ENTER main
            1 30 THREAD_FORK model=openmp threads=2
            1 31 ENTER par
            1 40 ENTER work
            1 300 LEAVE work
            1 300 ENTER ibar
            1 310 LEAVE ibar
            1 310 LEAVE par
            1 600 LEAVE main
            2 0 ENTER main
            2 50 ENTER omp_init_lock
            2 53 LEAVE omp_init_lock
            2 100 ENTER work
            2 400 LEAVE work
            2 600 LEAVE main
            3 14 ENTER par
            3 20 ENTER work
            3 200 LEAVE work
            3 200 ENTER ibar
            3 200 LEAVE ibar
            3 201 LEAVE par
            4 33 ENTER par
            4 40 ENTER ibar
            4 41 LEAVE ibar
            4 41 ENTER work
            4 250 LEAVE work
            4 250 ENTER ibar
            4 310 LEAVE ibar
            4 311 LEAVE par
            """;

    private static Path uneven() throws IOException {
        Path trace = dir.resolve("uneven.txt");
        if (!Files.exists(trace)) {
            Files.writeString(trace, UNEVEN);
        }
        return trace;
    }

    @Test
    void aProcessWhoseThreadsRecordedNoOpenMpGetsTheSingleMachineIdleThreads() throws IOException {
        AnalysisResult local = SparkAnalysisTest.local(uneven(), WITHOUT);
        int idle = local.cube().metricIndex("omp_idle_threads");
        int limited = local.cube().metricIndex("omp_limited_parallelism");
        assertTrue(local.cube().perLocation(idle)[5] > 0 && local.cube().perLocation(limited)[5] > 0,
                "rank 2's worker idles while its master runs, on one machine");
        for (int partitions : new int[] {1, 2, 6}) {
            Results.assertSame(local, SparkAnalysisTest.spark(uneven(), partitions, WITHOUT));
        }
    }

    @Test
    void whatTheOpenMpLevelCouldNotAnalyseIsSaidAsOnOneMachine() throws IOException {
        AnalysisResult local = SparkAnalysisTest.local(uneven(), WITHOUT);
        assertTrue(local.warnings().stream().anyMatch(w -> w.startsWith("OpenMP: 4 parallel-region instances")),
                local.warnings().toString());
        assertTrue(local.warnings().stream().anyMatch(w -> w.startsWith("OpenMP: rank 1: ")),
                local.warnings().toString());
        for (int partitions : new int[] {1, 3}) {
            assertEquals(local.warnings(), SparkAnalysisTest.spark(uneven(), partitions, WITHOUT).warnings());
        }
    }

    /**
     * Two processes of two threads meeting at an MPI barrier after a parallel region; rank 1's worker passes an
     * explicit barrier its master does not, so rank 1's threads cannot be replayed together.
     */
    private static final String VARYING_TEAM = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=100
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 work paradigm=USER role=FUNCTION
            region 3 ibar paradigm=OPENMP role=IMPLICIT_BARRIER
            region 4 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
            region 5 ebar paradigm=OPENMP role=BARRIER
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=0 thread=1
            location 3 rank=1 thread=1
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 10 THREAD_FORK model=openmp threads=2
            0 10 ENTER par
            0 10 ENTER work
            0 50 LEAVE work
            0 50 ENTER ibar
            0 90 LEAVE ibar
            0 90 LEAVE par
            0 90 THREAD_JOIN model=openmp
            0 90 ENTER MPI_Barrier
            0 90 MPI_COLLECTIVE_BEGIN
            0 100 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            0 100 LEAVE MPI_Barrier
            0 100 LEAVE main
            1 0 ENTER main
            1 10 THREAD_FORK model=openmp threads=2
            1 10 ENTER par
            1 10 ENTER work
            1 30 LEAVE work
            1 30 ENTER ibar
            1 90 LEAVE ibar
            1 90 LEAVE par
            1 90 THREAD_JOIN model=openmp
            1 95 ENTER MPI_Barrier
            1 95 MPI_COLLECTIVE_BEGIN
            1 100 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            1 100 LEAVE MPI_Barrier
            1 100 LEAVE main
            2 10 ENTER par
            2 10 ENTER work
            2 90 LEAVE work
            2 90 ENTER ibar
            2 90 LEAVE ibar
            2 90 LEAVE par
            3 10 ENTER par
            3 10 ENTER ebar
            3 20 LEAVE ebar
            3 20 ENTER work
            3 40 LEAVE work
            3 40 ENTER ibar
            3 90 LEAVE ibar
            3 90 LEAVE par
            """;

    @Test
    void aProcessWhoseThreadsCannotBeReplayedTogetherIsSaidAndLeftToItsMasterAsOnOneMachine() throws IOException {
        Path trace = dir.resolve("varying-team.txt");
        Files.writeString(trace, VARYING_TEAM);
        AnalysisResult local = SparkAnalysisTest.local(trace, WITH);
        assertTrue(Analysis.rootCausesAnalysed(local.cube()));
        assertTrue(local.warnings().stream().anyMatch(w -> w.contains("rank 1: its threads do not meet")),
                local.warnings().toString());
        assertTrue(local.cube().total("delay_ompbarrier") > 0, "rank 0's team is replayed");
        for (int partitions : new int[] {1, 2}) {
            Results.assertSame(local, SparkAnalysisTest.spark(trace, partitions, WITH));
        }
    }

    /** Every value of every metric equal, bit for bit (the root-cause metrics zero in both). */
    static void assertSameValues(SeverityCube e, SeverityCube a) {
        assertEquals(e.callPaths(), a.callPaths());
        assertEquals(e.locations(), a.locations());
        for (int m = 0; m < MetricTree.COUNT; m++) {
            for (int c = 0; c < e.callPaths().size(); c++) {
                for (int l = 0; l < e.locations().size(); l++) {
                    assertEquals(e.get(m, c, l), a.get(m, c, l), 0.0, e.metrics().get(m).uniqueName() + " at "
                            + String.join("/", e.pathNames(c)) + ", location " + l);
                }
            }
        }
    }

    /** Our call path whose regions, from the root, are those named (joined by "/"), as Scalasca's cnode id. */
    private static int cnodeOf(SeverityCube cube, String path) {
        for (int c = 0; c < cube.callPaths().size(); c++) {
            if (String.join("/", cube.pathNames(c)).endsWith(path)) {
                return cube.cnodeId(c);
            }
        }
        return -1;
    }

    /**
     * Compares each cell of the named metrics in a Scalasca dump (rows "Cnode ID, Thread ID, metric values"; the
     * thread id is rank × threads per process + thread) with the cube's; returns how many non-zero cells there were.
     */
    private static int compare(SeverityCube cube, Path dump, List<String> metrics,
                               java.util.function.IntPredicate skipCnode) throws IOException {
        Assumptions.assumeTrue(Files.exists(dump), "no " + dump);
        Map<Integer, Integer> pathOfCnode = new HashMap<>();
        for (int c = 0; c < cube.callPaths().size(); c++) {
            pathOfCnode.put(cube.cnodeId(c), c);
        }
        int threads = (int) cube.locations().stream().filter(l -> l.rank() == 0).count();
        Map<Integer, Integer> locationOfThread = new HashMap<>();
        for (SystemLocation l : cube.locations()) {
            locationOfThread.put(l.rank() * threads + l.thread(), l.index());
        }
        int nonZero = 0;
        List<String> bad = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(dump)) {
            String[] header = r.readLine().split(",");
            int[] column = new int[metrics.size()];
            for (int i = 0; i < metrics.size(); i++) {
                column[i] = List.of(header).indexOf(metrics.get(i));
                assertTrue(column[i] > 1, metrics.get(i) + " in " + dump);
            }
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split(",");
                int cnode = Integer.parseInt(f[0].strip());
                Integer path = pathOfCnode.get(cnode);
                Integer location = locationOfThread.get(Integer.parseInt(f[1].strip()));
                if (skipCnode.test(cnode)) {
                    continue;
                }
                for (int i = 0; i < metrics.size(); i++) {
                    double theirs = Double.parseDouble(f[column[i]]);
                    double ours = path == null || location == null ? 0
                            : cube.get(cube.metricIndex(metrics.get(i)), path, location);
                    if (theirs != 0) {
                        nonZero++;
                    }
                    // six significant digits: half a unit in the sixth
                    if (Math.abs(ours - theirs) > 5e-6 * Math.max(Math.abs(ours), Math.abs(theirs)) + 1e-11) {
                        bad.add(metrics.get(i) + " cnode " + cnode + " thread " + f[1] + ": ours " + ours
                                + ", Scalasca " + theirs);
                    }
                }
            }
        }
        assertTrue(bad.isEmpty(), dump + ": " + bad.size() + " cells differ, e.g. "
                + bad.subList(0, Math.min(5, bad.size())));
        return nonZero;
    }
}
