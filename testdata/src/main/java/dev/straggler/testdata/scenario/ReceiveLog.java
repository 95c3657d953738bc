package dev.straggler.testdata.scenario;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * Late Sender and Late Sender / Wrong Order at one rank, fed with the rank's receives in the order they are
 * recorded (SCA26 {@code MPI.pattern}): every Late Sender instance enters a buffer of the 100 most recent
 * instances; every later receive whose message was sent (send record timestamp) before a buffered instance's
 * message turns that instance into Wrong Order time, at the buffered receive's call path, "same" or "different"
 * by comparing the two receives' sources, and removes it. In a multi-wait (MPI_Waitall) only the largest wait
 * counts, once, at the multi-wait's call path, and it enters the buffer when the call is left.
 */
public final class ReceiveLog {
    private static final int BUFFER = 100;

    private record Instance(long sendTime, List<String> callpath, int source, long idle) {
    }

    private final ExpectedBuilder e;
    private final int rank;
    private final ArrayDeque<Instance> buffer = new ArrayDeque<>();

    ReceiveLog(ExpectedBuilder e, int rank) {
        this.e = e;
        this.rank = rank;
    }

    /**
     * A receive completed in MPI_Recv, MPI_Sendrecv or a single MPI_Wait.
     *
     * @param source   global rank of the sender
     * @param sendTime recorded timestamp of the send record
     * @param idle     its Late Sender value ({@link ScalascaRules#lateSender}), 0 when none
     */
    public void receive(List<String> callpath, int source, long sendTime, long idle) {
        if (idle > 0) {
            e.add(Metrics.LATE_SENDER, callpath, rank, idle);
            remember(new Instance(sendTime, callpath, source, idle));
        }
        wrongOrder(source, sendTime);
    }

    /** The receives completed by one multi-wait, in record order. */
    public void multiReceive(List<String> callpath, int[] source, long[] sendTime, long[] idle) {
        int max = -1;
        for (int k = 0; k < source.length; k++) {
            wrongOrder(source[k], sendTime[k]);
            if (idle[k] > 0 && (max < 0 || idle[k] > idle[max])) {
                max = k;
            }
        }
        if (max >= 0) {
            e.add(Metrics.LATE_SENDER, callpath, rank, idle[max]);
            remember(new Instance(sendTime[max], callpath, source[max], idle[max]));
        }
    }

    private void remember(Instance i) {
        if (buffer.size() == BUFFER) {
            buffer.pollFirst();
        }
        buffer.addLast(i);
    }

    private void wrongOrder(int source, long sendTime) {
        for (Iterator<Instance> it = buffer.iterator(); it.hasNext(); ) {
            Instance i = it.next();
            if (i.sendTime > sendTime) {
                e.add(Metrics.LATE_SENDER_WO, i.callpath, rank, i.idle);
                e.add(i.source == source ? Metrics.LSWO_SAME : Metrics.LSWO_DIFFERENT, i.callpath, rank, i.idle);
                it.remove();
            }
        }
    }
}
