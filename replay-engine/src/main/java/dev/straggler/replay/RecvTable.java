package dev.straggler.replay;

import java.util.Arrays;

/**
 * The point-to-point receives of one location, one row per MpiRecv/MpiIrecv (completion) record in stream order,
 * as parallel primitive columns (53 bytes a row). The receive's call ({@code callR} in reference §1.3) is
 * MPI_Recv or the MPI_Wait/Test that completes an Irecv; its request call ({@code reqR}) is MPI_Recv itself or the
 * MPI_Irecv that posted the request.
 *
 * <p>Filled by one thread during the location's pass, read-only afterwards.
 */
public final class RecvTable {
    /** Kinds of the receive call. */
    public static final byte CALL_OTHER = 0;
    /** MPI_Test*: never a Late Sender. */
    public static final byte CALL_TEST = 1;
    /** MPI_Waitall/Waitsome: only the largest wait of the call counts. */
    public static final byte CALL_WAIT_MULTI = 2;
    /** Flag: not inside an MPI region; ignored as Scalasca does. */
    public static final byte NOT_IN_MPI = 1 << 3;
    private static final byte KIND_MASK = 7;

    /** Timestamp of the receive record. */
    public long[] time;
    /** Enter and Leave of the receive call. */
    public long[] enter;
    public long[] leave;
    /** Enter of the request call (MPI_Irecv, or the receive call itself). */
    public long[] reqEnter;
    public int[] comm;
    /** Source, as a rank within {@link #comm}. */
    public int[] peer;
    public int[] tag;
    /** Local call path of the receive call. */
    public int[] callPath;
    /** Ordinal of the receive call among the MPI calls of this location. */
    public int[] call;
    public byte[] flags;
    public int size;

    public RecvTable() {
        this(16);
    }

    public RecvTable(int capacity) {
        time = new long[capacity];
        enter = new long[capacity];
        leave = new long[capacity];
        reqEnter = new long[capacity];
        comm = new int[capacity];
        peer = new int[capacity];
        tag = new int[capacity];
        callPath = new int[capacity];
        call = new int[capacity];
        flags = new byte[capacity];
    }

    public int add(long t, long callEnter, long requestEnter, int communicator, int peerRank, int msgTag,
                   int path, int callOrdinal, byte kind, boolean inMpi) {
        if (size == time.length) {
            grow();
        }
        int i = size++;
        time[i] = t;
        enter[i] = callEnter;
        reqEnter[i] = requestEnter;
        comm[i] = communicator;
        peer[i] = peerRank;
        tag[i] = msgTag;
        callPath[i] = path;
        call[i] = callOrdinal;
        flags[i] = (byte) (kind | (inMpi ? 0 : NOT_IN_MPI));
        return i;
    }

    public byte kind(int i) {
        return (byte) (flags[i] & KIND_MASK);
    }

    public boolean inMpi(int i) {
        return (flags[i] & NOT_IN_MPI) == 0;
    }

    private void grow() {
        int cap = Math.max(16, time.length * 2);
        time = Arrays.copyOf(time, cap);
        enter = Arrays.copyOf(enter, cap);
        leave = Arrays.copyOf(leave, cap);
        reqEnter = Arrays.copyOf(reqEnter, cap);
        comm = Arrays.copyOf(comm, cap);
        peer = Arrays.copyOf(peer, cap);
        tag = Arrays.copyOf(tag, cap);
        callPath = Arrays.copyOf(callPath, cap);
        call = Arrays.copyOf(call, cap);
        flags = Arrays.copyOf(flags, cap);
    }

    public void trim() {
        time = Arrays.copyOf(time, size);
        enter = Arrays.copyOf(enter, size);
        leave = Arrays.copyOf(leave, size);
        reqEnter = Arrays.copyOf(reqEnter, size);
        comm = Arrays.copyOf(comm, size);
        peer = Arrays.copyOf(peer, size);
        tag = Arrays.copyOf(tag, size);
        callPath = Arrays.copyOf(callPath, size);
        call = Arrays.copyOf(call, size);
        flags = Arrays.copyOf(flags, size);
    }

    public static int bytesPerRow() {
        return 4 * 8 + 5 * 4 + 1;
    }
}
