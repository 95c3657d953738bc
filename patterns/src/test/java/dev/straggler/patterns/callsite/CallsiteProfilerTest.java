package dev.straggler.patterns.callsite;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Expected values are worked out by hand from the timeline in {@link TwoRankTrace} (1 tick = 1 ns). */
class CallsiteProfilerTest {
    static final double NS = 1e-9;
    static final double EPS = 1e-18;

    static CallsiteEntry site(CallsiteStatistics s, String label) {
        return s.callsites().stream().filter(e -> e.site().label().equals(label)).findFirst()
                .orElseThrow(() -> new AssertionError("no callsite " + label + " in "
                        + s.callsites().stream().map(e -> e.site().label()).toList()));
    }

    static RankStats rank(CallsiteEntry e, int r) {
        return e.perRank().stream().filter(x -> x.rank() == r).findFirst().orElseThrow();
    }

    @Test
    void appTimeSpansFromTheEndOfInitToTheStartOfFinalize() throws Exception {
        CallsiteStatistics s = CallsiteProfiler.profile(TwoRankTrace.trace()).callsites();
        assertEquals(2, s.ranks());
        assertEquals(140 * NS, s.appTime()[0], EPS);
        assertEquals(136 * NS, s.appTime()[1], EPS);
        // Rank 0: Barrier 30 + Send 10 + Send 4 + Allreduce 30; rank 1: 10 + 15 + 10 + 10. Init and Finalize excluded.
        assertEquals(74 * NS, s.mpiTime()[0], EPS);
        assertEquals(45 * NS, s.mpiTime()[1], EPS);
    }

    @Test
    void perRankCountTotalExtremaAndBytes() throws Exception {
        CallsiteStatistics s = CallsiteProfiler.profile(TwoRankTrace.trace()).callsites();
        assertEquals(List.of("Allreduce @ solve", "Barrier @ setup", "Recv @ solve", "Send @ solve"),
                s.callsites().stream().map(e -> e.site().label()).toList());
        RankStats send = rank(site(s, "Send @ solve"), 0);
        assertEquals(2, send.count());
        assertEquals(14 * NS, send.total(), EPS);
        assertEquals(10 * NS, send.max(), EPS);
        assertEquals(4 * NS, send.min(), EPS);
        assertEquals(7 * NS, send.mean(), EPS);
        assertEquals(4000, send.bytes());
        assertEquals(3000, send.bytesMax());
        assertEquals(1000, send.bytesMin());
        RankStats recv = rank(site(s, "Recv @ solve"), 1);
        assertEquals(25 * NS, recv.total(), EPS);
        assertEquals(0, recv.bytes(), "received bytes are not sent bytes");
        assertEquals(1, site(s, "Send @ solve").perRank().size(), "rank 1 never sends");
    }

    @Test
    void allRowPercentagesAndCoefficientOfVariation() throws Exception {
        CallsiteStatistics s = CallsiteProfiler.profile(TwoRankTrace.trace()).callsites();
        CallsiteEntry allreduce = site(s, "Allreduce @ solve");
        assertEquals(2, allreduce.all().count());
        assertEquals(40 * NS, allreduce.all().total(), EPS);
        assertEquals(30 * NS, allreduce.all().max(), EPS);
        assertEquals(10 * NS, allreduce.all().min(), EPS);
        assertEquals(16, allreduce.all().bytes());
        // Totals 30 and 10 ns: mean 20, sample standard deviation sqrt(200) = 14.14: COV 0.7071.
        assertEquals(Math.sqrt(200) / 20, allreduce.cov(2), 1e-12);
        RankStats send = rank(site(s, "Send @ solve"), 0);
        assertEquals(100.0 * 14 / 140, s.appPercent(send), 1e-9);
        assertEquals(100.0 * 14 / 74, s.mpiPercent(send), 1e-9);
        assertEquals(100.0 * 40 / (74 + 45), s.mpiPercent(allreduce.all()), 1e-9);
    }

