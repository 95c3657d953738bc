package dev.straggler.replay;

/**
 * The point-to-point sends of one location, one row per MpiSend/MpiIsend record in stream order, as primitive
 * columns (61 bytes a row). A send's completion is the call that completes it: the send call itself for a
 * blocking send, the MPI_Wait/Test call holding its MpiIsendComplete record for an Isend (reference §1.1).
 *
 * <p>Filled by one thread during the location's pass, read-only afterwards (then safe to share).
 */
public final class SendTable implements java.io.Serializable {
    /** Completion kinds, the facts Late Receiver needs about the completing call (reference §1.3). */
    public static final byte CMP_NONE = 0;
    /** Completed in MPI_Send or MPI_Ssend. */
    public static final byte CMP_BLOCKING_SEND = 1;
    public static final byte CMP_WAIT_SINGLE = 2;
    public static final byte CMP_WAIT_MULTI = 3;
    /** Completed in another call (Bsend, Rsend, Sendrecv, MPI_Test*, ...): no Late Receiver. */
    public static final byte CMP_OTHER = 4;

    /** Flag: the send was cancelled; Scalasca does not ship it (MpiCommunicationHandler::cb_pre_send). */
    public static final byte CANCELLED = 1 << 3;
    /** Flag: the record is not inside an MPI region; Scalasca ignores it for matching. */
    public static final byte NOT_IN_MPI = 1 << 4;
    private static final byte KIND_MASK = 7;
    /** The bytes of one row, all columns together. */
    public static final int BYTES_PER_ROW = 61;

    private final Columns.Longs time;
    private final Columns.Longs enter;
    private final Columns.Longs bytes;
    private final Columns.Longs cmpEnter;
    private final Columns.Longs cmpLeave;
    private final Columns.Ints comm;
    private final Columns.Ints peer;
    private final Columns.Ints tag;
    private final Columns.Ints cmpCallPath;
    private final Columns.Ints cmpCall;
    private final Columns.Bytes flags;
    private int size;
    private int capacity = Columns.INITIAL;

    public SendTable() {
        time = new Columns.Longs();
        enter = new Columns.Longs();
        bytes = new Columns.Longs();
        cmpEnter = new Columns.Longs();
        cmpLeave = new Columns.Longs();
        comm = new Columns.Ints();
        peer = new Columns.Ints();
        tag = new Columns.Ints();
        cmpCallPath = new Columns.Ints();
        cmpCall = new Columns.Ints();
        flags = new Columns.Bytes();
    }

    /** A table of {@code size} rows whose columns are gone ({@link #released}). */
    private SendTable(int size) {
        time = null;
        enter = null;
        bytes = null;
        cmpEnter = null;
        cmpLeave = null;
        comm = null;
        peer = null;
        tag = null;
        cmpCallPath = null;
        cmpCall = null;
        flags = null;
        this.size = size;
    }

    /**
     * This table's size without its rows, for a stage that needs no more than how many there are once the rows have
     * been read (the root-cause stage after its partners learned their facts): its 61 bytes a row are freed.
     * Reading a row of it fails.
     */
    public SendTable released() {
        return new SendTable(size);
    }

    /** Appends a row and returns its index; completion starts as CMP_NONE. */
    public int add(long t, long callEnter, int communicator, int peerRank, int msgTag, long length, boolean inMpi) {
        int i = size++;
        if (i == capacity) {
            capacity = Columns.nextCapacity(capacity);
            time.grow(capacity);
            enter.grow(capacity);
            bytes.grow(capacity);
            cmpEnter.grow(capacity);
            cmpLeave.grow(capacity);
            comm.grow(capacity);
            peer.grow(capacity);
            tag.grow(capacity);
            cmpCallPath.grow(capacity);
            cmpCall.grow(capacity);
            flags.grow(capacity);
        }
        time.set(i, t);
        enter.set(i, callEnter);
        bytes.set(i, length);
        comm.set(i, communicator);
        peer.set(i, peerRank);
        tag.set(i, msgTag);
        cmpCallPath.set(i, -1);
        cmpCall.set(i, -1);
        flags.set(i, inMpi ? 0 : NOT_IN_MPI);
        return i;
    }

    /** Records the completing call; its Leave is set later by {@link #setCompletionLeave}. */
    public void complete(int i, byte kind, long callEnter, int callPath, int call) {
        flags.set(i, (byte) ((flags.get(i) & ~KIND_MASK) | kind));
        cmpEnter.set(i, callEnter);
        cmpCallPath.set(i, callPath);
        cmpCall.set(i, call);
    }

    public void setCompletionLeave(int i, long leave) {
        cmpLeave.set(i, leave);
    }

    public void cancel(int i) {
        flags.set(i, (byte) (flags.get(i) | CANCELLED));
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
        bytes.spill(file, size);
        cmpEnter.spill(file, size);
        cmpLeave.spill(file, size);
        comm.spill(file, size);
        peer.spill(file, size);
        tag.spill(file, size);
        cmpCallPath.spill(file, size);
        cmpCall.spill(file, size);
        flags.spill(file, size);
    }

    /** Bytes of rows on the heap: all of them, less those in a spill file ({@link #spill}) or released. */
    public long heapBytes() {
        return time == null ? 0 : (long) (size - time.spilledUnits * Columns.UNIT) * BYTES_PER_ROW;
    }

    public int size() {
        return size;
    }

    /** Timestamp of the send record. */
    public long time(int i) {
        return time.get(i);
    }

    /** Enter of the send call. */
    public long enter(int i) {
        return enter.get(i);
    }

    public long bytes(int i) {
        return bytes.get(i);
    }

    /** Enter of the completing call; undefined while {@link #completion(int)} is CMP_NONE. */
    public long cmpEnter(int i) {
        return cmpEnter.get(i);
    }

    /** Leave of the completing call. */
    public long cmpLeave(int i) {
        return cmpLeave.get(i);
    }

    public int comm(int i) {
        return comm.get(i);
    }

    /** Destination, as a rank within {@link #comm}. */
    public int peer(int i) {
        return peer.get(i);
    }

    public int tag(int i) {
        return tag.get(i);
    }

    /** Local call path of the completing call. */
    public int cmpCallPath(int i) {
        return cmpCallPath.get(i);
    }

    /** Ordinal of the completing MPI call on this location; equal for the sends one MPI_Waitall completes. */
    public int cmpCall(int i) {
        return cmpCall.get(i);
    }

    public byte completion(int i) {
        return (byte) (flags.get(i) & KIND_MASK);
    }

    /** True when Scalasca's replay ships this send to its receiver: inside an MPI call and not cancelled. */
    public boolean shipped(int i) {
        return (flags.get(i) & (CANCELLED | NOT_IN_MPI)) == 0;
    }

    public boolean cancelled(int i) {
        return (flags.get(i) & CANCELLED) != 0;
    }

    /** Bytes held per row, for the memory accounting of the benchmark. */
    public static int bytesPerRow() {
        return 5 * 8 + 5 * 4 + 1;
    }
}
