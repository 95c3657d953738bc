package dev.straggler.patterns.openmp;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.report.TextReport;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An MPI program whose processes run a POSIX thread beside their main thread (as Score-P records it: CPU threads of
 * the process, a Pthread mutex as THREAD_ACQUIRE/RELEASE_LOCK records of the Pthread model). Rank 0 works 40 ms and
 * sends, rank 1 works 10 ms and receives: a Late Sender of 30 ms caused by rank 0's 30 ms of excess work. The
 * mutex is not OpenMP's: it neither starts the OpenMP level (no idle threads, which would give the threads more time
 * than the run) nor counts as OpenMP lock contention; its records are counted and said.
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
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=0 thread=1 name="Pthread thread 1"
            location 3 rank=1 thread=1 name="Pthread thread 1"
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 0 ENTER work
            0 40 LEAVE work
            0 40 ENTER MPI_Send
            0 41 MPI_SEND to=1 comm=0 tag=1 bytes=8
            0 42 LEAVE MPI_Send
            0 100 LEAVE main
            1 0 ENTER main
            1 0 ENTER work
            1 10 LEAVE work
            1 10 ENTER MPI_Recv
            1 41 MPI_RECV from=0 comm=0 tag=1 bytes=8
            1 42 LEAVE MPI_Recv
            1 100 LEAVE main
            2 5 ENTER worker
            2 6 ENTER pthread_mutex_lock
            2 7 THREAD_ACQUIRE_LOCK model=pthread lock=0 order=1
            2 8 LEAVE pthread_mutex_lock
            2 30 ENTER pthread_mutex_unlock
            2 30 THREAD_RELEASE_LOCK model=pthread lock=0 order=1
            2 31 LEAVE pthread_mutex_unlock
            2 50 LEAVE worker
            3 5 ENTER worker
            3 50 LEAVE worker
            """;

    private static AnalysisResult analyse() throws IOException {
        return Analysis.run(TextTraceReader.read(new StringReader(TRACE), "pthreads"),
                AnalysisOptions.defaults().withRootCauses(true));
    }

    @Test
    void aPthreadMutexIsCountedAndNotTakenForAnOpenMpConstruct() throws IOException {
        AnalysisResult r = analyse();
        assertTrue(r.warnings().contains("1 × lock acquisition of another threading model than OpenMP, e.g. a Pthread"
                + " mutex (not analysed for contention)"), r.warnings().toString());
        assertEquals(0, r.cube().total("omp_idle_threads"));
        assertEquals(0, r.cube().total("omp_lock_contention_api") + r.cube().total("omp_lock_contention_critical"));
        // each thread's time is its own: 45 ms on both workers, 100 ms on both main threads
        assertEquals(0.29, r.cube().total("time"), 1e-12);
    }

    @Test
    void theRootCauseSentenceCountsOnlyDelaysOfTheWaitingItNames() throws IOException {
        AnalysisResult r = analyse();
        // Scalasca's rules give the processes' threads idleness delay costs even without OpenMP; no idle time is
        // counted, so the sentence about the waiting in MPI leaves them out
        assertTrue(r.cube().total("delay_ompidle") > 0);
        String text = TextReport.render(r, 100, false).replaceAll("\\s+", " ");
        assertTrue(text.contains("100.0% of all waiting (0.030000 s of 0.030000 s) is caused by delays on the"
                + " processes waited for"), text);
        assertTrue(text.contains("100.0% 0.030000 s main/work on thread (rank.thread) 0: 0.030000 s short-term, 0 s"
                + " propagated"), text);
    }
}
