package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.SendTable;

/**
 * Late Receiver ({@code mpi_latereceiver}, reference §1.3): a send waits because the receive was posted later.
 * With C the call completing the send (MPI_Send/MPI_Ssend itself, or the MPI_Wait* holding the Isend's
 * completion) and Q the receive's request call (MPI_Recv, or the MPI_Irecv that posted it):
 * {@code wait = 0} when {@code Leave(C) <= Enter(Q)} (the send finished before the receive was posted, e.g. an
 * eager send), else {@code Enter(Q) − Enter(C)}, counted when positive. Only sends completed in MPI_Send,
 * MPI_Ssend, MPI_Wait, MPI_Waitany, MPI_Waitall or MPI_Waitsome are eligible; in a multi-wait only the largest
 * wait counts, once, and not at all when the same call already waited for a late sender. Attributed to the
 * sending location at C's call path.
 */
public final class LateReceiver {
    public static final int METRIC = MetricTree.MPI_LATERECEIVER;

    private LateReceiver() {
    }

    /** Waiting time in ticks; ≤ 0 means no wait. */
    public static long waitingTime(long completionEnter, long completionLeave, long requestEnter) {
        return completionLeave <= requestEnter ? 0 : requestEnter - completionEnter;
    }

    /** Whether the completing call can be a Late Receiver on its own (not a multi-wait). */
    public static boolean appliesSingly(byte completion) {
        return completion == SendTable.CMP_BLOCKING_SEND || completion == SendTable.CMP_WAIT_SINGLE;
    }
}
