package dev.straggler.patterns.waitstate;

/**
 * Late Sender, Wrong Order ({@code mpi_latesender_wo}, split into {@code mpi_lswo_different} and
 * {@code mpi_lswo_same}, reference §1.3): a Late Sender whose receive waited although a message sent before the
 * awaited one was already available, because that older message is received later. Each location remembers its
 * {@value #BUFFER_SIZE} most recent Late Sender instances (oldest evicted); on every later receive, each
 * remembered instance whose send record is younger than the current receive's send record is reported once, with
 * its own waiting time, at its own call path, and forgotten. Same source when both receives name the same source
 * rank (ranks within their communicators, as PEARL compares them).
 *
 * <p>One instance per location, used by one thread.
 */
final class LateSenderWrongOrder {
    static final int BUFFER_SIZE = 100;

    /** Receives a wrong-order instance: the remembered Late Sender and whether its source is the current one's. */
    interface Sink {
        void wrongOrder(int recvIndex, int callPath, long wait, long bytes, boolean sameSource);
    }

    // FIFO of remembered Late Sender instances, oldest first.
    private final long[] sendTime = new long[BUFFER_SIZE];
    private final long[] wait = new long[BUFFER_SIZE];
    private final long[] bytes = new long[BUFFER_SIZE];
    private final int[] recv = new int[BUFFER_SIZE];
    private final int[] path = new int[BUFFER_SIZE];
    private final int[] source = new int[BUFFER_SIZE];
    private int size;
    /** Youngest remembered send record: when the current send is not older, nothing can be in wrong order. */
    private long youngest = Long.MIN_VALUE;

    /** Remembers a Late Sender instance, evicting the oldest when full. */
    void remember(long sendRecordTime, long lateSenderWait, long messageBytes, int recvIndex, int callPath,
                  int sourceRank) {
        if (size == BUFFER_SIZE) {
            remove(0);
        }
        sendTime[size] = sendRecordTime;
        wait[size] = lateSenderWait;
        bytes[size] = messageBytes;
        recv[size] = recvIndex;
        path[size] = callPath;
        source[size] = sourceRank;
        size++;
        youngest = Math.max(youngest, sendRecordTime);
    }

    /** Reports and forgets every remembered instance whose send is younger than the current receive's send. */
    void scan(long currentSendTime, int currentSource, Sink sink) {
        if (youngest <= currentSendTime) {
            return;
        }
        int i = 0;
        while (i < size) {
            if (sendTime[i] > currentSendTime) {
                sink.wrongOrder(recv[i], path[i], wait[i], bytes[i], source[i] == currentSource);
                remove(i);
            } else {
                i++;
            }
        }
    }

    private void remove(int i) {
        boolean wasYoungest = sendTime[i] == youngest;
        int tail = size - i - 1;
        System.arraycopy(sendTime, i + 1, sendTime, i, tail);
        System.arraycopy(wait, i + 1, wait, i, tail);
        System.arraycopy(bytes, i + 1, bytes, i, tail);
        System.arraycopy(recv, i + 1, recv, i, tail);
        System.arraycopy(path, i + 1, path, i, tail);
        System.arraycopy(source, i + 1, source, i, tail);
        size--;
        if (wasYoungest) {
            youngest = Long.MIN_VALUE;
            for (int k = 0; k < size; k++) {
                youngest = Math.max(youngest, sendTime[k]);
            }
        }
    }
}
