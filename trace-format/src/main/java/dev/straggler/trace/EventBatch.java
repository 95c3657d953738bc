package dev.straggler.trace;

import java.util.Arrays;

/**
 * A run of consecutive events of one location, held as parallel primitive arrays (one per column; see
 * {@link EventKind} for what each column means per kind). Reused across reads so that streaming a location
 * allocates nothing per event; the arrays grow on demand and are only valid for indices {@code < size}.
 *
 * <p>Not thread-safe. Fields are public because the replay's inner loops read them directly.
 */
public final class EventBatch {
    public long[] time;
    public byte[] kind;
    public int[] ref;
    public int[] comm;
    public int[] tag;
    public long[] bytes;
    public long[] aux;
    /** Number of valid events. */
    public int size;
    /** Index, within the location's whole stream, of this batch's first event. */
    public long firstIndex;

    public EventBatch() {
        this(1024);
    }

    public EventBatch(int capacity) {
        allocate(Math.max(1, capacity));
    }

    private void allocate(int capacity) {
        time = new long[capacity];
        kind = new byte[capacity];
        ref = new int[capacity];
        comm = new int[capacity];
        tag = new int[capacity];
        bytes = new long[capacity];
        aux = new long[capacity];
    }

    public int capacity() {
        return time.length;
    }

    /** Grows the arrays, keeping the first {@code size} events, so that {@code capacity() >= needed}. */
    public void ensureCapacity(int needed) {
        if (needed <= time.length) {
            return;
        }
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, (long) time.length * 2));
        time = Arrays.copyOf(time, cap);
        kind = Arrays.copyOf(kind, cap);
        ref = Arrays.copyOf(ref, cap);
        comm = Arrays.copyOf(comm, cap);
        tag = Arrays.copyOf(tag, cap);
        bytes = Arrays.copyOf(bytes, cap);
        aux = Arrays.copyOf(aux, cap);
    }

    public void clear() {
        size = 0;
        firstIndex = 0;
    }

    /** Appends one event, growing if needed. Columns a kind does not use must be passed as 0. */
    public void add(long t, byte k, int r, int c, int tg, long b, long a) {
        if (size == time.length) {
            ensureCapacity(size + 1);
        }
        int i = size++;
        time[i] = t;
        kind[i] = k;
        ref[i] = r;
        comm[i] = c;
        tag[i] = tg;
        bytes[i] = b;
        aux[i] = a;
    }

    /** Appends events {@code [from, to)} of another batch. */
    public void addAll(EventBatch o, int from, int to) {
        int n = to - from;
        ensureCapacity(size + n);
        System.arraycopy(o.time, from, time, size, n);
        System.arraycopy(o.kind, from, kind, size, n);
        System.arraycopy(o.ref, from, ref, size, n);
        System.arraycopy(o.comm, from, comm, size, n);
        System.arraycopy(o.tag, from, tag, size, n);
        System.arraycopy(o.bytes, from, bytes, size, n);
        System.arraycopy(o.aux, from, aux, size, n);
        size += n;
    }

    public EventKind kindAt(int i) {
        return EventKind.of(kind[i]);
    }

    /** True when both hold the same events in the same order (capacity and {@code firstIndex} ignored). */
    public boolean sameEvents(EventBatch o) {
        return size == o.size
                && Arrays.equals(time, 0, size, o.time, 0, size)
                && Arrays.equals(kind, 0, size, o.kind, 0, size)
                && Arrays.equals(ref, 0, size, o.ref, 0, size)
                && Arrays.equals(comm, 0, size, o.comm, 0, size)
                && Arrays.equals(tag, 0, size, o.tag, 0, size)
                && Arrays.equals(bytes, 0, size, o.bytes, 0, size)
                && Arrays.equals(aux, 0, size, o.aux, 0, size);
    }

    // Convenience appenders, one per kind, so that writers read like the program they describe.

    public void enter(long t, int region) {
        add(t, EventKind.ENTER_CODE, region, 0, 0, 0, 0);
    }

    public void leave(long t, int region) {
        add(t, EventKind.LEAVE_CODE, region, 0, 0, 0, 0);
    }

    public void send(long t, int peer, int communicator, int msgTag, long length) {
        add(t, EventKind.MPI_SEND_CODE, peer, communicator, msgTag, length, 0);
    }

    public void isend(long t, int peer, int communicator, int msgTag, long length, long request) {
        add(t, EventKind.MPI_ISEND_CODE, peer, communicator, msgTag, length, request);
    }

    public void recv(long t, int peer, int communicator, int msgTag, long length) {
        add(t, EventKind.MPI_RECV_CODE, peer, communicator, msgTag, length, 0);
    }

    public void irecv(long t, int peer, int communicator, int msgTag, long length, long request) {
        add(t, EventKind.MPI_IRECV_CODE, peer, communicator, msgTag, length, request);
    }

    public void request(long t, EventKind k, long request) {
        if (!k.isRequestOnly()) {
            throw new IllegalArgumentException(k + " is not a request record");
        }
        add(t, k.code(), 0, 0, 0, 0, request);
    }

    public void collectiveBegin(long t) {
        add(t, EventKind.MPI_COLLECTIVE_BEGIN_CODE, 0, 0, 0, 0, 0);
    }

    public void collectiveEnd(long t, CollectiveOp op, int communicator, int root, long sent, long received) {
        add(t, EventKind.MPI_COLLECTIVE_END_CODE, op.code(), communicator, root, sent, received);
    }
}
