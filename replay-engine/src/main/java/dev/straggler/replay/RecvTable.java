package dev.straggler.replay;

/**
 * The point-to-point receives of one location, one row per MpiRecv/MpiIrecv (completion) record in stream order,
 * as primitive columns (53 bytes a row). The receive's call ({@code callR} in reference §1.3) is MPI_Recv or the
 * MPI_Wait/Test that completes an Irecv; its request call ({@code reqR}) is MPI_Recv itself or the MPI_Irecv that
 * posted the request.
 *
 * <p>Filled by one thread during the location's pass, read-only afterwards.
 */
public final class RecvTable implements java.io.Serializable {
    /** Kinds of the receive call. */
    public static final byte CALL_OTHER = 0;
    /** MPI_Test*: never a Late Sender. */
    public static final byte CALL_TEST = 1;
    /** MPI_Waitall/Waitsome: only the largest wait of the call counts. */
    public static final byte CALL_WAIT_MULTI = 2;
    /** Flag: not inside an MPI region; ignored as Scalasca does. */
    public static final byte NOT_IN_MPI = 1 << 3;
    private static final byte KIND_MASK = 7;
    /** The bytes of one row, all columns together. */
    public static final int BYTES_PER_ROW = 53;

    private final Columns.Longs time;
    private final Columns.Longs enter;
    private final Columns.Longs leave;
    private final Columns.Longs reqEnter;
    private final Columns.Ints comm;
    private final Columns.Ints peer;
    private final Columns.Ints tag;
    private final Columns.Ints callPath;
    private final Columns.Ints call;
    private final Columns.Bytes flags;
    private int size;
    private int capacity = Columns.INITIAL;

    public RecvTable() {
        time = new Columns.Longs();
        enter = new Columns.Longs();
        leave = new Columns.Longs();
        reqEnter = new Columns.Longs();
        comm = new Columns.Ints();
        peer = new Columns.Ints();
        tag = new Columns.Ints();
        callPath = new Columns.Ints();
        call = new Columns.Ints();
        flags = new Columns.Bytes();
    }

    /** A table of {@code size} rows whose columns are gone ({@link #released}). */
    private RecvTable(int size) {
        time = null;
        enter = null;
        leave = null;
        reqEnter = null;
        comm = null;
        peer = null;
        tag = null;
        callPath = null;
        call = null;
        flags = null;
        this.size = size;
    }

    /**
     * This table's size without its rows, for a stage that needs no more than how many there are once the rows have
     * been read (the root-cause stage after its partners learned their facts): its 53 bytes a row are freed.
     * Reading a row of it fails.
     */
    public RecvTable released() {
        return new RecvTable(size);
    }

    public int add(long t, long callEnter, long requestEnter, int communicator, int peerRank, int msgTag,
                   int path, int callOrdinal, byte kind, boolean inMpi) {
        int i = size++;
        if (i == capacity) {
            capacity = Columns.nextCapacity(capacity);
            time.grow(capacity);
            enter.grow(capacity);
            leave.grow(capacity);
            reqEnter.grow(capacity);
            comm.grow(capacity);
            peer.grow(capacity);
            tag.grow(capacity);
            callPath.grow(capacity);
            call.grow(capacity);
            flags.grow(capacity);
        }
        time.set(i, t);
        enter.set(i, callEnter);
        reqEnter.set(i, requestEnter);
        comm.set(i, communicator);
        peer.set(i, peerRank);
        tag.set(i, msgTag);
        callPath.set(i, path);
        call.set(i, callOrdinal);
        flags.set(i, (byte) (kind | (inMpi ? 0 : NOT_IN_MPI)));
        return i;
    }

    void setLeave(int i, long t) {
        leave.set(i, t);
    }

    /** Changes the kind of the receive call, keeping its other flags. */
    void setKind(int i, byte kind) {
        flags.set(i, (byte) ((flags.get(i) & ~KIND_MASK) | kind));
    }

    /**
     * Moves the rows to {@code file} once the location's pass has written them all (none may be written after), but
     * for the last partial unit of {@code Columns.UNIT} rows: reading a row then reads its unit back (Columns), so
     * that the records of a trace too large for the heap need not stay on it. Readers go through the rows in order,
     * a location's own and its partners' alike (envelope order), so a unit is read back about once per reader.
     */
    public void spill(SpillFile file) {
        if (time == null) {
            return; // released: nothing left to move
        }
        time.spill(file, size);
        enter.spill(file, size);
        leave.spill(file, size);
        reqEnter.spill(file, size);
        comm.spill(file, size);
        peer.spill(file, size);
        tag.spill(file, size);
        callPath.spill(file, size);
        call.spill(file, size);
        flags.spill(file, size);
    }

    /** Bytes of rows on the heap: all of them, less those in a spill file ({@link #spill}) or released. */
    public long heapBytes() {
        return time == null ? 0 : (long) (size - time.spilledUnits * Columns.UNIT) * BYTES_PER_ROW;
    }

    public int size() {
        return size;
    }

    /** Timestamp of the receive record. */
    public long time(int i) {
        return time.get(i);
    }

    /** Enter of the receive call. */
    public long enter(int i) {
        return enter.get(i);
    }

    /** Leave of the receive call. */
    public long leave(int i) {
        return leave.get(i);
    }

    /** Enter of the request call (MPI_Irecv, or the receive call itself). */
    public long reqEnter(int i) {
        return reqEnter.get(i);
    }

    public int comm(int i) {
        return comm.get(i);
    }

    /** Source, as a rank within {@link #comm}. */
    public int peer(int i) {
        return peer.get(i);
    }

    public int tag(int i) {
        return tag.get(i);
    }

    /** Local call path of the receive call. */
    public int callPath(int i) {
        return callPath.get(i);
    }

    /** Ordinal of the receive call among the MPI calls of this location. */
    public int call(int i) {
        return call.get(i);
    }

    public byte kind(int i) {
        return (byte) (flags.get(i) & KIND_MASK);
    }

    public boolean inMpi(int i) {
        return (flags.get(i) & NOT_IN_MPI) == 0;
    }

    public static int bytesPerRow() {
        return 4 * 8 + 5 * 4 + 1;
    }
}
