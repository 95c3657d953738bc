package dev.straggler.replay;

import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;

import java.util.Arrays;

/**
 * The communication events of one location in stream order ("marks": every event that can become a
 * synchronisation point of the root-cause analysis) and, between consecutive marks, the exclusive time each call
 * path received: a "time map" per interval, the input of Scalasca's delay and critical-path analyses
 * ({@code TmapCacheHandler}; reference §1.6). Only marks and intervals are kept, never ENTER/LEAVE events, so the
 * memory grows with communication, not with events.
 *
 * <p>Time is booked as Scalasca books it: at an Enter the time since the previous Enter/Leave goes to the caller's
 * call path, at a Leave to the call path being left; a mark closes the current interval before anything else of
 * its event is booked (for MPI_Init/MPI_Finalize, whose mark is their Leave, before the Leave's own time). So the
 * time of the MPI call that holds a mark falls into the interval after it. Interval {@code m} holds the time booked
 * before mark {@code m}; interval {@link #size()} the time after the last mark.
 *
 * <p>Written by one thread during the location's pass, read-only afterwards. Call paths are the location's local
 * node ids.
 */
public final class CallPathIntervals {
    /** A send record (MpiSend or MpiIsend); for a blocking send also its completion. ref = send row. */
    public static final byte SEND = 0;
    /** The MpiIsendComplete of an Isend. ref = send row. */
    public static final byte SEND_COMPLETE = 1;
    /** A receive record (MpiRecv or MpiIrecv); for a blocking receive also its request. ref = receive row. */
    public static final byte RECV = 2;
    /** The MpiIrecvRequest of an Irecv. ref = receive row once the receive is seen, -1 until then. */
    public static final byte RECV_REQUEST = 3;
    /** An MpiCollectiveEnd record. ref = collective row. */
    public static final byte COLLECTIVE_END = 4;
    /** The Leave of the location's first MPI_Init/MPI_Init_thread. ref = -1. */
    public static final byte INIT = 5;
    /** The Leave of the location's first MPI_Finalize. ref = -1. */
    public static final byte FINALIZE = 6;

    private final Columns.Bytes kind = new Columns.Bytes();
    private final Columns.Ints ref = new Columns.Ints();
    private final Columns.Ints path = new Columns.Ints();
    private final Columns.Longs enter = new Columns.Longs();
    /** Leave − enter of the call, or {@link #WIDE} when it does not fit (then in {@link #wideDuration}). */
    private final Columns.Ints duration = new Columns.Ints();
    /** Per interval, the end (exclusive) of its entries; interval m's entries start at end(m - 1). */
    private final Columns.Ints entriesEnd = new Columns.Ints();
    private int size;
    private int capacity = Columns.INITIAL;

    // interval entries: (local call path, ticks); ticks that do not fit an int (over 2 s at 1 GHz) are WIDE and
    // kept in wideTicks, so the common entry costs 8 bytes
    private int[] entryPath = new int[64];
    private int[] entryTicks = new int[64];
    private long entries;
    /** Marks an int column value held in a side map. */
    private static final int WIDE = Integer.MIN_VALUE;
    private final Int2LongOpenHashMap wideTicks = new Int2LongOpenHashMap();
    private final Int2LongOpenHashMap wideDuration = new Int2LongOpenHashMap();

    // the open interval: a sparse accumulator over local call paths
    private long[] acc = new long[64];
    /** Per call path, 1 + the interval in which it was last listed in {@code touched}. */
    private int[] listedIn = new int[64];
    private int[] touched = new int[16];
    private int touchedCount;
    private long lastStamp;
    private boolean finished;

    CallPathIntervals() {
        entriesEnd.grow(capacity);
        kind.grow(capacity);
        ref.grow(capacity);
        path.grow(capacity);
        enter.grow(capacity);
        duration.grow(capacity);
    }

    // --- writing (the location pass) ---------------------------------------------------------------------------

    /**
     * An Enter at {@code t}; {@code caller} is the call path on top of the stack, -1 at the outermost level (time
     * outside every region belongs to no call path).
     */
    void enter(long t, int caller) {
        if (caller >= 0) {
            book(caller, t - lastStamp);
        }
        lastStamp = t;
    }

    /** A Leave at {@code t} of call path {@code node}; the location pass only leaves what it entered. */
    void leave(long t, int node) {
        book(node, t - lastStamp);
        lastStamp = t;
    }

