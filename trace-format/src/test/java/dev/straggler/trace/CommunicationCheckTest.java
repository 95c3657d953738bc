package dev.straggler.trace;

import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code validate} checks across locations: message matching, collective instances, clock condition. */
class CommunicationCheckTest {
    private static final String HEADER = """
            straggler-text 1
            clock resolution=1000000000 offset=0 length=1000
            region 0 main
            region 1 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            location 0 rank=0
            location 1 rank=1
            location 2 rank=2
            comm 0 MPI_COMM_WORLD members=0,1,2
            comm 1 pair members=0,1
            """;

    private static TraceValidator.Report validate(String events) throws Exception {
        return TraceValidator.validate(TextTraceReader.read(new StringReader(HEADER + events), "t"));
    }

    private static TraceValidator.Problem only(TraceValidator.Report r) {
        assertEquals(1, r.problemCount() + r.warningCount(), r.problems().toString());
        return r.problems().get(0);
    }

    @Test
    void matchedMessageIsValid() throws Exception {
        var r = validate("0 10 MPI_SEND to=1 comm=0 tag=5 bytes=64\n1 20 MPI_RECV from=0 comm=0 tag=5 bytes=64\n");
        assertTrue(r.ok());
        assertEquals(0, r.warningCount(), r.problems().toString());
    }

    @Test
    void sendNeverReceivedIsAProblemAtTheSend() throws Exception {
        var p = only(validate("0 10 MPI_SEND to=1 comm=0 tag=5 bytes=64\n"));
        assertFalse(p.warning());
        assertEquals(0, p.location());
        assertEquals(0, p.eventIndex());
        assertTrue(p.message().contains("send to rank 1 (communicator 0, tag 5, 64 bytes) is never received"),
                p.message());
    }

    @Test
    void receiveWithoutSendIsAProblemAtTheReceive() throws Exception {
        var p = only(validate("2 10 MPI_RECV from=0 comm=0 tag=5 bytes=64\n"));
        assertEquals(2, p.location());
        assertTrue(p.message().contains("receive from rank 0 (communicator 0, tag 5) has no matching send"),
                p.message());
    }

    @Test
    void tagMismatchIsNamed() throws Exception {
        var r = validate("0 10 MPI_SEND to=1 comm=0 tag=5 bytes=64\n1 20 MPI_RECV from=0 comm=0 tag=6 bytes=64\n");
        assertEquals(2, r.problemCount(), r.problems().toString());
        assertTrue(r.problems().get(0).message().contains("with tag 6 (tag mismatch?)"), r.problems().toString());
        assertTrue(r.problems().get(1).message().contains("with tag 5 (tag mismatch?)"), r.problems().toString());
    }

    @Test
    void messagesOnAnotherCommunicatorDoNotMatch() throws Exception {
        var r = validate("0 10 MPI_SEND to=1 comm=1 tag=5 bytes=64\n1 20 MPI_RECV from=0 comm=0 tag=5 bytes=64\n");
        assertEquals(2, r.problemCount(), r.problems().toString());
    }

    @Test
    void lengthsOfAMatchedPairMustAgree() throws Exception {
        var p = only(validate("0 10 MPI_SEND to=1 comm=0 tag=5 bytes=64\n1 20 MPI_RECV from=0 comm=0 tag=5 bytes=32\n"));
        assertEquals(1, p.location());
        assertTrue(p.message().contains("receive of 32 bytes matches a send of 64 bytes"), p.message());
    }

    @Test
    void receiveBeforeItsSendIsAClockWarning() throws Exception {
        var r = validate("0 30 MPI_SEND to=1 comm=0 tag=5 bytes=64\n1 20 MPI_RECV from=0 comm=0 tag=5 bytes=64\n");
        assertTrue(r.ok());
        assertEquals(1, r.warningCount());
        assertEquals(1, r.p2pClockViolations());
        assertTrue(r.problems().get(0).warning());
        assertTrue(r.problems().get(0).toString().startsWith("warning: location 1 (rank 1), event 0"));
    }

    private static String barrier(int loc, long begin, long end) {
        return loc + " " + begin + " MPI_COLLECTIVE_BEGIN\n" + loc + " " + end + " MPI_COLLECTIVE_END op=BARRIER comm=0\n";
    }

