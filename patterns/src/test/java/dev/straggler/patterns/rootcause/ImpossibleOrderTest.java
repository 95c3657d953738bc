package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A damaged trace whose records no MPI run can have written: rank 0 passes a barrier and then sends, rank 1
 * receives that message before entering the barrier. The wait states are still reported; the root causes are
 * not, and a warning names the ranks and calls that block the backward replay.
 */
class ImpossibleOrderTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000
            region 0 main
            region 1 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 2 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            region 3 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
            location 0 rank=0
            location 1 rank=1
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 10 ENTER MPI_Barrier
            0 11 MPI_COLLECTIVE_BEGIN
            0 19 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            0 20 LEAVE MPI_Barrier
            0 50 ENTER MPI_Send
            0 51 MPI_SEND to=1 comm=0 tag=0 bytes=8
            0 52 LEAVE MPI_Send
            0 100 LEAVE main
            1 0 ENTER main
            1 5 ENTER MPI_Recv
            1 60 MPI_RECV from=0 comm=0 tag=0 bytes=8
            1 61 LEAVE MPI_Recv
            1 70 ENTER MPI_Barrier
            1 71 MPI_COLLECTIVE_BEGIN
            1 79 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            1 80 LEAVE MPI_Barrier
            1 100 LEAVE main
            """;

    @Test
    void impossibleCommunicationOrderKeepsTheWaitStatesAndSaysWhyRootCausesAreMissing() throws IOException {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "impossible"),
                AnalysisOptions.defaults().withThreads(1).withRootCauses(true));
        assertEquals(0.045, r.cube().total("mpi_latesender"), 1e-12);
        assertEquals(0.0, r.cube().total("delay"), 0.0);
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("root causes not computed: 2 rank(s)")
                && w.contains("rank 0 at a send in MPI_Send") && w.contains("rank 1 at a collective in MPI_Barrier")),
                r.warnings().toString());
    }
}