    private void book(int node, long ticks) {
        if (ticks == 0) {
            return;
        }
        if (node >= acc.length) {
            int cap = Math.max(node + 1, acc.length * 2);
            acc = Arrays.copyOf(acc, cap);
            listedIn = Arrays.copyOf(listedIn, cap);
        }
        if (listedIn[node] != size + 1) {
            listedIn[node] = size + 1;
            if (touchedCount == touched.length) {
                touched = Arrays.copyOf(touched, touchedCount * 2);
            }
            touched[touchedCount++] = node;
        }
        acc[node] += ticks;
    }

    /**
     * Closes the open interval with a mark of the given kind at the event held by the call {@code callPath}
     * entered at {@code callEnter}; returns the mark's index. The call's Leave is set later by
     * {@link #setLeave}.
     */
    int mark(byte k, int r, int callPath, long callEnter) {
        int m = size++;
        if (m == capacity) {
            capacity = Columns.nextCapacity(capacity);
            kind.grow(capacity);
            ref.grow(capacity);
            path.grow(capacity);
            enter.grow(capacity);
            duration.grow(capacity);
            entriesEnd.grow(capacity);
        }
        kind.set(m, k);
        ref.set(m, r);
        path.set(m, callPath);
        enter.set(m, callEnter);
        duration.set(m, 0);
        closeInterval();
        entriesEnd.set(m, (int) entries);
        return m;
    }

    void setLeave(int m, long t) {
        long d = t - enter.get(m);
        if (d >= 0 && d < Integer.MAX_VALUE) {
            duration.set(m, (int) d);
            wideDuration.remove(m);
        } else {
            duration.set(m, WIDE);
            wideDuration.put(m, d);
        }
    }

    void setRef(int m, int r) {
        ref.set(m, r);
    }

    /** Closes the interval after the last mark; no more writing afterwards. */
    void finish() {
        if (!finished) {
            closeInterval();
            finished = true;
            acc = null;
            listedIn = null;
            touched = null;
            entryPath = Arrays.copyOf(entryPath, (int) entries);
            entryTicks = Arrays.copyOf(entryTicks, (int) entries);
        }
    }

    private void closeInterval() {
        for (int i = 0; i < touchedCount; i++) {
            int node = touched[i];
            long v = acc[node];
            acc[node] = 0;
            if (v == 0) {
                continue;
            }
            if (entries == entryPath.length) {
                int cap = (int) Math.min(Integer.MAX_VALUE - 8, entries * 2);
                if (cap <= entries) {
                    throw new IllegalStateException("more than 2^31 call-path interval entries on one location");
                }
                entryPath = Arrays.copyOf(entryPath, cap);
                entryTicks = Arrays.copyOf(entryTicks, cap);
            }
            entryPath[(int) entries] = node;
            if (v > 0 && v < Integer.MAX_VALUE) {
                entryTicks[(int) entries] = (int) v;
            } else {
                entryTicks[(int) entries] = WIDE;
                wideTicks.put((int) entries, v);
            }
            entries++;
        }
        touchedCount = 0;
    }

    // --- reading ---------------------------------------------------------------------------------------------

    /** Number of marks. */
    public int size() {
        return size;
    }

    public byte kind(int m) {
        return kind.get(m);
    }

    /** The record row of the mark (see the kinds), -1 when it has none. */
    public int ref(int m) {
        return ref.get(m);
    }

    /** Local call path of the call holding the mark's event. */
    public int callPath(int m) {
        return path.get(m);
    }

    /** Enter of the call holding the mark's event. */
    public long enter(int m) {
        return enter.get(m);
    }

    /** Leave of the call holding the mark's event (for INIT/FINALIZE the mark's own time). */
    public long leave(int m) {
        int d = duration.get(m);
        return enter.get(m) + (d == WIDE ? wideDuration.get(m) : d);
    }

    /** First entry of interval {@code m} (0..size()). */
    public int entriesBegin(int m) {
        return m == 0 ? 0 : entriesEnd.get(m - 1);
    }

    /** End (exclusive) of the entries of interval {@code m} (0..size()). */
    public int entriesEnd(int m) {
        return m == size ? (int) entries : entriesEnd.get(m);
    }

    public int entryPath(int e) {
        return entryPath[e];
    }

    public long entryTicks(int e) {
        int t = entryTicks[e];
        return t == WIDE ? wideTicks.get(e) : t;
    }

    /** Entries of all intervals. */
    public long entries() {
        return entries;
    }

    /** Bytes held by the marks and their intervals. */
    public long bytes() {
        return (long) size * 21 + entries * 8 + (wideTicks.size() + wideDuration.size()) * 24L;
    }
}
