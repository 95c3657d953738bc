package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A two-rank program whose causes follow by hand from the definitions (reference §1.6), ticks of 1 ms:
 * rank 0 computes in {@code work} for 90 ms, rank 1 for 30 ms, then rank 0 sends and rank 1 receives
 * (Late Sender of 60 ms). Both synchronised last in MPI_Init (left at 10 ms by both, so no completion time).
 * <ul>
 *   <li>short-term Late Sender delay: rank 0's {@code work} exceeds rank 1's by 90 − 30 = 60 ms, and with no
 *   waiting in the interval all 60 ms of waiting are charged to it;</li>
 *   <li>critical path: rank 1 enters MPI_Finalize last (103 ms), so the path starts there, books MPI_Recv's
 *   63 ms minus its 60 ms wait, moves to rank 0 at the send and books its 90 ms of {@code work} and 10 ms of
 *   MPI_Init back to MPI_Init's end.</li>
 * </ul>
 */
class RootCauseClosedFormTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000
            region 0 main
            region 1 work
            region 2 MPI_Init paradigm=MPI role=FUNCTION file=MPI
            region 3 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 4 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            region 5 MPI_Finalize paradigm=MPI role=FUNCTION file=MPI
            location 0 rank=0
            location 1 rank=1
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 0 ENTER MPI_Init
            0 10 LEAVE MPI_Init
            0 10 ENTER work
            0 100 LEAVE work
            0 100 ENTER MPI_Send
            0 101 MPI_SEND to=1 comm=0 tag=0 bytes=8
            0 102 LEAVE MPI_Send
            0 102 ENTER MPI_Finalize
            0 120 LEAVE MPI_Finalize
            0 120 LEAVE main
            1 0 ENTER main
            1 0 ENTER MPI_Init
            1 10 LEAVE MPI_Init
            1 10 ENTER work
            1 40 LEAVE work
            1 40 ENTER MPI_Recv
            1 101 MPI_RECV from=0 comm=0 tag=0 bytes=8
            1 103 LEAVE MPI_Recv
            1 103 ENTER MPI_Finalize
            1 120 LEAVE MPI_Finalize
            1 120 LEAVE main
            """;

    private static SeverityCube analyse() throws IOException {
        var trace = TextTraceReader.read(new StringReader(TRACE), "closed-form");
        AnalysisResult r = Analysis.run(trace, AnalysisOptions.defaults().withThreads(1).withRootCauses(true));
        return r.cube();
    }

    private static int path(SeverityCube c, String... names) {
        for (int p = 0; p < c.callPaths().size(); p++) {
            if (c.pathNames(p).equals(List.of(names))) {
                return p;
            }
        }
        throw new AssertionError("no call path " + List.of(names));
    }

    private static double value(SeverityCube c, String metric, int path, int location) {
        return c.get(c.metricIndex(metric), path, location);
    }

    @Test
    void lateSenderDelayIsTheSendersExcessComputation() throws IOException {
        SeverityCube c = analyse();
        int work = path(c, "main", "work");
        assertEquals(0.060, value(c, "mpi_latesender", path(c, "main", "MPI_Recv"), 1), 1e-12);
        assertEquals(0.060, value(c, "delay_latesender", work, 0), 1e-12);
        assertEquals(0.060, c.total("delay_latesender"), 1e-12);
        assertEquals(0.0, c.total("delay_latesender_longterm"), 1e-12);
    }

    @Test
    void aWaitStateWithoutEarlierWaitingIsTerminalAndDirect() throws IOException {
        SeverityCube c = analyse();
        assertEquals(0.0, c.total("mpi_wait_propagating_ls"), 1e-12);
        assertEquals(0.0, c.total("mpi_wait_indirect_latesender"), 1e-12);
        assertEquals(0.060, c.total("mpi_wait_direct_latesender"), 1e-12);
        assertEquals(0.060, c.total("mpi_wait_terminal_ls"), 1e-12);
    }

    @Test
    void criticalPathRunsThroughTheSlowRanksComputation() throws IOException {
        SeverityCube c = analyse();
        assertEquals(0.090, value(c, "critical_path", path(c, "main", "work"), 0), 1e-12);
        assertEquals(0.010, value(c, "critical_path", path(c, "main", "MPI_Init"), 0), 1e-12);
        assertEquals(0.003, value(c, "critical_path", path(c, "main", "MPI_Recv"), 1), 1e-12);
        assertEquals(0.0, value(c, "critical_path", path(c, "main", "work"), 1), 1e-12);
        assertEquals(0.103, c.total("critical_path"), 1e-12);
    }
}