    @Test
    void completeCollectiveIsValid() throws Exception {
        var r = validate(barrier(0, 1, 5) + barrier(1, 2, 5) + barrier(2, 3, 6));
        assertTrue(r.ok(), r.problems().toString());
        assertEquals(0, r.warningCount());
    }

    @Test
    void memberMissingFromACollectiveIsNamed() throws Exception {
        var p = only(validate(barrier(0, 1, 5) + barrier(1, 2, 5)));
        assertTrue(p.message().contains("collective #1 on communicator 0 (MPI_COMM_WORLD, size 3) is incomplete: "
                + "rank 2 joins 0 collective operation(s) on it"), p.message());
    }

    @Test
    void differentOperationOrRootIsAProblemAtTheOddMember() throws Exception {
        var r = validate("0 1 MPI_COLLECTIVE_BEGIN\n0 5 MPI_COLLECTIVE_END op=BCAST comm=1 root=0 sent=8 received=8\n"
                + "1 1 MPI_COLLECTIVE_BEGIN\n1 5 MPI_COLLECTIVE_END op=BCAST comm=1 root=1 sent=8 received=8\n");
        var p = only(r);
        assertEquals(1, p.location());
        assertTrue(p.message().contains("is BCAST (root 1) here but BCAST (root 0) on rank 0"), p.message());
    }

    @Test
    void leavingABarrierBeforeTheLastMemberEntersIsAClockWarning() throws Exception {
        var r = validate(barrier(0, 1, 2) + barrier(1, 3, 5) + barrier(2, 3, 6));
        assertTrue(r.ok());
        assertEquals(1, r.collectiveClockViolations());
        // the text format's clock: nanoseconds from 0
        assertTrue(r.problems().get(0).message().contains("a member leaves at 0.000000002 s (t=2), 0.000000001 s "
                + "before the last member enters at 0.000000003 s (t=3)"), r.problems().toString());
    }

    @Test
    void negativeAndAbsurdSizesAreProblems() throws Exception {
        var r = validate("0 10 MPI_SEND to=1 comm=0 tag=5 bytes=-8192\n1 20 MPI_RECV from=0 comm=0 tag=5 bytes=-8192\n");
        assertEquals(2, r.problemCount(), r.problems().toString());
        assertTrue(r.problems().get(0).message().contains("MPI_SEND message length is negative: -8192"));
        var a = validate("0 10 MPI_SEND to=1 comm=0 tag=5 bytes=4000000000000\n"
                + "1 20 MPI_RECV from=0 comm=0 tag=5 bytes=4000000000000\n");
        assertEquals(2, a.problemCount(), a.problems().toString());
        assertTrue(a.problems().get(0).message().contains("is absurd: 4000000000000 bytes"));
    }

    @Test
    void timestampOutsideTheDeclaredClockRangeIsAProblem() throws Exception {
        var p = only(validate("0 10 ENTER main\n0 5000000 LEAVE main\n"));
        assertEquals(1, p.eventIndex());
        assertTrue(p.message().contains("outside the trace's clock range, from its start to 0.000001000 s (t=0 to "
                + "t=1000)"), p.message());
        assertTrue(p.toString().contains("event 1 at 0.005000000 s (t=5000000): "), p.toString());
    }

    @Test
    void eventCountOtherThanDeclaredIsAProblem() throws Exception {
        TraceDefinitions.Builder b = TraceDefinitions.builder();
        b.addRegion("f", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        b.location(Location.masterThread(0, 0));
        MemoryTrace t = new MemoryTrace("built");
        EventBatch e = new EventBatch();
        e.enter(1, 0);
        e.leave(2, 0);
        t.append(0, e);
        t.finish(b.build());
        // a source that declares 3 events for the location but delivers 2
        TraceDefinitions declared = t.definitions().withLocations(
                java.util.List.of(t.definitions().location(0).withEvents(3)));
        TraceSource s = new TraceSource() {
            public TraceDefinitions definitions() {
                return declared;
            }

            public String origin() {
                return "built";
            }

            public LocationReader openLocation(int location) {
                return t.openLocation(location);
            }

            public void close() {
            }
        };
        var p = only(TraceValidator.validate(s));
        assertTrue(p.message().contains("2 events read, 3 declared for this location"), p.message());
    }
}
