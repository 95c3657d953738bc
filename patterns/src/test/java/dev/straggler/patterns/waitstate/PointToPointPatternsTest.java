package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.Severities;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.replay.TraceBuilder;
import dev.straggler.trace.EventKind;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static dev.straggler.replay.TraceBuilder.WORLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Point-to-point patterns on hand-built traces; expected values are derived by hand from reference §1.3
 * (nanosecond ticks).
 */
class PointToPointPatternsTest {

    @Test
    void lateSenderWaitsFromReceiveEnterToSendEnter() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").compute("work", 1, 100).callSend("MPI_Send", 100, 110, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callRecv(20, 120, 0, 0, 8).leave(200);
        Severities s = Severities.analyse(b);
        assertEquals(80, s.ns("mpi_latesender", 1, "main", "MPI_Recv"));
        assertEquals(80, s.totalNs("mpi_latesender"));
        assertEquals(0, s.totalNs("mpi_latereceiver"));
        assertEquals(1, s.at("mpi_cls_count", 1, "main", "MPI_Recv"));
    }

    @Test
    void lateSenderIsClippedToTheReceiveCallAndTheViolationCounted() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 60, 70, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callRecv(20, 50, 0, 0, 8).leave(200);
        Severities s = Severities.analyse(b);
        // min(Enter(send)=60, Leave(recv)=50) − Enter(recv)=20
        assertEquals(30, s.ns("mpi_latesender", 1, "main", "MPI_Recv"));
        assertEquals(1, s.result.violations().count(ViolationKind.RECEIVE_BEFORE_SEND));
        assertEquals(1, s.result.violations().pointToPoint());
    }

    @Test
    void receivesCompletedByTestNeverWaitForALateSender() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 100, 110, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callIrecv(5, 6, 1L)
                .enter(10, "MPI_Test").request(11, EventKind.MPI_REQUEST_TEST, 1L).leave(12)
                .enter(150, "MPI_Test").irecv(151, WORLD, 0, 0, 8, 1L).leave(152).leave(200);
        Severities s = Severities.analyse(b);
        assertEquals(0, s.totalNs("mpi_latesender"));
        assertEquals(1, s.at("comms_recv", 1, "main", "MPI_Test"));
    }

    @Test
    void waitallCountsOnlyItsLargestLateSender() throws IOException {
        TraceBuilder b = new TraceBuilder(3);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 40, 41, 1, 1, 8).leave(300);
        b.rank(2).enter(0, "main").callSend("MPI_Send", 60, 61, 1, 1, 8).leave(300);
        b.rank(1).enter(0, "main").callIrecv(1, 2, 1L).callIrecv(3, 4, 2L)
                .enter(10, "MPI_Waitall").irecv(150, WORLD, 0, 1, 8, 1L).irecv(199, WORLD, 2, 1, 8, 2L).leave(200)
                .leave(300);
        Severities s = Severities.analyse(b);
        // waits 40−10=30 and 60−10=50: only the maximum counts
        assertEquals(50, s.ns("mpi_latesender", 1, "main", "MPI_Waitall"));
        assertEquals(1, s.at("mpi_cls_count", 1, "main", "MPI_Waitall"));
        assertEquals(1, s.result.instanceCounts().get("mpi_latesender"));
    }

    @Test
    void messagesReceivedInWrongOrderFromDifferentSources() throws IOException {
        TraceBuilder b = new TraceBuilder(3);
        b.rank(1).enter(0, "main").callSend("MPI_Send", 10, 11, 0, 0, 8).leave(200);
        b.rank(2).enter(0, "main").callSend("MPI_Send", 100, 101, 0, 0, 8).leave(200);
        b.rank(0).enter(0, "main").callRecv(5, 105, 2, 0, 8).callRecv(106, 110, 1, 0, 8).leave(200);
        Severities s = Severities.analyse(b);
        assertEquals(95, s.ns("mpi_latesender", 0, "main", "MPI_Recv"));
        assertEquals(95, s.ns("mpi_latesender_wo", 0, "main", "MPI_Recv"));
        assertEquals(95, s.ns("mpi_lswo_different", 0, "main", "MPI_Recv"));
        assertEquals(0, s.totalNs("mpi_lswo_same"));
        assertEquals(1, s.at("mpi_clswo_count", 0, "main", "MPI_Recv"));
    }

    @Test
    void messagesReceivedInSendOrderAreNoWrongOrder() throws IOException {
        TraceBuilder b = new TraceBuilder(3);
        b.rank(1).enter(0, "main").callSend("MPI_Send", 10, 11, 0, 0, 8).leave(200);
        b.rank(2).enter(0, "main").callSend("MPI_Send", 100, 101, 0, 0, 8).leave(200);
        b.rank(0).enter(0, "main").callRecv(5, 15, 1, 0, 8).callRecv(16, 105, 2, 0, 8).leave(200);
        Severities s = Severities.analyse(b);
        assertEquals(5 + 84, s.ns("mpi_latesender", 0, "main", "MPI_Recv"));
        assertEquals(0, s.totalNs("mpi_latesender_wo"));
    }

    @Test
    void messagesReceivedInWrongOrderFromTheSameSource() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(1).enter(0, "main").callSend("MPI_Send", 10, 11, 0, 1, 8).callSend("MPI_Send", 100, 101, 0, 2, 8)
                .leave(200);
        b.rank(0).enter(0, "main").callRecv(5, 105, 1, 2, 8).callRecv(106, 110, 1, 1, 8).leave(200);
        Severities s = Severities.analyse(b);
        assertEquals(95, s.ns("mpi_lswo_same", 0, "main", "MPI_Recv"));
        assertEquals(0, s.totalNs("mpi_lswo_different"));
    }

    @Test
    void synchronousSendWaitsForALateReceiver() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Ssend", 10, 110, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callRecv(100, 110, 0, 0, 8).leave(200);
        Severities s = Severities.analyse(b);
        assertEquals(90, s.ns("mpi_latereceiver", 0, "main", "MPI_Ssend"));
        assertEquals(1, s.at("mpi_clr_count", 0, "main", "MPI_Ssend"));
        assertEquals(0, s.totalNs("mpi_latesender"));
    }

    @Test
    void sendThatReturnsBeforeTheReceiveIsPostedHasNoLateReceiver() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 10, 20, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callRecv(100, 110, 0, 0, 8).leave(200);
        assertEquals(0, Severities.analyse(b).totalNs("mpi_latereceiver"));
    }

    @Test
    void bufferedSendIsNotEligibleForLateReceiver() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Bsend", 10, 110, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callRecv(100, 110, 0, 0, 8).leave(200);
        assertEquals(0, Severities.analyse(b).totalNs("mpi_latereceiver"));
    }

    @Test
    void isendWaitsForItsLateReceiverInTheCompletingWait() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callIsend(10, 11, 1, 0, 8, 4L)
                .enter(20, "MPI_Wait").request(119, EventKind.MPI_ISEND_COMPLETE, 4L).leave(120).leave(200);
        b.rank(1).enter(0, "main").callIrecv(70, 71, 9L)
                .enter(80, "MPI_Wait").irecv(99, WORLD, 0, 0, 8, 9L).leave(100).leave(200);
        Severities s = Severities.analyse(b);
        // Enter(MPI_Irecv)=70 − Enter(MPI_Wait on the sender)=20
        assertEquals(50, s.ns("mpi_latereceiver", 0, "main", "MPI_Wait"));
    }

    @Test
    void waitallCountsOnlyItsLargestLateReceiver() throws IOException {
        TraceBuilder b = new TraceBuilder(3);
        b.rank(0).enter(0, "main").callIsend(10, 11, 1, 1, 8, 1L).callIsend(12, 13, 2, 1, 8, 2L)
                .enter(20, "MPI_Waitall").request(198, EventKind.MPI_ISEND_COMPLETE, 1L)
                .request(199, EventKind.MPI_ISEND_COMPLETE, 2L).leave(200).leave(300);
        b.rank(1).enter(0, "main").callIrecv(50, 51, 5L)
                .enter(52, "MPI_Wait").irecv(99, WORLD, 0, 1, 8, 5L).leave(100).leave(300);
        b.rank(2).enter(0, "main").callRecv(80, 90, 0, 1, 8).leave(300);
        Severities s = Severities.analyse(b);
        // waits 50−20=30 and 80−20=60: only the maximum counts
        assertEquals(60, s.ns("mpi_latereceiver", 0, "main", "MPI_Waitall"));
        assertEquals(1, s.at("mpi_clr_count", 0, "main", "MPI_Waitall"));
    }

    @Test
    void multiWaitThatWaitedForALateSenderHasNoLateReceiver() throws IOException {
        TraceBuilder b = new TraceBuilder(3);
        b.rank(0).enter(0, "main").callIsend(10, 11, 1, 1, 8, 1L).callIrecv(12, 13, 2L)
                .enter(20, "MPI_Waitall").request(150, EventKind.MPI_ISEND_COMPLETE, 1L)
                .irecv(199, WORLD, 2, 2, 8, 2L).leave(200).leave(300);
        b.rank(1).enter(0, "main").callRecv(80, 90, 0, 1, 8).leave(300);
        b.rank(2).enter(0, "main").callSend("MPI_Send", 100, 101, 0, 2, 8).leave(300);
        Severities s = Severities.analyse(b);
        assertEquals(80, s.ns("mpi_latesender", 0, "main", "MPI_Waitall"));
        assertEquals(0, s.totalNs("mpi_latereceiver"));
    }

    @Test
    void cancelledSendTakesNoPartInMatching() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callIsend(10, 11, 1, 1, 99, 1L)
                .enter(12, "MPI_Cancel").request(12, EventKind.MPI_REQUEST_CANCELLED, 1L).leave(13)
                .callSend("MPI_Send", 50, 51, 1, 1, 16).leave(200);
        b.rank(1).enter(0, "main").callRecv(20, 60, 0, 1, 16).leave(200);
        Severities s = Severities.analyse(b);
        assertEquals(30, s.ns("mpi_latesender", 1, "main", "MPI_Recv"));
        assertEquals(16, s.at("bytes_rcvd", 1, "main", "MPI_Recv"));
        assertEquals(0, s.result.summary().unmatchedSends());
    }

    @Test
    void messagesAreCountedAsSynchronizationsOrCommunicationsByTheirLength() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").callSend("MPI_Send", 1, 2, 1, 0, 0).callSend("MPI_Send", 3, 4, 1, 0, 8).leave(100);
        b.rank(1).enter(0, "main").callRecv(10, 11, 0, 0, 0).callRecv(12, 13, 0, 0, 8).leave(100);
        Severities s = Severities.analyse(b);
        assertEquals(1, s.at("syncs_send", 0, "main", "MPI_Send"));
        assertEquals(1, s.at("comms_send", 0, "main", "MPI_Send"));
        assertEquals(1, s.at("syncs_recv", 1, "main", "MPI_Recv"));
        assertEquals(1, s.at("comms_recv", 1, "main", "MPI_Recv"));
        assertEquals(8, s.at("bytes_sent", 0, "main", "MPI_Send"));
        assertEquals(8, s.at("bytes_rcvd", 1, "main", "MPI_Recv"));
        assertEquals(2, s.total("syncs"));
        assertEquals(2, s.total("comms"));
        assertEquals(16, s.total("bytes"));
    }

    @Test
    void unmatchedReceiveIsSkippedAndReported() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").leave(100);
        b.rank(1).enter(0, "main").callRecv(10, 11, 0, 0, 8).leave(100);
        Severities s = Severities.analyse(b);
        assertEquals(1, s.result.summary().unmatchedReceives());
        assertEquals(1, s.result.warnings().stream().filter(w -> w.contains("receive(s) without")).count());
    }
}
