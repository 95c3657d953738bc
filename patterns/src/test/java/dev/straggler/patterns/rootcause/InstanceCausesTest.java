package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The delay behind each most severe instance, derived by hand from the delay definitions (reference §1.6, ticks of
 * 1 ms; every rank leaves MPI_Init at 10 ms, its last synchronisation with every other rank).
 */
class InstanceCausesTest {
    private static final String HEADER = """
            straggler-text 1
            clock resolution=1000
            region 0 main
            region 1 work
            region 2 MPI_Init paradigm=MPI role=FUNCTION file=MPI
            region 3 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 4 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            region 5 MPI_Finalize paradigm=MPI role=FUNCTION file=MPI
            region 6 more
            region 7 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
            region 8 exchange
            location 0 rank=0
            location 1 rank=1
            location 2 rank=2
            comm 0 MPI_COMM_WORLD members=0,1,2
            """;

    /**
     * A chain: rank 2 computes 100 ms and sends to rank 0, which computed 30 ms and so waits 70 ms (Late Sender);
     * (in {@code exchange}, so that both waits are kept as most severe instances: one per call path) rank 0 then
     * computes 20 ms in {@code more} and sends to rank 1, which computed 40 ms and waits 83 ms.
     * <ul>
     *   <li>Rank 0's wait: rank 2's {@code work} exceeds rank 0's by 70 ms, nothing waited in between: all 70 ms
     *   are delay in {@code work} on rank 2, over rank 2's stretch from MPI_Init's end (10 ms) to its send (110 ms).</li>
     *   <li>Rank 1's wait: rank 0's times since MPI_Init, its 70 ms of waiting removed, against rank 1's: {@code work}
     *   30 − 40 &lt; 0, MPI_Recv 73 − 70 = 3, {@code more} 20; delay 23 ms, waiting 70 ms, scaled by 83 / (23 + 70):
     *   {@code more} 20·83/93, MPI_Recv 3·83/93, and 70·83/93 of rank 1's wait propagated from rank 0's waiting.</li>
     * </ul>
     */
    private static final String CHAIN = HEADER + """
            0 0 ENTER main
            0 0 ENTER MPI_Init
            0 10 LEAVE MPI_Init
            0 10 ENTER work
            0 40 LEAVE work
            0 40 ENTER exchange
            0 40 ENTER MPI_Recv
            0 112 MPI_RECV from=2 comm=0 tag=0 bytes=8
            0 113 LEAVE MPI_Recv
            0 113 LEAVE exchange
            0 113 ENTER more
            0 133 LEAVE more
            0 133 ENTER MPI_Send
            0 134 MPI_SEND to=1 comm=0 tag=0 bytes=8
            0 135 LEAVE MPI_Send
            0 135 ENTER MPI_Finalize
            0 150 LEAVE MPI_Finalize
            0 150 LEAVE main
            1 0 ENTER main
            1 0 ENTER MPI_Init
            1 10 LEAVE MPI_Init
            1 10 ENTER work
            1 50 LEAVE work
            1 50 ENTER MPI_Recv
            1 135 MPI_RECV from=0 comm=0 tag=0 bytes=8
            1 136 LEAVE MPI_Recv
            1 136 ENTER MPI_Finalize
            1 150 LEAVE MPI_Finalize
            1 150 LEAVE main
            2 0 ENTER main
            2 0 ENTER MPI_Init
            2 10 LEAVE MPI_Init
            2 10 ENTER work
            2 110 LEAVE work
            2 110 ENTER MPI_Send
            2 111 MPI_SEND to=0 comm=0 tag=0 bytes=8
            2 112 LEAVE MPI_Send
            2 112 ENTER MPI_Finalize
            2 150 LEAVE MPI_Finalize
            2 150 LEAVE main
            """;

    /**
     * A barrier that ranks 0, 1 and 2 enter after 20, 40 and 80 ms of {@code work}: ranks 0 and 1 wait 60 and 40 ms
     * (one instance of 100 ms, rank 0 waited longest); rank 2 arrived last, and its {@code work} exceeds each
     * waiting rank's by exactly its wait, so all 100 ms are delay in rank 2's {@code work} from 10 to 90 ms.
     */
    private static final String BARRIER = HEADER + """
            0 0 ENTER main
            0 0 ENTER MPI_Init
            0 10 LEAVE MPI_Init
            0 10 ENTER work
            0 30 LEAVE work
            0 30 ENTER MPI_Barrier
            0 30 MPI_COLLECTIVE_BEGIN
            0 91 MPI_COLLECTIVE_END op=BARRIER comm=0 root=-1 sent=0 received=0
            0 91 LEAVE MPI_Barrier
            0 91 ENTER MPI_Finalize
            0 100 LEAVE MPI_Finalize
            0 100 LEAVE main
            1 0 ENTER main
            1 0 ENTER MPI_Init
            1 10 LEAVE MPI_Init
            1 10 ENTER work
            1 50 LEAVE work
            1 50 ENTER MPI_Barrier
            1 50 MPI_COLLECTIVE_BEGIN
            1 91 MPI_COLLECTIVE_END op=BARRIER comm=0 root=-1 sent=0 received=0
            1 91 LEAVE MPI_Barrier
            1 91 ENTER MPI_Finalize
            1 100 LEAVE MPI_Finalize
            1 100 LEAVE main
            2 0 ENTER main
            2 0 ENTER MPI_Init
            2 10 LEAVE MPI_Init
            2 10 ENTER work
            2 90 LEAVE work
            2 90 ENTER MPI_Barrier
            2 90 MPI_COLLECTIVE_BEGIN
            2 91 MPI_COLLECTIVE_END op=BARRIER comm=0 root=-1 sent=0 received=0
            2 91 LEAVE MPI_Barrier
            2 91 ENTER MPI_Finalize
            2 100 LEAVE MPI_Finalize
            2 100 LEAVE main
            """;

