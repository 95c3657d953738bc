package dev.straggler.replay;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Marks and interval times as the root-cause analysis reads them. */
class CallPathIntervalsTest {
    /** Over 2^31 ticks: a 3 s computation and a 5 s receive at 1 GHz. */
    private static final long LONG_WORK = 3_000_000_000L;
    private static final long LONG_WAIT = 5_000_000_000L;

    private static Replay replay(TraceBuilder b, boolean intervals) throws IOException {
        MemoryTrace t = b.build();
        return Replay.run(t, ReplayOptions.defaults().withThreads(1).withIntervals(intervals));
    }

    /** Rank 0: main > work (3 s) then MPI_Send; rank 1: main > MPI_Recv for 5 s. */
    private static TraceBuilder longIntervals() {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").compute("work", 10, 10 + LONG_WORK)
                .callSend("MPI_Send", 20 + LONG_WORK, 30 + LONG_WORK, 1, 0, 8).leave(40 + LONG_WORK);
        b.rank(1).enter(0, "main").callRecv(10, 10 + LONG_WAIT, 0, 0, 8).leave(20 + LONG_WAIT);
        return b;
    }

    /** The trace builder's clock: 1 GHz, offset 0; Scalasca's conversion is (ticks - offset) / resolution. */
    private static double sec(long ticks) {
        return ticks / 1e9;
    }

    private static List<Double> sortedEntries(CallPathIntervals iv, int interval) {
        List<Double> got = new ArrayList<>();
        for (int e = iv.entriesBegin(interval); e < iv.entriesEnd(interval); e++) {
            got.add(iv.entrySeconds(e));
        }
        got.sort(null);
        return got;
    }

    private static BitSet marks(int... m) {
        BitSet b = new BitSet();
        for (int x : m) {
            b.set(x);
        }
        return b;
    }

    @Test
    void intervalTimesAreTimestampDifferencesInSecondsSummedInEventOrder() throws IOException {
        CallPathIntervals iv = replay(longIntervals(), true).intervalTimes(0, marks(0));
        assertEquals(1, iv.size());
        // before the send's mark: main 0..10 and 10+3e9..20+3e9, work 10..10+3e9
        double main = (sec(10) - sec(0)) + (sec(20 + LONG_WORK) - sec(10 + LONG_WORK));
        double work = sec(10 + LONG_WORK) - sec(10);
        assertEquals(List.of(main, work), sortedEntries(iv, 0));
    }

    @Test
    void marksThatAreNoSynchronisationPointCarryTheirTimeToTheNextOne() throws IOException {
        // rank 0: a 100-tick and a 50-tick computation, each followed by a send; only the second send closes
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").compute("a", 0, 100).callSend("MPI_Send", 100, 110, 1, 0, 8)
                .compute("b", 110, 160).callSend("MPI_Send", 160, 170, 1, 1, 8).leave(180);
        b.rank(1).enter(0, "main").callRecv(0, 120, 0, 0, 8).callRecv(120, 180, 0, 1, 8).leave(190);
        CallPathIntervals iv = replay(b, true).intervalTimes(0, marks(1));
        assertEquals(2, iv.size());
        assertEquals(List.of(), sortedEntries(iv, 0));
        // a 100, the first MPI_Send 10, b 50, all before the second send
        assertEquals(List.of(sec(110) - sec(100), sec(160) - sec(110), sec(100) - sec(0)), sortedEntries(iv, 1));
        // after it: the second MPI_Send and main's tail
        assertEquals(List.of(sec(170) - sec(160), sec(180) - sec(170)), sortedEntries(iv, 2));
    }

