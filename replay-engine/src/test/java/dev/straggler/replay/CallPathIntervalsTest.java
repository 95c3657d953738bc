package dev.straggler.replay;

import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.io.IOException;

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

    @Test
    void intervalTicksBeyondAnIntAreExact() throws IOException {
        CallPathIntervals iv = replay(longIntervals(), true).location(0).intervals();
        assertEquals(1, iv.size());
        // before the send's mark: main 10 + 10 ticks, work 3e9 ticks
        long sum = 0;
        long max = 0;
        for (int e = iv.entriesBegin(0); e < iv.entriesEnd(0); e++) {
            sum += iv.entryTicks(e);
            max = Math.max(max, iv.entryTicks(e));
        }
        assertEquals(LONG_WORK + 20, sum);
        assertEquals(LONG_WORK, max);
    }

    @Test
    void callLongerThanAnIntKeepsItsLeave() throws IOException {
        CallPathIntervals iv = replay(longIntervals(), true).location(1).intervals();
        assertEquals(10, iv.enter(0));
        assertEquals(10 + LONG_WAIT, iv.leave(0));
    }

    @Test
    void intervalsAreKeptOnlyWhenAsked() throws IOException {
        assertNull(replay(longIntervals(), false).location(0).intervals());
        assertNotNull(replay(longIntervals(), true).location(0).intervals());
    }
}
