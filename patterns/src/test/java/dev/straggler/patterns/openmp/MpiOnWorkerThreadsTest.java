package dev.straggler.patterns.openmp;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MPI called from worker threads only (e.g. inside {@code omp single}) is skipped and counted; the warnings say that
 * the trace has MPI the analysis leaves out, not that it has none.
 */
class MpiOnWorkerThreadsTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=100
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 3 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=0 thread=1
            location 3 rank=1 thread=1
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 10 THREAD_FORK model=openmp threads=2
            0 10 ENTER par
            0 50 LEAVE par
            0 50 THREAD_JOIN model=openmp
            0 100 LEAVE main
            1 0 ENTER main
            1 10 THREAD_FORK model=openmp threads=2
            1 10 ENTER par
            1 50 LEAVE par
            1 50 THREAD_JOIN model=openmp
            1 100 LEAVE main
            2 10 ENTER par
            2 20 ENTER MPI_Send
            2 20 MPI_SEND to=1 comm=0 tag=1 bytes=8
            2 25 LEAVE MPI_Send
            2 50 LEAVE par
            3 10 ENTER par
            3 12 ENTER MPI_Recv
            3 30 MPI_RECV from=0 comm=0 tag=1 bytes=8
            3 30 LEAVE MPI_Recv
            3 50 LEAVE par
            """;

    @Test
    void mpiOnlyOnWorkerThreadsIsSaidToBeLeftOutNotToBeAbsent() throws IOException {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "workers"),
                AnalysisOptions.defaults());
        assertTrue(r.warnings().contains(Analysis.NO_MASTER_MPI_WARNING), r.warnings().toString());
        assertFalse(r.warnings().contains(Analysis.NO_MPI_WARNING), r.warnings().toString());
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("2 × MPI communication record on a location that"
                + " is not its rank's master thread (skipped)")), r.warnings().toString());
    }
}
