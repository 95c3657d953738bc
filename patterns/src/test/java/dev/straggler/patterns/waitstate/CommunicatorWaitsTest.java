package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.TraceBuilder;
import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static dev.straggler.replay.TraceBuilder.WORLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The wait states of each communicator's operations (the KOJAK paper's per-communicator view, reference §9.2). */
class CommunicatorWaitsTest {
    private static final double NS = 1e-9;

    /**
     * Four ranks, communicators A = {0, 1} and B = {2, 3}: in A an MPI_Allreduce that rank 0 enters 10 ns late
     * (rank 1 waits 10 ns at N x N), in B an MPI_Barrier that rank 3 enters 30 ns late (rank 2 waits 30 ns), and on
     * MPI_COMM_WORLD a message from rank 2 that rank 1 waits 5 ns for (Late Sender).
     */
    private static AnalysisResult threeCommunicators() throws IOException {
        TraceBuilder b = new TraceBuilder(4);
        int a = b.comm("A", 0, 1);
        int c = b.comm("B", 2, 3);
        for (int r = 0; r < 4; r++) {
            b.rank(r).enter(0, "main");
        }
        b.rank(0).callCollective("MPI_Allreduce", 110, 150, CollectiveOp.ALLREDUCE, a, -1, 8, 8);
        b.rank(1).callCollective("MPI_Allreduce", 100, 150, CollectiveOp.ALLREDUCE, a, -1, 8, 8);
        b.rank(2).callCollective("MPI_Barrier", 100, 140, CollectiveOp.BARRIER, c, -1, 0, 0);
        b.rank(3).callCollective("MPI_Barrier", 130, 140, CollectiveOp.BARRIER, c, -1, 0, 0);
        b.rank(2).callSend("MPI_Send", 205, 210, 1, 7, 8);
        b.rank(1).callRecv(200, 220, 2, 7, 8);
        for (int r = 0; r < 4; r++) {
            b.rank(r).leave(300);
        }
        return Analysis.run(b.build(), AnalysisOptions.defaults().withThreads(2));
    }

    private static CommunicatorWaits named(AnalysisResult r, String name) {
        return r.communicators().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void eachWaitCountsOnTheCommunicatorOfItsOperation() throws IOException {
        AnalysisResult r = threeCommunicators();
        assertEquals(10 * NS, named(r, "A").seconds("mpi_wait_nxn"), 1e-15);
        assertEquals(0, named(r, "A").seconds("mpi_barrier_wait"));
        assertEquals(30 * NS, named(r, "B").seconds("mpi_barrier_wait"), 1e-15);
        CommunicatorWaits world = r.communicators().get(WORLD);
        assertEquals(5 * NS, world.seconds("mpi_latesender"), 1e-15);
        assertEquals(0, world.seconds("mpi_wait_nxn"));
        assertEquals(2, named(r, "B").size());
    }

    @Test
    void terminalReportListsWaitingBySizeWithinItsWidth() throws IOException {
        // sizes 2 (A: 10 ns, B: 30 ns) and 4 (world: 5 ns): 40/45 and 5/45 of the waiting
        String text = dev.straggler.patterns.report.TextReport.render(threeCommunicators(), 80);
        String section = text.substring(text.indexOf("Wait states by communicator size"));
        assertTrue(section.contains("       2      2   4.000e-08 s    88.9%     88.9%"), section);
        assertTrue(section.contains("       4      1   5.000e-09 s    11.1%    100.0%"), section);
        assertTrue(text.lines().allMatch(l -> l.length() <= 80), text);
    }

    @Test
    void communicatorsAddUpToTheCubeTotals() throws IOException {
        AnalysisResult r = threeCommunicators();
        for (int m : CommunicatorWaits.METRICS) {
            String name = MetricTree.ALL.get(m).uniqueName();
            double sum = r.communicators().stream().mapToDouble(c -> c.seconds(name)).sum();
            assertEquals(r.total(name), sum, 1e-15, name);
        }
    }

    /**
     * The GYRO-like family: at 32 ranks the 2048 work units divide evenly and nobody waits in the transposes; at 48
     * they do not, and all Wait at N x N in the MPI_Alltoall of the sub-communicators of 16 equals the closed form.
     */
    @Test
    void gyroLikeWaitingIsInTheSubCommunicatorsOfSixteen() throws IOException {
        for (int ranks : new int[] {32, 48}) {
            MemoryTrace trace = new MemoryTrace("gyro");
            ExpectedSeverities expected = Scenarios.byName("gyro-like").generate(ScenarioParams.of(ranks), trace)
                    .expected();
            AnalysisResult r = Analysis.run(trace, AnalysisOptions.defaults().withThreads(2));
            List<CommunicatorWaits> small = r.communicators().stream().filter(c -> c.size() <= 16).toList();
            double inSmall = small.stream().mapToDouble(c -> c.seconds("mpi_wait_nxn")).sum();
            double alltoall = expected.entries().stream().filter(e -> e.metric().equals("mpi_wait_nxn")
                    && e.callpath().get(e.callpath().size() - 1).equals("MPI_Alltoall"))
                    .mapToDouble(ExpectedSeverities.Entry::value).sum();
            assertEquals(alltoall, inSmall, 1e-9 * Math.max(1, alltoall), ranks + " ranks");
            assertEquals(ranks == 32, alltoall == 0, "32 ranks divide the work, 48 do not");
            assertTrue(small.size() >= 2);
        }
    }
}