    private static AnalysisResult analyse(String trace, boolean rootCauses) throws IOException {
        var t = TextTraceReader.read(new StringReader(trace), "instance-causes");
        return Analysis.run(t, AnalysisOptions.defaults().withThreads(1).withRootCauses(rootCauses));
    }

    private static Instance instance(AnalysisResult r, String metric, int rank) {
        return r.mostSevere().stream().filter(i -> i.metric().equals(metric) && i.rank() == rank).findFirst()
                .orElseThrow(() -> new AssertionError("no " + metric + " instance on rank " + rank + " in "
                        + r.mostSevere()));
    }

    private static String pathName(AnalysisResult r, int path) {
        return String.join("/", r.cube().pathNames(path));
    }

    @Test
    void aLateSendersCauseIsItsExcessComputationSinceTheLastSynchronisation() throws IOException {
        AnalysisResult r = analyse(CHAIN, true);
        DelayCause c = r.causeOf(instance(r, "mpi_latesender", 0));
        assertNotNull(c);
        assertEquals(2, c.rank());
        assertEquals(0.010, c.from(), 1e-12);
        assertEquals(0.110, c.to(), 1e-12);
        assertEquals(0.070, c.delay(), 1e-12);
        assertEquals(0.0, c.propagated(), 1e-12);
        assertEquals(1, c.callPaths().size());
        assertEquals("main/work", pathName(r, c.callPaths().get(0).callPath()));
    }

    @Test
    void waitingOfTheDelayingRankIsPropagationNotDelay() throws IOException {
        AnalysisResult r = analyse(CHAIN, true);
        Instance i = instance(r, "mpi_latesender", 1);
        assertEquals(0.083, i.severity(), 1e-12);
        DelayCause c = r.causeOf(i);
        assertNotNull(c);
        assertEquals(0, c.rank());
        assertEquals(0.010, c.from(), 1e-12);
        assertEquals(0.133, c.to(), 1e-12);
        double scale = 83.0 / 93.0;
        assertEquals(0.023 * scale, c.delay(), 1e-12);
        assertEquals(0.070 * scale, c.propagated(), 1e-12);
        assertEquals(2, c.callPaths().size());
        assertEquals("main/more", pathName(r, c.callPaths().get(0).callPath()));
        assertEquals(0.020 * scale, c.callPaths().get(0).seconds(), 1e-12);
        assertEquals("main/exchange/MPI_Recv", pathName(r, c.callPaths().get(1).callPath()));
        assertEquals(0.003 * scale, c.callPaths().get(1).seconds(), 1e-12);
        assertTrue(c.delay() + c.propagated() <= i.severity() + 1e-12);
    }

    @Test
    void aBarriersCauseIsTheLastArrivalsExcessOverEveryWaitingRank() throws IOException {
        AnalysisResult r = analyse(BARRIER, true);
        Instance i = instance(r, "mpi_barrier_wait", 0);
        assertEquals(0.100, i.severity(), 1e-12);
        DelayCause c = r.causeOf(i);
        assertNotNull(c);
        assertEquals(2, c.rank());
        assertEquals(0.010, c.from(), 1e-12);
        assertEquals(0.090, c.to(), 1e-12);
        assertEquals(0.100, c.delay(), 1e-12);
        assertEquals(List.of("main/work"), c.callPaths().stream().map(p -> pathName(r, p.callPath())).toList());
    }

    @Test
    void withoutRootCausesNoInstanceClaimsACause() throws IOException {
        AnalysisResult r = analyse(CHAIN, false);
        assertTrue(r.causes().isEmpty());
    }

    /**
     * The terminal report gives the why line under the worst instance; the trace here is read from text in memory
     * (its origin is a name, not a file), so no timeline command is offered that could not run.
     */
    @Test
    void theReportSaysWhyAndOffersNoCommandForATraceWithoutAFile() throws IOException {
        AnalysisResult r = analyse(CHAIN, true);
        String text = dev.straggler.patterns.report.TextReport.render(r, 200, false).replaceAll("\\s+", " ");
        assertTrue(text.contains("why: between 0.010000 and 0.133000 s (since it last synchronised with the waiting "
                + "rank), rank 0 took longer than the waiting rank: 0.020527 s of the wait is delay in main/more "
                + "(0.017849 s), main/exchange/MPI_Recv (0.002677 s); 0.062473 s propagated: rank 0 itself waited in "
                + "that stretch"), text);
        assertTrue(!text.contains("straggler timeline"), text);
    }

    /**
     * On the bundled sample the barrier's delay, summed in double precision, came out 4e-19 s above the 0.5 ms waited;
     * no instance may show more delay and propagation than it waited.
     */
    @Test
    void roundingNeverMakesTheExplainedExceedTheWait() throws IOException {
        var t = TextTraceReader.read(java.nio.file.Path.of("..", "samples", "late-sender.txt"));
        AnalysisResult r = Analysis.run(t, AnalysisOptions.defaults().withThreads(1).withRootCauses(true));
        assertTrue(r.causes().size() >= 2, r.causes().toString());
        for (DelayCause c : r.causes()) {
            assertTrue(c.delay() + c.propagated() <= c.instance().severity(), c.toString());
        }
        DelayCause barrier = r.causeOf(instance(r, "mpi_barrier_wait", 1));
        assertEquals(0.0005, barrier.delay(), 1e-15);
    }
}