    @Test
    void depthChangesWhatACallsiteIs() throws Exception {
        CallsiteStatistics k0 = CallsiteProfiler.profile(TwoRankTrace.trace(), new CallsiteProfiler.Options(0, 1)).callsites();
        assertEquals(List.of("Allreduce", "Barrier", "Recv", "Send"), k0.callsites().stream().map(e -> e.site().label()).toList());
        CallsiteStatistics k2 = CallsiteProfiler.profile(TwoRankTrace.trace(), new CallsiteProfiler.Options(2, 1)).callsites();
        CallsiteEntry send = site(k2, "Send @ solve < main");
        assertEquals(List.of(new Frame("solve", "solve.c", 5), new Frame("main", "app.c", 10)), send.site().frames());
    }

    @Test
    void phasesSplitIntoComputationMpiAndWaitingAtSynchronization() throws Exception {
        PhaseBreakdown p = CallsiteProfiler.profile(TwoRankTrace.trace()).phases();
        PhaseBreakdown.Phase solve = p.phases().stream().filter(x -> x.name().equals("solve")).findFirst().orElseThrow();
        assertEquals(List.of("main", "solve"), solve.path());
        assertArrayEquals(new double[]{90 * NS, 90 * NS}, solve.total(), EPS);
        assertArrayEquals(new double[]{44 * NS, 35 * NS}, solve.mpi(), EPS);
        // Allreduce: rank 0 begins at 100, rank 1 at 120: rank 0 waits 20 ns.
        assertArrayEquals(new double[]{20 * NS, 0}, solve.imbalance(), EPS);
        assertEquals(46 * NS, solve.computation(0), EPS);
        PhaseBreakdown.Phase setup = p.phases().stream().filter(x -> x.name().equals("setup")).findFirst().orElseThrow();
        // Barrier: rank 0 arrives at 20, rank 1 at 40: rank 0 waits 20 ns of its 30.
        assertArrayEquals(new double[]{40 * NS, 38 * NS}, setup.total(), EPS);
        assertArrayEquals(new double[]{20 * NS, 0}, setup.imbalance(), EPS);
        PhaseBreakdown.Phase init = p.phases().stream().filter(x -> x.name().equals("MPI_Init")).findFirst().orElseThrow();
        assertArrayEquals(new double[]{10 * NS, 12 * NS}, init.mpi(), EPS);
        assertEquals(4, p.phases().size());
    }

    @Test
    void communicationProfileKeysByPhaseCallSizeAndPartner() throws Exception {
        CommProfile c = CallsiteProfiler.profile(TwoRankTrace.trace()).communication();
        CommProfile.Entry bigSend = c.entries().stream()
                .filter(e -> e.call().equals("MPI_Send") && e.bytes() == 3000).findFirst().orElseThrow();
        assertEquals("solve", bigSend.phase());
        assertEquals(12, bigSend.sizeBucket(), "2048 <= 3000 < 4096");
        assertEquals("2048-4095", bigSend.sizeLabel());
        assertEquals(1, bigSend.partner());
        assertEquals(4 * NS, bigSend.time(), EPS);
        CommProfile.Entry smallRecv = c.entries().stream()
                .filter(e -> e.call().equals("MPI_Recv") && e.bytes() == 1000).findFirst().orElseThrow();
        assertEquals(0, smallRecv.partner());
        assertEquals(10, smallRecv.sizeBucket());
        CommProfile.Entry allreduce = c.entries().stream().filter(e -> e.call().equals("MPI_Allreduce")).findFirst().orElseThrow();
        assertEquals(2, allreduce.count());
        assertEquals(2, allreduce.ranks());
        assertEquals(-1, allreduce.partner());
        assertEquals(40 * NS, allreduce.time(), EPS);
        assertEquals(6, c.entries().size());
    }

    @Test
    void aLeaveOfTheWrongRegionIsSkippedAndCounted() throws Exception {
        MemoryTrace good = TwoRankTrace.trace();
        EventBatch r0 = good.readLocation(0);
        EventBatch r1 = good.readLocation(1);
        EventBatch broken = new EventBatch(64);
        broken.addAll(r0, 0, 3);
        broken.leave(10, TwoRankTrace.SOLVE);
        broken.addAll(r0, 3, r0.size);
        MemoryTrace t = new MemoryTrace(TwoRankTrace.definitions(), List.of(broken, r1), "broken");
        TraceProfile p = CallsiteProfiler.profile(t);
        assertTrue(p.notes().stream().anyMatch(n -> n.startsWith("1 LEAVE events did not match")), p.notes().toString());
        assertEquals(14 * NS, rank(site(p.callsites(), "Send @ solve"), 0).total(), EPS);
    }
}
