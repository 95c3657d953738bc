package dev.straggler.replay;

import java.util.Arrays;

/**
 * The MPI collective operations of one location, one row per MpiCollectiveEnd record in stream order (57 bytes a
 * row). {@code begin} is the preceding MpiCollectiveBegin: PEARL uses Begin/End, not Enter/Leave, as a collective's
 * local begin and end (reference §1.1).
 *
 * <p>Filled by one thread during the location's pass, read-only afterwards.
 */
public final class CollectiveTable {
    public long[] begin;
    public long[] end;
    public long[] sent;
    public long[] received;
    public int[] comm;
    /** Root as a rank within {@link #comm}, -1 for none. */
    public int[] root;
    /** Local call path of the collective call. */
    public int[] callPath;
    /** {@link dev.straggler.trace.CollectiveOp} code. */
    public byte[] op;
    public int size;

    public CollectiveTable() {
        this(16);
    }

    public CollectiveTable(int capacity) {
        begin = new long[capacity];
        end = new long[capacity];
        sent = new long[capacity];
        received = new long[capacity];
        comm = new int[capacity];
        root = new int[capacity];
        callPath = new int[capacity];
        op = new byte[capacity];
    }

    public int add(long b, long e, int opCode, int communicator, int rootRank, long bytesSent, long bytesReceived,
                   int path) {
        if (size == begin.length) {
            grow();
        }
        int i = size++;
        begin[i] = b;
        end[i] = e;
        sent[i] = bytesSent;
        received[i] = bytesReceived;
        comm[i] = communicator;
        root[i] = rootRank;
        callPath[i] = path;
        op[i] = (byte) opCode;
        return i;
    }

    private void grow() {
        int cap = Math.max(16, begin.length * 2);
        begin = Arrays.copyOf(begin, cap);
        end = Arrays.copyOf(end, cap);
        sent = Arrays.copyOf(sent, cap);
        received = Arrays.copyOf(received, cap);
        comm = Arrays.copyOf(comm, cap);
        root = Arrays.copyOf(root, cap);
        callPath = Arrays.copyOf(callPath, cap);
        op = Arrays.copyOf(op, cap);
    }

    public void trim() {
        begin = Arrays.copyOf(begin, size);
        end = Arrays.copyOf(end, size);
        sent = Arrays.copyOf(sent, size);
        received = Arrays.copyOf(received, size);
        comm = Arrays.copyOf(comm, size);
        root = Arrays.copyOf(root, size);
        callPath = Arrays.copyOf(callPath, size);
        op = Arrays.copyOf(op, size);
    }

    public static int bytesPerRow() {
        return 4 * 8 + 3 * 4 + 1;
    }
}
