package dev.straggler.trace;

import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlausibleTraceTest {
    private static final String HEADER = """
            straggler-text 1
            clock resolution=1000000 offset=100 length=1000
            region 0 main
            location 0 rank=0
            comm 0 MPI_COMM_WORLD members=0
            """;

    private static TraceSource trace(String events) throws Exception {
        return TextTraceReader.read(new StringReader(HEADER + events), "t.txt");
    }

    private static long[] times(TraceSource s) throws Exception {
        EventBatch b = s.readLocation(0);
        return java.util.Arrays.copyOf(b.time, b.size);
    }

    @Test
    void plausibleTraceIsDeliveredUnchanged() throws Exception {
        TraceSource raw = trace("0 100 ENTER main\n0 600 LEAVE main\n");
        PlausibleTrace p = PlausibleTrace.wrap(raw, false);
        assertArrayEquals(times(raw), times(p));
        assertEquals(0, p.droppedCount());
        assertTrue(p.partialReasons().isEmpty());
    }

    @Test
    void timestampBeyondTheClockLengthIsAnErrorNamingLocationEventAndValue() throws Exception {
        var e = assertThrows(TraceFormatException.class, () -> times(PlausibleTrace.wrap(
                trace("0 100 ENTER main\n0 4000000000 LEAVE main\n"), false)));
        assertEquals("t.txt: location 0 (rank 0), event 1 (LEAVE): timestamp 4000000000 lies outside the trace's clock "
                + "range [100, 1100] (ClockProperties: begin 100, length 1000 ticks = 0.00100000 s)", e.getMessage());
        // the command line adds that --lenient reads past it
        assertTrue(e.isSkippedByLenientReads());
    }

    @Test
    void timeGoingBackwardsIsAnError() throws Exception {
        var e = assertThrows(TraceFormatException.class, () -> times(PlausibleTrace.wrap(
                trace("0 500 ENTER main\n0 400 LEAVE main\n"), false)));
        assertTrue(e.getMessage().contains("event 1 (LEAVE): timestamp 0.000300 s (t=400) is earlier than the "
                + "previous event's, 0.000400 s (t=500)"), e.getMessage());
    }

    @Test
    void negativeMessageLengthIsAnError() throws Exception {
        var e = assertThrows(TraceFormatException.class, () -> times(PlausibleTrace.wrap(
                trace("0 500 MPI_SEND to=0 comm=0 tag=1 bytes=-8192\n"), false)));
        assertTrue(e.getMessage().contains("MPI_SEND with negative message length -8192"), e.getMessage());
    }

    @Test
    void lenientDropsTheRecordAndSaysSo() throws Exception {
        PlausibleTrace p = PlausibleTrace.wrap(trace("0 100 ENTER main\n0 4000000000 ENTER main\n0 600 LEAVE main\n"
                + "0 700 LEAVE main\n"), true);
        assertArrayEquals(new long[] {100, 600, 700}, times(p));
        assertEquals(1, p.droppedCount());
        assertEquals(1, p.dropped().get(0).eventIndex());
        assertEquals(1, p.partialReasons().size());
        assertTrue(p.partialReasons().get(0).contains("dropped 1 implausible record"));
    }

    /** The root-cause stage reads each location a second time: a record dropped on both reads is one record. */
    @Test
    void readingALocationTwiceCountsEachDroppedRecordOnce() throws Exception {
        PlausibleTrace p = PlausibleTrace.wrap(trace("0 100 ENTER main\n0 4000000000 ENTER main\n0 600 LEAVE main\n"
                + "0 700 LEAVE main\n"), true);
        assertArrayEquals(times(p), times(p));
        assertEquals(1, p.droppedCount());
        assertEquals(1, p.dropped().size());
        assertTrue(p.partialReasons().get(0).contains("dropped 1 implausible record"));
    }

    /** One corrupt value inside the range, between two plausible ones: the spike goes, not everything after it. */
    @Test
    void lenientDropsASpikeRatherThanEveryEventAfterIt() throws Exception {
        PlausibleTrace p = PlausibleTrace.wrap(trace("0 100 ENTER main\n0 1000 ENTER main\n0 300 LEAVE main\n"
                + "0 400 ENTER main\n0 500 LEAVE main\n0 600 LEAVE main\n"), true);
        assertArrayEquals(new long[] {100, 300, 400, 500, 600}, times(p));
        assertEquals(1, p.droppedCount());
    }

    @Test
    void undeclaredClockLengthChecksOrderOnly() throws Exception {
        TraceSource raw = TextTraceReader.read(new StringReader("""
                straggler-text 1
                region 0 main
                location 0 rank=0
                0 5 ENTER main
                0 90000000000 LEAVE main
                """), "u.txt");
        assertEquals(2, times(PlausibleTrace.wrap(raw, false)).length);
    }
}
