package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.RecvTable;

/**
 * Late Sender ({@code mpi_latesender}, reference §1.3): a receive waits because the matching send was posted
 * later. For the receive call R (MPI_Recv, or the MPI_Wait* completing an MPI_Irecv) and the send call S,
 * {@code wait = min(Enter(S), Leave(R)) − Enter(R)} when positive: the send's Enter is clipped to the receive's
 * Leave so that a clock violation cannot make the wait exceed the receive call. Not evaluated when R is an
 * MPI_Test*. In MPI_Waitall/MPI_Waitsome only the largest wait of the call counts, once, on the call's path.
 * Attributed to the receiving location at R's call path.
 */
public final class LateSender {
    public static final int METRIC = MetricTree.MPI_LATESENDER;

    private LateSender() {
    }

    /** Waiting time in ticks; ≤ 0 means the receive did not wait. */
    public static long waitingTime(long sendEnter, long recvEnter, long recvLeave) {
        return Math.min(sendEnter, recvLeave) - recvEnter;
    }

    /** False for receives completed in MPI_Test*, which never wait for a sender. */
    public static boolean applies(byte receiveCallKind) {
        return receiveCallKind != RecvTable.CALL_TEST;
    }
}
