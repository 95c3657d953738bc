package dev.straggler.patterns.openmp;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.report.TextReport;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An MPI program whose rank 0 runs two POSIX threads beside its main thread, as Score-P records them: THREAD_BEGIN
 * first, a mutex as THREAD_ACQUIRE/RELEASE_LOCK records of the Pthread model inside pthread_mutex_lock/unlock, and
 * pthread_cond_wait giving the mutex back and taking it again. Rank 0 works 40 ms and sends, rank 1 works 10 ms and
 * receives: a Late Sender of 30 ms. Clock: 1 tick = 1 ms. Expected values by Scalasca's rules (Thread.pattern,
 * LockTracking: the wait of acquisition k is the release of acquisition k − 1 minus the Enter of the call around it):
 * <ul>
 *   <li>thread 2 enters pthread_mutex_lock at 10 and gets acquisition 2 when thread 1 releases acquisition 1 at 30:
 *       mutex contention 20 ms;</li>
 *   <li>thread 1's acquisition 3 (Enter 41) follows release 2 at 40: no contention;</li>
 *   <li>thread 2 enters pthread_cond_wait at 40 and takes the mutex back (acquisition 4) after release 3 at 60:
 *       condition contention 20 ms;</li>
 *   <li>time in the mutex calls: thread 1 2 + 1 + 1 + 1, thread 2 21 + 1 ms = 27 ms; in pthread_cond_wait 22 ms.</li>
 * </ul>
 */
class PthreadLocksTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000 offset=0 length=100
            region 0 main paradigm=USER role=FUNCTION
            region 1 worker paradigm=USER role=FUNCTION
            region 2 pthread_mutex_lock paradigm=PTHREAD role=WRAPPER
            region 3 pthread_mutex_unlock paradigm=PTHREAD role=WRAPPER
            region 4 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 5 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            region 6 work paradigm=USER role=FUNCTION
            region 7 pthread_cond_wait paradigm=PTHREAD role=WRAPPER
            region 8 pthreads paradigm=MEASUREMENT_SYSTEM role=ARTIFICIAL
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=0 thread=1 name="Pthread thread 1"
            location 3 rank=0 thread=2 name="Pthread thread 2"
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 PROGRAM_BEGIN
            0 0 ENTER main
            0 0 ENTER work
            0 40 LEAVE work
            0 40 ENTER MPI_Send
            0 41 MPI_SEND to=1 comm=0 tag=1 bytes=8
            0 42 LEAVE MPI_Send
            0 100 LEAVE main
            0 100 PROGRAM_END
            1 0 PROGRAM_BEGIN
            1 0 ENTER main
            1 0 ENTER work
            1 10 LEAVE work
            1 10 ENTER MPI_Recv
            1 41 MPI_RECV from=0 comm=0 tag=1 bytes=8
            1 42 LEAVE MPI_Recv
            1 100 LEAVE main
            1 100 PROGRAM_END
            2 5 THREAD_BEGIN sequence=1
            2 5 ENTER worker
            2 6 ENTER pthread_mutex_lock
            2 7 THREAD_ACQUIRE_LOCK model=pthread lock=0 order=1
            2 8 LEAVE pthread_mutex_lock
            2 30 ENTER pthread_mutex_unlock
            2 30 THREAD_RELEASE_LOCK model=pthread lock=0 order=1
            2 31 LEAVE pthread_mutex_unlock
            2 41 ENTER pthread_mutex_lock
            2 41 THREAD_ACQUIRE_LOCK model=pthread lock=0 order=3
            2 42 LEAVE pthread_mutex_lock
            2 60 ENTER pthread_mutex_unlock
            2 60 THREAD_RELEASE_LOCK model=pthread lock=0 order=3
            2 61 LEAVE pthread_mutex_unlock
            2 70 LEAVE worker
            3 5 THREAD_BEGIN sequence=2
            3 5 ENTER worker
            3 10 ENTER pthread_mutex_lock
            3 31 THREAD_ACQUIRE_LOCK model=pthread lock=0 order=2
            3 31 LEAVE pthread_mutex_lock
            3 40 ENTER pthread_cond_wait
            3 40 THREAD_RELEASE_LOCK model=pthread lock=0 order=2
            3 62 THREAD_ACQUIRE_LOCK model=pthread lock=0 order=4
            3 62 LEAVE pthread_cond_wait
            3 63 ENTER pthread_mutex_unlock
            3 63 THREAD_RELEASE_LOCK model=pthread lock=0 order=4
            3 64 LEAVE pthread_mutex_unlock
            3 70 LEAVE worker
            """;

    private static AnalysisResult analyse() throws IOException {
        return Analysis.run(TextTraceReader.read(new StringReader(TRACE), "pthreads"),
                AnalysisOptions.defaults().withRootCauses(true));
    }

    private static int path(SeverityCube c, String name) {
        for (int p = 0; p < c.callPaths().size(); p++) {
            if (String.join("/", c.pathNames(p)).equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no call path " + name);
    }

    @Test
    void mutexContentionIsTheWaitForThePreviousHoldersRelease() throws IOException {
        SeverityCube c = analyse().cube();
        int m = c.metricIndex("pthread_lock_contention_mutex_lock");
        assertEquals(0.020, c.total(m), 1e-12);
        assertEquals(0.020, c.get(m, path(c, "pthreads/THREADS/worker/pthread_mutex_lock"), 3), 1e-12);
    }

    @Test
    void conditionWaitContentionCountsFromTheWaitsEnterToTheMutexsRelease() throws IOException {
        SeverityCube c = analyse().cube();
        int m = c.metricIndex("pthread_lock_contention_conditional");
        assertEquals(0.020, c.total(m), 1e-12);
        assertEquals(0.020, c.get(m, path(c, "pthreads/THREADS/worker/pthread_cond_wait"), 3), 1e-12);
    }

    @Test
    void pthreadCallsAreTheirOwnCategoryOfTimeNotComputation() throws IOException {
        SeverityCube c = analyse().cube();
        assertEquals(0.027, c.total("pthread_lock_api"), 1e-12);
        assertEquals(0.022, c.total("pthread_conditional"), 1e-12);
        assertEquals(0.049, c.total("pthread_synchronization"), 1e-12);
        assertEquals(0.049, c.total("pthread_time"), 1e-12);
        assertEquals(0, c.total("pthread_management"), 1e-12);
        // two main threads of 100 ms, two created threads of 65 ms; MPI 2 + 32 ms
        assertEquals(0.33, c.total("time"), 1e-12);
        assertEquals(0.33 - 0.034 - 0.049, c.total("comp"), 1e-12);
    }

    @Test
    void createdThreadsHangUnderTheProgramsThreadsNodeWithoutTimeOfItsOwn() throws IOException {
        SeverityCube c = analyse().cube();
        int threads = path(c, "pthreads/THREADS");
        int worker = path(c, "pthreads/THREADS/worker");
        assertEquals(threads, c.callPaths().get(worker).parent());
        assertEquals(0, c.sumOverLocations(c.metricIndex("time"), threads), 1e-12);
        assertEquals(0, c.sumOverLocations(c.metricIndex("visits"), threads), 1e-12);
        assertEquals(2, c.sumOverLocations(c.metricIndex("visits"), worker), 1e-12);
    }

    @Test
    void aRunWithPthreadsHasNoOpenMpMetricsNoIdleThreadsAndNoImbalanceHeuristic() throws IOException {
        SeverityCube c = analyse().cube();
        assertTrue(c.isOmitted(c.metricIndex("omp_time")));
        assertEquals(0, c.total("omp_idle_threads"));
        // Scalasca's square remaps a report that visits pthread calls without -s: no imbalance heuristic
        assertEquals(0, c.total("imbalance"));
        // and without OpenMP the delay costs are the MPI ones
        assertEquals(c.total("delay_mpi"), c.total("delay"), 1e-12);
    }

    @Test
    void pthreadContentionIsListedAmongTheWaitStatesAndTheRootCausesSayWhatTheyExplain() throws IOException {
        AnalysisResult r = analyse();
        String text = TextReport.render(r, 100, false).replaceAll("\\s+", " ");
        assertTrue(text.contains("Pthread mutex contention: 0.020000 s"), text);
        assertTrue(text.contains("Pthread condition contention: 0.020000 s"), text);
        // the delay analysis covers the MPI waiting, not the lock contention, and the sentence says so
        assertTrue(text.contains("100.0% of the waiting in MPI (0.030000 s of 0.030000 s) is caused by delays on the"
                + " processes waited for"), text);
        assertTrue(text.contains("100.0% 0.030000 s pthreads/main/work on thread (rank.thread) 0: 0.030000 s"
                + " short-term, 0 s propagated"), text);
    }
}
