package dev.straggler.replay;

import dev.straggler.trace.CollectiveOp;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MatchingTest {

    private static Replay replay(TraceBuilder b, int threads) throws IOException {
        return Replay.run(b.build(), ReplayOptions.defaults().withThreads(threads));
    }

    @Test
    void messagesOfOneEnvelopeMatchInOrderAndTagsMatchSeparately() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        // sends: tag 1 (len 10), tag 2 (len 20), tag 1 (len 11); receives: tag 2, tag 1, tag 1
        b.rank(0).enter(0, "main").callSend("MPI_Send", 1, 2, 1, 1, 10).callSend("MPI_Send", 3, 4, 1, 2, 20)
                .callSend("MPI_Send", 5, 6, 1, 1, 11).leave(100);
        b.rank(1).enter(0, "main").callRecv(10, 11, 0, 2, 20).callRecv(12, 13, 0, 1, 10)
                .callRecv(14, 15, 0, 1, 11).leave(100);
        Replay r = replay(b, 1);
        MessageMatching.ReceiveCursor c = r.messages().receiveCursor(1);
        SendTable s = r.location(0).sends();
        long[] expected = {20, 10, 11};
        for (int i = 0; i < 3; i++) {
            int j = c.partner(i);
            assertEquals(0, c.partnerLocation());
            assertEquals(expected[i], s.bytes(j));
        }
        assertEquals(3, r.messages().matchedMessages());
    }

    @Test
    void peersOfSubCommunicatorsResolveToGlobalRanks() throws IOException {
        TraceBuilder b = new TraceBuilder(4);
        int odd = b.comm("odd", 3, 1);   // comm rank 0 = global 3, comm rank 1 = global 1
        b.rank(3).enter(0, "main").enter(1, "MPI_Send").send(1, odd, 1, 0, 42).leave(2).leave(10);
        b.rank(1).enter(0, "main").enter(1, "MPI_Recv").recv(5, odd, 0, 0, 42).leave(5).leave(10);
        b.rank(0).enter(0, "main").leave(10);
        b.rank(2).enter(0, "main").leave(10);
        Replay r = replay(b, 2);
        MessageMatching.ReceiveCursor c = r.messages().receiveCursor(1);
        assertEquals(0, c.partner(0));
        assertEquals(3, c.partnerLocation());
        assertEquals(0, r.messages().unmatchedReceives());
    }

    @Test
    void unmatchedCommunicationIsCounted() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 1, 2, 1, 1, 10).callSend("MPI_Send", 3, 4, 1, 1, 10).leave(10);
        b.rank(1).enter(0, "main").callRecv(5, 6, 0, 1, 10).callRecv(7, 8, 0, 9, 10).leave(10);
        Replay r = replay(b, 1);
        assertEquals(1, r.messages().unmatchedSends());
        assertEquals(1, r.messages().unmatchedReceives());
    }

    @Test
    void collectivesFormInstancesPerCommunicatorInCallOrder() throws IOException {
        TraceBuilder b = new TraceBuilder(3);
        int pair = b.comm("pair", 2, 0);
        b.rank(0).enter(0, "main").callCollective("MPI_Barrier", 1, 2, CollectiveOp.BARRIER, TraceBuilder.WORLD, -1, 0, 0)
                .callCollective("MPI_Allreduce", 3, 4, CollectiveOp.ALLREDUCE, pair, -1, 8, 8).leave(10);
        b.rank(1).enter(0, "main").callCollective("MPI_Barrier", 1, 2, CollectiveOp.BARRIER, TraceBuilder.WORLD, -1, 0, 0)
                .leave(10);
        b.rank(2).enter(0, "main").callCollective("MPI_Allreduce", 1, 2, CollectiveOp.ALLREDUCE, pair, -1, 8, 8)
                .callCollective("MPI_Barrier", 3, 4, CollectiveOp.BARRIER, TraceBuilder.WORLD, -1, 0, 0).leave(10);
        Replay r = replay(b, 2);
        CollectiveMatching cm = r.collectives();
        assertEquals(1, cm.instances(TraceBuilder.WORLD));
        assertEquals(1, cm.instances(pair));
        assertEquals(2, cm.memberLocation(pair, 0));
        assertEquals(0, cm.memberLocation(pair, 1));
        assertEquals(1, cm.record(pair, 0, 1));   // rank 0's second collective
        assertEquals(0, cm.record(pair, 0, 0));   // rank 2's first collective
        assertEquals(0, cm.unmatchedRecords());
    }
}
