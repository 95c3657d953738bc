package dev.straggler.patterns.openmp;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One process of three threads with every value derived by hand (µs ticks): the master forks at 10 and joins at
 * 405; the threads enter the parallel region at 12, 14, 15 and leave it at 400, 401, 400; they work 100, 200 and
 * 300 µs before an explicit barrier (entered at 120, 220, 320), take a critical section in turn (acquisitions 1, 2,
 * 3 at 320, 330, 340, all having entered it at 320; releases at 330, 340, 400) and meet in an implicit barrier
 * (entered at 330, 340, 400).
 * Outside the region the master runs alone for 0..10 and 405..500 plus its own management, so each worker idles
 * 105 µs on main.
 */
class OpenMpClosedFormTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=500
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 work paradigm=USER role=FUNCTION
            region 3 ebar paradigm=OPENMP role=BARRIER
            region 4 crit paradigm=OPENMP role=CRITICAL
            region 5 ibar paradigm=OPENMP role=IMPLICIT_BARRIER
            location 0 rank=0 thread=0
            location 1 rank=0 thread=1
            location 2 rank=0 thread=2
            0 0 ENTER main
            0 10 THREAD_FORK model=openmp threads=3
            0 12 ENTER par
            0 20 ENTER work
            0 120 LEAVE work
            0 120 ENTER ebar
            0 320 LEAVE ebar
            0 320 ENTER crit
            0 320 THREAD_ACQUIRE_LOCK model=openmp lock=0 order=1
            0 330 THREAD_RELEASE_LOCK model=openmp lock=0 order=1
            0 330 LEAVE crit
            0 330 ENTER ibar
            0 400 LEAVE ibar
            0 400 LEAVE par
            0 405 THREAD_JOIN model=openmp
            0 500 LEAVE main
            1 14 ENTER par
            1 20 ENTER work
            1 220 LEAVE work
            1 220 ENTER ebar
            1 320 LEAVE ebar
            1 320 ENTER crit
            1 330 THREAD_ACQUIRE_LOCK model=openmp lock=0 order=2
            1 340 THREAD_RELEASE_LOCK model=openmp lock=0 order=2
            1 340 LEAVE crit
            1 340 ENTER ibar
            1 400 LEAVE ibar
            1 401 LEAVE par
            2 15 ENTER par
            2 20 ENTER work
            2 320 LEAVE work
            2 320 ENTER ebar
            2 320 LEAVE ebar
            2 320 ENTER crit
            2 340 THREAD_ACQUIRE_LOCK model=openmp lock=0 order=3
            2 400 THREAD_RELEASE_LOCK model=openmp lock=0 order=3
            2 400 LEAVE crit
            2 400 ENTER ibar
            2 400 LEAVE ibar
            2 400 LEAVE par
            """;
    private static final double US = 1e-6;
    private static SeverityCube cube;

    @BeforeAll
    static void analyse() throws Exception {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "omp"),
                AnalysisOptions.defaults().withThreads(2));
        cube = r.cube();
    }

    private static double value(String metric, int thread, String... path) {
        return value(cube, metric, thread, path);
    }

    /** A metric's value on a call path (named region by region from the root) and location of a cube. */
    static double value(SeverityCube cube, String metric, int thread, String... path) {
        for (int c = 0; c < cube.callPaths().size(); c++) {
            if (cube.pathNames(c).equals(List.of(path))) {
                return cube.get(cube.metricIndex(metric), c, thread);
            }
        }
        throw new AssertionError("no call path " + String.join("/", path));
    }

    private static void assertMicros(double expectedMicros, double seconds, String what) {
        assertEquals(expectedMicros * US, seconds, 1e-12, what);
    }

    @Test
    void workerThreadsHangUnderTheMastersCallPathAtTheFork() {
        for (int c = 0; c < cube.callPaths().size(); c++) {
            assertEquals("main", cube.pathNames(c).get(0), "every call path starts at the master's main: "
                    + cube.pathNames(c));
        }
        assertMicros(300, value("time", 2, "main", "par", "work"), "thread 2 works 300 µs in main/par/work");
        assertMicros(0, value("execution", 1, "main"), "main holds no time of its own on a worker");
    }

    @Test
    void workersGetTheMastersSerialTimeAsIdleTime() {
        // the master runs main alone for 105 µs (0..12 and 400..500, less the management moved into the region)
        assertMicros(105, value("omp_idle_threads", 1, "main"), "thread 1 idles while the master runs serially");
        assertMicros(105, value("omp_idle_threads", 2, "main"), "thread 2 too");
        assertMicros(0, value("omp_idle_threads", 0, "main"), "the master is never idle");
        assertMicros(105, value("time", 2, "main"), "time includes the idle time, execution does not");
        // inside the region every thread spends join - fork = 395 µs: no limited parallelism
        assertMicros(0, value("omp_limited_parallelism", 1, "main", "par"), "a full team");
    }

    @Test
    void explicitBarrierWaitIsTheTimeUntilTheLastThreadEnters() {
        assertMicros(200, value("omp_ebarrier_wait", 0, "main", "par", "ebar"), "master: 320 - 120");
        assertMicros(100, value("omp_ebarrier_wait", 1, "main", "par", "ebar"), "thread 1: 320 - 220");
        assertMicros(0, value("omp_ebarrier_wait", 2, "main", "par", "ebar"), "the last thread does not wait");
    }

    @Test
    void implicitBarrierWaitIsBookedApartFromTheExplicitOne() {
        assertMicros(70, value("omp_ibarrier_wait", 0, "main", "par", "ibar"), "master: 400 - 330");
        assertMicros(60, value("omp_ibarrier_wait", 1, "main", "par", "ibar"), "thread 1: 400 - 340");
        assertMicros(0, value("omp_ebarrier_wait", 0, "main", "par", "ibar"), "no explicit wait there");
    }

    @Test
    void criticalContentionRunsFromEnteringTheSectionToThePreviousRelease() {
        assertMicros(0, value("omp_lock_contention_critical", 0, "main", "par", "crit"), "the first never waits");
        assertMicros(10, value("omp_lock_contention_critical", 1, "main", "par", "crit"), "330 - 320");
        assertMicros(20, value("omp_lock_contention_critical", 2, "main", "par", "crit"), "340 - 320");
    }

    @Test
    void managementIsForkToEnterPlusLeaveToJoinOnEveryThread() {
        assertMicros(7, value("omp_management", 0, "main", "par"), "master: (12 - 10) + (405 - 400)");
        assertMicros(8, value("omp_management", 1, "main", "par"), "thread 1: (14 - 10) + (405 - 401)");
        assertMicros(10, value("omp_management", 2, "main", "par"), "thread 2: (15 - 10) + (405 - 400)");
        assertMicros(4, value("omp_fork", 1, "main", "par"), "thread 1: 14 - 10");
    }

    @Test
    void managementMovesOutOfTheForkingCallPathIntoTheParallelRegion() {
        // main on the master: 0..12 and 400..500 of its own, less the 7 µs of management
        assertMicros(105, value("time", 0, "main"), "112 - 7");
        // the region's own time on the master (12..20) is computation; its management is OpenMP time
        assertMicros(8, value("comp", 0, "main", "par"), "12..20");
        assertMicros(7, value("omp_time", 0, "main", "par"), "management");
    }

    @Test
    void openMpMetricsAreLeftOutOfARunWithoutOpenMp() throws Exception {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader("""
                straggler-text 1
                region 0 main
                location 0 rank=0
                0 0 ENTER main
                0 5 LEAVE main
                """), "mpi-free"), AnalysisOptions.defaults());
        assertTrue(r.cube().isOmitted(r.cube().metricIndex("omp_time")));
        assertTrue(!cube.isOmitted(cube.metricIndex("omp_time")), "kept where there is OpenMP");
    }
}