    /**
     * Scalasca's time map of an interval holds 128 call paths ({@code fixed_priority_map<..., 128>}): rank 0 runs
     * 130 routines f0..f129 of (i + 1)·10 ticks back to back before its send; the 129th (f128) replaces the smallest,
     * f0, and f129 replaces f1, whose times are lost.
     */
    @Test
    void anIntervalMapKeepsAtMost128CallPathsAndTheSmallestGiveWay() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        var r0 = b.rank(0).enter(0, "main");
        long t = 0;
        List<Double> expected = new ArrayList<>();
        for (int i = 0; i < 130; i++) {
            long d = (i + 1) * 10L;
            r0.compute("f" + i, t, t + d);
            if (i >= 2) {
                expected.add(sec(t + d) - sec(t));
            }
            t += d;
        }
        r0.callSend("MPI_Send", t, t + 10, 1, 0, 8).leave(t + 20);
        b.rank(1).enter(0, "main").callRecv(0, t + 10, 0, 0, 8).leave(t + 20);
        CallPathIntervals iv = replay(b, true).intervalTimes(0, marks(0));
        expected.sort(null);
        assertEquals(expected, sortedEntries(iv, 0));
    }

    /**
     * Marks that close no interval do not make a call path count twice towards the 128 an interval map holds: rank 0
     * computes in {@code a} for 10 ticks then sends, 200 times, and only the last send closes; the interval holds
     * {@code a} and {@code MPI_Send} ({@code main} has no time of its own before the last send), each with all of its time (before the fix, every send listed
     * them again, and from the 64th send on the time of a call path listed anew was lost).
     */
    @Test
    void callPathsBookedBetweenManyNonClosingMarksKeepAllTheirTime() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        var r0 = b.rank(0).enter(0, "main");
        var r1 = b.rank(1).enter(0, "main");
        long t = 0;
        int n = 200;
        double a = 0;
        double send = 0;
        for (int i = 0; i < n; i++) {
            r0.compute("a", t, t + 10);
            a += sec(t + 10) - sec(t);
            r0.callSend("MPI_Send", t + 10, t + 12, 1, i, 8);
            if (i < n - 1) {
                send += sec(t + 12) - sec(t + 10); // the closing send's own time opens the next interval
            }
            r1.callRecv(t, t + 12, 0, i, 8);
            t += 12;
        }
        r0.leave(t + 5);
        r1.leave(t + 5);
        CallPathIntervals iv = replay(b, true).intervalTimes(0, marks(n - 1));
        assertEquals(List.of(send, a), sortedEntries(iv, n - 1));
    }

    /**
     * Rank 0 with what changes its call stack besides Enter/Leave (a Leave without Enter, program begin, a
     * measurement pause, a buffer flush), marks of every kind (an unknown request completion makes none), and
     * MPI_Finalize and main left open at the end (their Leave, and the Finalize mark, come from closing them).
     */
    private static TraceBuilder stackChanges() {
        TraceBuilder b = new TraceBuilder(2);
        int main = b.region("main");
        b.rank(0).raw(0, EventKind.LEAVE_CODE, main, 0, 0, 0, 0).raw(1, EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0)
                .enter(2, "main").enter(3, "MPI_Init").leave(7).compute("a", 7, 20)
                .raw(21, EventKind.MEASUREMENT_ON_OFF_CODE, 2, 0, 0, 0, 0)
                .raw(30, EventKind.MEASUREMENT_ON_OFF_CODE, 1, 0, 0, 0, 0)
                .raw(31, EventKind.BUFFER_FLUSH_CODE, 0, 0, 0, 0, 40)
                .callIsend(41, 45, 1, 0, 8, 7).callIrecv(46, 50, 9)
                .enter(51, "MPI_Waitall").request(55, EventKind.MPI_ISEND_COMPLETE, 7)
                .irecv(56, TraceBuilder.WORLD, 1, 0, 8, 9).request(57, EventKind.MPI_ISEND_COMPLETE, 99).leave(60)
                .callSend("MPI_Send", 61, 70, 1, 1, 8).compute("b", 70, 90)
                .callCollective("MPI_Barrier", 90, 100, CollectiveOp.BARRIER, TraceBuilder.WORLD, -1, 0, 0)
                .enter(101, "MPI_Finalize").compute("c", 102, 105);
        b.rank(1).enter(0, "main").enter(1, "MPI_Init").leave(2)
                .callCollective("MPI_Barrier", 90, 100, CollectiveOp.BARRIER, TraceBuilder.WORLD, -1, 0, 0)
                .enter(101, "MPI_Finalize").leave(110).leave(120);
        return b;
    }

    private static void assertSameTimes(CallPathIntervals expected, CallPathIntervals actual) {
        assertEquals(expected.size(), actual.size());
        assertEquals(expected.entries(), actual.entries());
        for (int m = 0; m <= expected.size(); m++) {
            assertEquals(expected.entriesBegin(m), actual.entriesBegin(m), "interval " + m);
            assertEquals(expected.entriesEnd(m), actual.entriesEnd(m), "interval " + m);
        }
        for (int e = 0; e < expected.entries(); e++) {
            assertEquals(expected.entryPath(e), actual.entryPath(e), "entry " + e);
            assertEquals(expected.entrySeconds(e), actual.entrySeconds(e), "entry " + e);
        }
    }

    @Test
    void secondPassFromTheMarksBooksAsTheWholeFirstPass() throws IOException {
        MemoryTrace t = stackChanges().build();
        Replay r = Replay.run(t, ReplayOptions.defaults().withThreads(1).withIntervals(true));
        LocationData d = r.location(0);
        int marks = d.intervals().size();
        // init, isend, receive request, irecv, isend completion, send, barrier, finalize (closed at the end)
        assertEquals(8, marks);
        assertEquals(CallPathIntervals.FINALIZE, d.intervals().kind(marks - 1));
        BitSet all = new BitSet();
        all.set(0, marks);
        BitSet even = new BitSet();
        for (int m = 0; m < marks; m += 2) {
            even.set(m);
        }
        for (BitSet closing : List.of(new BitSet(), all, even)) {
            // ground truth: the second pass that repeats the whole first pass (records, requests, profile)
            CallPathIntervals whole = Replay.intervalTimes(t, t.definitions(), r.regions(), 0, closing);
            assertSameTimes(whole, Replay.intervalTimes(t, t.definitions(), r.regions(), d, closing,
                    java.util.function.IntUnaryOperator.identity()));
            assertSameTimes(whole, r.intervalTimes(0, closing));
        }
    }

    @Test
    void callLongerThanAnIntKeepsItsLeave() throws IOException {
        CallPathIntervals iv = replay(longIntervals(), true).location(1).intervals();
        assertEquals(10, iv.enter(0));
        assertEquals(10 + LONG_WAIT, iv.leave(0));
    }

    @Test
    void marksAreKeptOnlyWhenAsked() throws IOException {
        assertNull(replay(longIntervals(), false).location(0).intervals());
        assertNotNull(replay(longIntervals(), true).location(0).intervals());
    }
}
