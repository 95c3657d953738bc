package dev.straggler.replay;

import java.util.Arrays;

/**
 * The point-to-point sends of one location, one row per MpiSend/MpiIsend record in stream order, as parallel
 * primitive columns (61 bytes a row). A send's completion is the call that completes it: the send call itself
 * for a blocking send, the MPI_Wait/Test call holding its MpiIsendComplete record for an Isend (reference §1.1).
 *
 * <p>Filled by one thread during the location's pass, read-only afterwards (then safe to share).
 */
public final class SendTable {
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

    /** Timestamp of the send record. */
    public long[] time;
    /** Enter of the send call. */
    public long[] enter;
    public long[] bytes;
    /** Enter and Leave of the completing call; undefined while {@link #completion(int)} is CMP_NONE. */
    public long[] cmpEnter;
    public long[] cmpLeave;
    public int[] comm;
    /** Destination, as a rank within {@link #comm}. */
    public int[] peer;
    public int[] tag;
    /** Local call path of the completing call. */
    public int[] cmpCallPath;
    /** Ordinal of the completing MPI call on this location; equal for the sends one MPI_Waitall completes. */
    public int[] cmpCall;
    public byte[] flags;
    public int size;

    public SendTable() {
        this(16);
    }

    public SendTable(int capacity) {
        time = new long[capacity];
        enter = new long[capacity];
        bytes = new long[capacity];
        cmpEnter = new long[capacity];
        cmpLeave = new long[capacity];
        comm = new int[capacity];
        peer = new int[capacity];
        tag = new int[capacity];
        cmpCallPath = new int[capacity];
        cmpCall = new int[capacity];
        flags = new byte[capacity];
    }

    /** Appends a row and returns its index; completion starts as CMP_NONE. */
    public int add(long t, long callEnter, int communicator, int peerRank, int msgTag, long length, boolean inMpi) {
        if (size == time.length) {
            grow();
        }
        int i = size++;
        time[i] = t;
        enter[i] = callEnter;
        bytes[i] = length;
        comm[i] = communicator;
        peer[i] = peerRank;
        tag[i] = msgTag;
        cmpCallPath[i] = -1;
        cmpCall[i] = -1;
        flags[i] = inMpi ? 0 : NOT_IN_MPI;
        return i;
    }

    /** Records the completing call; its Leave is set later by {@link #setCompletionLeave}. */
    public void complete(int i, byte kind, long callEnter, int callPath, int call) {
        flags[i] = (byte) ((flags[i] & ~KIND_MASK) | kind);
        cmpEnter[i] = callEnter;
        cmpCallPath[i] = callPath;
        cmpCall[i] = call;
    }

    public void setCompletionLeave(int i, long leave) {
        cmpLeave[i] = leave;
    }

    public void cancel(int i) {
        flags[i] |= CANCELLED;
    }

    public byte completion(int i) {
        return (byte) (flags[i] & KIND_MASK);
    }

    /** True when Scalasca's replay ships this send to its receiver: inside an MPI call and not cancelled. */
    public boolean shipped(int i) {
        return (flags[i] & (CANCELLED | NOT_IN_MPI)) == 0;
    }

    public boolean cancelled(int i) {
        return (flags[i] & CANCELLED) != 0;
    }

    private void grow() {
        int cap = Math.max(16, time.length * 2);
        time = Arrays.copyOf(time, cap);
        enter = Arrays.copyOf(enter, cap);
        bytes = Arrays.copyOf(bytes, cap);
        cmpEnter = Arrays.copyOf(cmpEnter, cap);
        cmpLeave = Arrays.copyOf(cmpLeave, cap);
        comm = Arrays.copyOf(comm, cap);
        peer = Arrays.copyOf(peer, cap);
        tag = Arrays.copyOf(tag, cap);
        cmpCallPath = Arrays.copyOf(cmpCallPath, cap);
        cmpCall = Arrays.copyOf(cmpCall, cap);
        flags = Arrays.copyOf(flags, cap);
    }

    /** Releases the unused tail of the columns. */
    public void trim() {
        time = Arrays.copyOf(time, size);
        enter = Arrays.copyOf(enter, size);
        bytes = Arrays.copyOf(bytes, size);
        cmpEnter = Arrays.copyOf(cmpEnter, size);
        cmpLeave = Arrays.copyOf(cmpLeave, size);
        comm = Arrays.copyOf(comm, size);
        peer = Arrays.copyOf(peer, size);
        tag = Arrays.copyOf(tag, size);
        cmpCallPath = Arrays.copyOf(cmpCallPath, size);
        cmpCall = Arrays.copyOf(cmpCall, size);
        flags = Arrays.copyOf(flags, size);
    }

    /** Bytes held per row, for the memory accounting of the benchmark. */
    public static int bytesPerRow() {
        return 5 * 8 + 5 * 4 + 1;
    }
}
