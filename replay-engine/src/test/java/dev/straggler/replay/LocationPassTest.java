package dev.straggler.replay;

import dev.straggler.trace.EventKind;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocationPassTest {

    private static Replay replay(TraceBuilder b) throws IOException {
        MemoryTrace t = b.build();
        return Replay.run(t, ReplayOptions.defaults().withThreads(1));
    }

    private static int node(Replay r, int location, String... path) {
        LocationProfile p = r.location(location).profile();
        int parent = -1;
        outer:
        for (String name : path) {
            for (int n = 0; n < p.size(); n++) {
                if (p.parent(n) == parent && r.regions().region(p.region(n)).name().equals(name)) {
                    parent = n;
                    continue outer;
                }
            }
            throw new AssertionError("no call path " + String.join("/", path));
        }
        return parent;
    }

    @Test
    void inclusiveTimeAndVisitsFollowTheCallStack() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).enter(0, "main").compute("foo", 10, 30).compute("foo", 40, 45).enter(50, "bar")
                .compute("foo", 60, 70).leave(80).leave(100);
        Replay r = replay(b);
        LocationProfile p = r.location(0).profile();
        assertEquals(100, p.inclusive(node(r, 0, "main")));
        assertEquals(25, p.inclusive(node(r, 0, "main", "foo")));
        assertEquals(2, p.visits(node(r, 0, "main", "foo")));
        assertEquals(10, p.inclusive(node(r, 0, "main", "bar", "foo")));
        long[] excl = p.exclusiveTimes();
        assertEquals(100 - 25 - 30, excl[node(r, 0, "main")]);
        assertEquals(20, excl[node(r, 0, "main", "bar")]);
    }

    @Test
    void releasedMessageRecordsKeepTheirCountsAndRefuseTheirRows() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 10, 12, 1, 7, 64).callSend("MPI_Send", 20, 22, 1, 7, 64).leave(50);
        b.rank(1).enter(0, "main").callRecv(5, 15, 0, 7, 64).callRecv(16, 25, 0, 7, 64).leave(50);
        Replay r = replay(b);
        r.location(0).releaseMessageRecords();
        r.location(1).releaseMessageRecords();
        assertEquals(2, r.location(0).sends().size());
        assertEquals(2, r.location(1).receives().size());
        assertThrows(NullPointerException.class, () -> r.location(0).sends().enter(1));
        assertThrows(NullPointerException.class, () -> r.location(1).receives().enter(0));
    }

    @Test
    void isendCompletionIsTheWaitThatHoldsItsCompleteRecord() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callIsend(10, 12, 1, 7, 64, 99L)
                .enter(30, "MPI_Wait").request(35, EventKind.MPI_ISEND_COMPLETE, 99L).leave(40).leave(50);
        b.rank(1).enter(0, "main").callRecv(5, 45, 0, 7, 64).leave(50);
        Replay r = replay(b);
        SendTable s = r.location(0).sends();
        assertEquals(1, s.size());
        assertEquals(10, s.enter(0));
        assertEquals(SendTable.CMP_WAIT_SINGLE, s.completion(0));
        assertEquals(30, s.cmpEnter(0));
        assertEquals(40, s.cmpLeave(0));
        assertEquals(node(r, 0, "main", "MPI_Wait"), s.cmpCallPath(0));
    }

    @Test
    void irecvRequestEnterIsThePostingCall() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 20, 21, 1, 3, 8).leave(50);
        b.rank(1).enter(0, "main").callIrecv(5, 6, 11L)
                .enter(10, "MPI_Waitall").irecv(30, TraceBuilder.WORLD, 0, 3, 8, 11L).leave(31).leave(50);
        Replay r = replay(b);
        RecvTable rt = r.location(1).receives();
        assertEquals(5, rt.reqEnter(0));
        assertEquals(10, rt.enter(0));
        assertEquals(31, rt.leave(0));
        assertEquals(RecvTable.CALL_WAIT_MULTI, rt.kind(0));
    }

    @Test
    void bufferFlushBecomesAVisitOfTheFlushRegion() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).enter(0, "main").raw(10, EventKind.BUFFER_FLUSH_CODE, 0, 0, 0, 0, 25).leave(40);
        Replay r = replay(b);
        int flush = node(r, 0, "main", RegionTable.FLUSH_REGION);
        assertEquals(15, r.location(0).profile().inclusive(flush));
        assertEquals(1, r.location(0).profile().visits(flush));
    }

    @Test
    void measurementOffIsAVisitOfMeasurementOff() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).enter(0, "main").raw(10, EventKind.MEASUREMENT_ON_OFF_CODE, 2, 0, 0, 0, 0)
                .raw(18, EventKind.MEASUREMENT_ON_OFF_CODE, 1, 0, 0, 0, 0).leave(40);
        Replay r = replay(b);
        assertEquals(8, r.location(0).profile().inclusive(node(r, 0, "main", RegionTable.PAUSE_REGION)));
    }

    @Test
    void programBeginAndEndEnterTheProgramRegion() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).raw(0, EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0).enter(5, "main").leave(95)
                .raw(100, EventKind.PROGRAM_END_CODE, 0, 0, 0, 0, 0);
        Replay r = replay(b);
        String program = r.regions().region(r.regions().programRegion()).name();
        assertEquals(100, r.location(0).profile().inclusive(node(r, 0, program)));
        assertEquals(90, r.location(0).profile().inclusive(node(r, 0, program, "main")));
    }

    @Test
    void unbalancedStreamsAreRepairedAndCounted() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).enter(0, "main").enter(10, "foo");
        b.rank(0).raw(20, EventKind.LEAVE_CODE, b.region("main"), 0, 0, 0, 0)
                .raw(30, EventKind.LEAVE_CODE, b.region("main"), 0, 0, 0, 0)
                .raw(40, EventKind.LEAVE_CODE, b.region("main"), 0, 0, 0, 0);
        Replay r = replay(b);
        assertEquals(1, r.location(0).anomalies(Anomaly.LEAVE_REGION_MISMATCH));
        assertEquals(1, r.location(0).anomalies(Anomaly.LEAVE_WITHOUT_ENTER));
        assertEquals(10, r.location(0).profile().inclusive(node(r, 0, "main", "foo")));
    }

    @Test
    void unclosedRegionsAreClosedAtTheLastTimestamp() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).enter(0, "main").compute("foo", 10, 60);
        Replay r = replay(b);
        assertEquals(1, r.location(0).anomalies(Anomaly.UNCLOSED_REGION));
        assertEquals(60, r.location(0).profile().inclusive(node(r, 0, "main")));
    }

    @Test
    void cancelledSendIsNotShipped() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callIsend(10, 11, 1, 0, 8, 5L)
                .enter(20, "MPI_Cancel").request(21, EventKind.MPI_REQUEST_CANCELLED, 5L).leave(22).leave(30);
        b.rank(1).enter(0, "main").leave(30);
        Replay r = replay(b);
        assertTrue(r.location(0).sends().cancelled(0));
        assertEquals(0, r.messages().unmatchedSends());
    }
}
