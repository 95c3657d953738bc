package dev.straggler.trace;

import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceValidatorTest {
    private static final String HEADER = """
            straggler-text 1
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

    private static void assertSingleProblem(TraceValidator.Report r, int location, long index, String fragment) {
        assertEquals(1, r.problemCount(), r.problems().toString());
        TraceValidator.Problem p = r.problems().get(0);
        assertEquals(location, p.location());
        assertEquals(index, p.eventIndex());
        assertTrue(p.message().contains(fragment), p.message());
    }

    @Test
    void sampleTraceIsValid() throws Exception {
        assertTrue(TraceValidator.validate(TextTraceReader.read(SampleTraces.lateSenderText())).ok());
    }

    @Test
    void everyKindTraceIsValid() throws Exception {
        var r = TraceValidator.validate(SampleTraces.everyKind());
        assertTrue(r.ok(), r.problems().toString());
    }

    @Test
    void timeGoingBackwardsIsReportedAtTheEvent() throws Exception {
        assertSingleProblem(validate("0 10 ENTER main\n0 9 LEAVE main\n"), 0, 1, "time goes backwards");
    }

    @Test
    void leaveWithoutEnterIsReported() throws Exception {
        assertSingleProblem(validate("1 10 LEAVE main\n"), 1, 0, "without a matching ENTER");
    }

    @Test
    void crossedNestingIsReported() throws Exception {
        assertSingleProblem(validate("0 1 ENTER main\n0 2 ENTER MPI_Send\n0 3 LEAVE main\n"), 0, 2,
                "while 'MPI_Send' is the innermost open region");
    }

    @Test
    void regionLeftOpenIsReportedAtTheEnd() throws Exception {
        assertSingleProblem(validate("2 1 ENTER main\n"), 2, -1, "still open at the end");
    }

    @Test
    void peerOutsideCommunicatorIsReported() throws Exception {
        assertSingleProblem(validate("0 1 MPI_SEND to=2 comm=1 tag=0 bytes=1\n"), 0, 0, "outside communicator 1");
    }

    @Test
    void useOfCommunicatorByNonMemberIsReported() throws Exception {
        assertSingleProblem(validate("2 1 MPI_SEND to=0 comm=1 tag=0 bytes=1\n"), 2, 0, "not a member");
    }

    @Test
    void unpairedCollectiveRecordsAreReported() throws Exception {
        var r = validate("0 1 MPI_COLLECTIVE_END op=BARRIER comm=0\n1 1 MPI_COLLECTIVE_BEGIN\n");
        // the unpaired records, and the barrier that ranks 1 and 2 never join
        assertEquals(3, r.problemCount(), r.problems().toString());
        assertTrue(r.problems().get(0).message().contains("without MPI_COLLECTIVE_BEGIN"));
        assertTrue(r.problems().get(1).message().contains("is incomplete"));
        assertTrue(r.problems().get(2).message().contains("without MPI_COLLECTIVE_END"));
    }

    @Test
    void threadBeginNamingAnUndefinedContingentIsReported() throws Exception {
        assertSingleProblem(validate("2 1 THREAD_BEGIN comm=7 sequence=1\n"), 2, 0,
                "THREAD_BEGIN names undefined communicator 7");
        assertTrue(validate("2 1 THREAD_BEGIN sequence=1\n2 2 THREAD_BEGIN comm=1 sequence=2\n").ok());
    }

    @Test
    void undefinedRegionIdInABuiltTraceIsReported() throws Exception {
        TraceDefinitions.Builder b = TraceDefinitions.builder();
        b.addRegion("f", "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
        b.location(Location.masterThread(0, 0));
        MemoryTrace t = new MemoryTrace("built");
        EventBatch e = new EventBatch();
        e.enter(1, 5);
        e.leave(2, 5);
        t.append(0, e);
        t.finish(b.build());
        var r = TraceValidator.validate(t);
        assertEquals(2, r.problemCount());
        assertTrue(r.problems().get(0).message().contains("undefined region 5"));
    }

    @Test
    void listedProblemsAreCappedButCountedExactly() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            sb.append("0 ").append(100 - i).append(" ENTER main\n0 ").append(100 - i).append(" LEAVE main\n");
        }
        var r = TraceValidator.validate(TextTraceReader.read(new StringReader(HEADER + sb), "t"), 5);
        assertEquals(5, r.problems().size());
        assertEquals(49, r.problemCount());
    }
}
