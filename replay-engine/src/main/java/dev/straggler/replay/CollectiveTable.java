package dev.straggler.replay;

/**
 * The MPI collective operations of one location, one row per MpiCollectiveEnd record in stream order (45 bytes a
 * row). {@code begin} is the preceding MpiCollectiveBegin: PEARL uses Begin/End, not Enter/Leave, as a collective's
 * local begin and end (reference §1.1).
 *
 * <p>Filled by one thread during the location's pass, read-only afterwards.
 */
public final class CollectiveTable implements java.io.Serializable {
    private final Columns.Longs begin = new Columns.Longs();
    private final Columns.Longs end = new Columns.Longs();
    private final Columns.Longs sent = new Columns.Longs();
    private final Columns.Longs received = new Columns.Longs();
    private final Columns.Ints comm = new Columns.Ints();
    private final Columns.Ints root = new Columns.Ints();
    private final Columns.Ints callPath = new Columns.Ints();
    private final Columns.Bytes op = new Columns.Bytes();
    private int size;
    private int capacity = Columns.INITIAL;

    public int add(long b, long e, int opCode, int communicator, int rootRank, long bytesSent, long bytesReceived,
                   int path) {
        int i = size++;
        if (i == capacity) {
            capacity = Columns.nextCapacity(capacity);
            begin.grow(capacity);
            end.grow(capacity);
            sent.grow(capacity);
            received.grow(capacity);
            comm.grow(capacity);
            root.grow(capacity);
            callPath.grow(capacity);
            op.grow(capacity);
        }
        begin.set(i, b);
        end.set(i, e);
        sent.set(i, bytesSent);
        received.set(i, bytesReceived);
        comm.set(i, communicator);
        root.set(i, rootRank);
        callPath.set(i, path);
        op.set(i, (byte) opCode);
        return i;
    }

    public int size() {
        return size;
    }

    public long begin(int i) {
        return begin.get(i);
    }

    public long end(int i) {
        return end.get(i);
    }

    public long sent(int i) {
        return sent.get(i);
    }

    public long received(int i) {
        return received.get(i);
    }

    public int comm(int i) {
        return comm.get(i);
    }

    /** Root as a rank within {@link #comm}, -1 for none. */
    public int root(int i) {
        return root.get(i);
    }

    /** Local call path of the collective call. */
    public int callPath(int i) {
        return callPath.get(i);
    }

    /** {@link dev.straggler.trace.CollectiveOp} code. */
    public byte op(int i) {
        return op.get(i);
    }

    public static int bytesPerRow() {
        return 4 * 8 + 3 * 4 + 1;
    }
}
