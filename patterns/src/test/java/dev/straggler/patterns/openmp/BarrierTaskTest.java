package dev.straggler.patterns.openmp;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread that runs a task inside an implicit barrier is working there, not waiting (Scalasca's OMP.pattern:
 * wait = latest enter − own enter − task execution inside the barrier). Two threads, µs ticks: the master enters the
 * barrier at 10 and runs a queued task from 12 to 30 (18 µs) inside it; thread 1 works until 35 and enters then;
 * both leave at 40. The master waits 35 − 10 − 18 = 7 µs; its barrier time of its own is 40 − 10 − 18 = 12 µs.
 */
class BarrierTaskTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=50
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 work paradigm=USER role=FUNCTION
            region 3 ibar paradigm=OPENMP role=IMPLICIT_BARRIER
            region 4 task paradigm=OPENMP role=TASK
            location 0 rank=0 thread=0
            location 1 rank=0 thread=1
            0 0 ENTER main
            0 1 THREAD_FORK model=openmp threads=2
            0 2 ENTER par
            0 10 ENTER ibar
            0 12 ENTER task
            0 30 LEAVE task
            0 40 LEAVE ibar
            0 40 LEAVE par
            0 41 THREAD_JOIN model=openmp
            0 50 LEAVE main
            1 2 ENTER par
            1 5 ENTER work
            1 35 LEAVE work
            1 35 ENTER ibar
            1 40 LEAVE ibar
            1 40 LEAVE par
            """;
    private static final double US = 1e-6;
    private static SeverityCube cube;

    @BeforeAll
    static void analyse() throws Exception {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "tasks"),
                AnalysisOptions.defaults().withThreads(2).withRootCauses(true));
        cube = r.cube();
    }

    private static double value(String metric, int thread, String... path) {
        return OpenMpClosedFormTest.value(cube, metric, thread, path);
    }

    @Test
    void taskExecutionInsideABarrierIsNotWaiting() {
        assertEquals(7 * US, value("omp_ibarrier_wait", 0, "main", "par", "ibar"), 1e-12, "35 - 10 - 18");
        assertEquals(0, value("omp_ibarrier_wait", 1, "main", "par", "ibar"), 1e-12, "the last thread");
    }

    @Test
    void theWaitStaysWithinTheBarriersOwnTime() {
        double own = value("omp_ibarrier", 0, "main", "par", "ibar");
        assertEquals(12 * US, own, 1e-12, "40 - 10 less the task's 18");
        assertEquals(18 * US, value("time", 0, "main", "par", "ibar", "task"), 1e-12, "the task's own time");
        assertTrue(value("omp_ibarrier_wait", 0, "main", "par", "ibar") <= own, "a part within its whole");
    }
}
