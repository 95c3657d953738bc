package dev.straggler.replay;

import dev.straggler.trace.Clock;
import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The communication events of one location in stream order ("marks": every event that can become a
 * synchronisation point of the root-cause analysis) and, in a second pass once the synchronisation points are
 * known, the exclusive time each call path received between them: a "time map" per interval, the input of
 * Scalasca's delay and critical-path analyses ({@code TmapCacheHandler}; reference §1.6). An interval closes where
 * Scalasca's closes: at a synchronisation point and at every receive request; the marks in between have empty
 * intervals. Only marks and intervals are kept, never ENTER/LEAVE events, so the memory grows with communication,
 * not with events.
 *
 * <p>Time is booked as Scalasca books it: at an Enter the time since the previous Enter/Leave goes to the caller's
 * call path, at a Leave to the call path being left; a mark closes the current interval before anything else of
 * its event is booked (for MPI_Init/MPI_Finalize, whose mark is their Leave, before the Leave's own time). So the
 * time of the MPI call that holds a mark falls into the interval after it. Interval {@code m} holds the time booked
 * before mark {@code m} (since the previous closing mark); interval {@link #size()} the time after the last one.
 *
 * <p>Written by one thread during the location's pass, read-only afterwards. Call paths are the location's local
 * node ids.
 */
public final class CallPathIntervals implements java.io.Serializable {
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
    /**
     * The Enter of an outermost OpenMP parallel region on a thread of a process with OpenMP (every team member
     * marks it): Scalasca's fork synchronisation point (docs/openmp.md §6). ref = the thread's parallel-region
     * instance.
     */
    public static final byte OMP_FORK = 7;
    /** The Leave of an OpenMP barrier inside a parallel region: a team synchronisation point. ref = barrier instance. */
    public static final byte OMP_BARRIER = 8;
    /**
     * A THREAD_JOIN on the master: no synchronisation point, but where Scalasca's time-map cache saves its interval
     * (the idle-thread delay sums from here), so an interval always closes here. ref = join instance.
     */
    public static final byte OMP_JOIN = 9;

    private final Columns.Bytes kind = new Columns.Bytes();
    private final Columns.Ints ref = new Columns.Ints();
    private final Columns.Ints path = new Columns.Ints();
    private final Columns.Longs enter = new Columns.Longs();
    /** Leave − enter of the call, or {@link #WIDE} when it does not fit (then in {@link #wideDuration}). */
    private final Columns.Ints duration = new Columns.Ints();
    /**
     * Per mark, the position of its event in the location's stream minus that of the previous mark (the first
     * mark's from 0), or {@link #WIDE} when it does not fit (then in {@link #wideStep}); a mark made while closing
     * regions left open at the end of the stream has the stream's length. The second pass finds the marks again by
     * these positions ({@link IntervalPass}) instead of repeating the first pass's bookkeeping.
     */
    private final Columns.Ints step = new Columns.Ints();
    private long lastPosition;
    /** How many of the marks are OpenMP ones ({@link #openMpMarks()}). */
    private int openMpMarks;
    private final Int2LongOpenHashMap wideStep = new Int2LongOpenHashMap();
    /** True for interval times read in a second pass ({@link #timesOnly}): no mark columns. */
    private final boolean timesOnly;
    /** Per interval, the end (exclusive) of its entries; interval m's entries start at end(m - 1). */
    private final Columns.Ints entriesEnd = new Columns.Ints();
    private int size;
    private int capacity = Columns.INITIAL;

    /**
     * Null: the marks only, no interval times (the first pass). Otherwise the interval times, closed only at the
     * marks set here and at receive requests, as Scalasca's time-map cache closes them (the second pass).
     */
    private final BitSet boundaries;
    /**
     * Scalasca's call-path id of a local call path (second pass): one interval's time map holds at most
     * {@link #MAP_CAPACITY} call paths, and this order breaks its ties.
     */
    private transient java.util.function.IntUnaryOperator cnodeOf;
    /**
     * How many call paths Scalasca's time map of one interval holds ({@code timemap_t}, a
     * {@code fixed_priority_map<..., 128>}): a further call path replaces the smallest entry (the first smallest in
     * call-path id order) if its time is strictly larger, else its time is lost (docs/root-causes.md).
     */
    public static final int MAP_CAPACITY = 128;

    /** The interval entries (call path, seconds) in interval order; null for marks only. */
    private IntervalEntries entries;
    /** Marks a duration held in {@link #wideDuration} (one that does not fit an int). */
    private static final int WIDE = Integer.MIN_VALUE;
    private final Int2LongOpenHashMap wideDuration = new Int2LongOpenHashMap();

    // timestamps in seconds as Scalasca's trace reader computes them (see #seconds)
    private final long globalOffset;
    private final double ticksPerSecond;

    // the open interval: a sparse accumulator over local call paths
    private double[] acc;
    /**
     * Per call path, 1 + the open interval ({@link #closed}) in which it was last listed in {@code touched}. Counted
     * in closed intervals, not in marks: an interval spans every mark up to the next synchronisation point, and a
     * call path listed before a mark that closes nothing is still in the same map (Scalasca's one {@code timemap_t}
     * up to the next {@code save_synchpoint}); listing it again would count it twice towards the map's
     * {@link #MAP_CAPACITY}.
     */
    private int[] listedIn;
    /** Intervals closed so far: the open interval's number. */
    private int closed;
    private int[] touched;
    private int touchedCount;
    private long lastStamp;
    /** {@code seconds(lastStamp)}, computed once per timestamp (the same double as computing it again). */
    private double lastSeconds;
    private boolean finished;

    /** The marks of a location, without interval times (first pass). */
    CallPathIntervals(Clock clock) {
        this(clock, null);
    }

    /**
     * @param boundaries null for marks only; else the marks (synchronisation points) at which an interval closes,
     *                   besides receive requests
     */
    CallPathIntervals(Clock clock, BitSet boundaries) {
        this(clock, boundaries, java.util.function.IntUnaryOperator.identity());
    }

    /**
     * @param cnodeOf Scalasca's call-path id of each local call path, for the order in which a full interval map
     *                gives way ({@link #MAP_CAPACITY})
     */
    CallPathIntervals(Clock clock, BitSet boundaries, java.util.function.IntUnaryOperator cnodeOf) {
        this(clock, boundaries, false, cnodeOf, new IntervalEntries(null, null));
    }

    /**
     * Interval times only, for {@link IntervalPass}: the marks are those of the first pass, closed through
     * {@link #closeMark}; the mark accessors ({@link #kind} ...) are not available on the result. The entries' call
     * paths are written as {@code entryPaths} of the local ones (null: local), and the entries of a large location
     * go to {@code spill} ({@link IntervalEntries}; null: all on the heap).
     *
     * @param cnodeOf Scalasca's call-path id of each local call path ({@link #MAP_CAPACITY})
     */
    static CallPathIntervals timesOnly(Clock clock, java.util.function.IntUnaryOperator cnodeOf, SpillFile spill,
                                       java.util.function.IntUnaryOperator entryPaths) {
        return new CallPathIntervals(clock, new BitSet(), true, cnodeOf, new IntervalEntries(spill, entryPaths));
    }

    /** @param entries where the interval entries go; ignored (none kept) without {@code boundaries} */
    private CallPathIntervals(Clock clock, BitSet boundaries, boolean timesOnly,
                              java.util.function.IntUnaryOperator cnodeOf, IntervalEntries entries) {
        this.timesOnly = timesOnly;
        this.cnodeOf = cnodeOf;
        this.globalOffset = clock.globalOffset();
        this.ticksPerSecond = clock.ticksPerSecond();
        this.boundaries = boundaries;
        if (boundaries != null) {
            lastSeconds = seconds(lastStamp);
            this.entries = entries;
            acc = new double[64];
            listedIn = new int[64];
            touched = new int[16];
            // marks only (the first pass) need no interval ends
            entriesEnd.grow(capacity);
        }
        if (!timesOnly) {
            growMarks();
        }
    }

    /** Grows the mark columns to {@link #capacity}. */
    private void growMarks() {
        kind.grow(capacity);
        ref.grow(capacity);
        path.grow(capacity);
        enter.grow(capacity);
        duration.grow(capacity);
        step.grow(capacity);
    }

    // --- writing (the location pass) ---------------------------------------------------------------------------

    /**
     * An Enter at {@code t}; {@code caller} is the call path on top of the stack, -1 at the outermost level (time
     * outside every region belongs to no call path).
     */
    void enter(long t, int caller) {
        if (caller >= 0) {
            book(caller, t);
        } else {
            stamp(t);
        }
    }

    /**
     * A Leave at {@code t} of call path {@code node}; the location pass only leaves what it entered. Booking stamps
     * the time (see {@link #book}).
     */
    void leave(long t, int node) {
        book(node, t);
    }

    /** The last Enter/Leave is at {@code t}; its time in seconds is kept for the next booking. */
    private void stamp(long t) {
        if (boundaries != null && t != lastStamp) {
            lastSeconds = seconds(t);
        }
        lastStamp = t;
    }

    /**
     * A timestamp in seconds exactly as Scalasca's reader (PEARL) converts it: the tick count since the global
     * offset as a double, divided by the resolution.
     */
    private double seconds(long t) {
        return (t - globalOffset) / ticksPerSecond;
    }

    /**
     * Books the time from the last Enter/Leave to {@code t} on a call path as Scalasca's time-map cache does: the
     * difference of the two timestamps in seconds, added to the open interval in event order. Where two ranks'
     * times are equal in ticks, Scalasca's rounding decides whether a call path counts as a delay (a residue of
     * 1e-16 s can carry a whole wait, reference §1.6), so the same double operations are done here.
     */
    private void book(int node, long t) {
        if (boundaries == null || t == lastStamp) {
            lastStamp = t;
            return;
        }
        // one division per timestamp: the same double as Scalasca's reader gives, kept for the next booking
        double now = seconds(t);
        double dt = now - lastSeconds;
        lastStamp = t;
        lastSeconds = now;
        addToOpen(node, dt);
    }

    /** Adds to a call path of the open interval, listing it first (a full map settles it as Scalasca's does). */
    private void addToOpen(int node, double seconds) {
        if (node >= acc.length) {
            int cap = Math.max(node + 1, acc.length * 2);
            acc = Arrays.copyOf(acc, cap);
            listedIn = Arrays.copyOf(listedIn, cap);
        }
        if (listedIn[node] != closed + 1) {
            if (touchedCount == MAP_CAPACITY) {
                bookIntoFullMap(node, seconds);
                return;
            }
            listedIn[node] = closed + 1;
            if (touchedCount == touched.length) {
                touched = Arrays.copyOf(touched, touchedCount * 2);
            }
            touched[touchedCount++] = node;
        }
        acc[node] += seconds;
    }

    /**
     * A call path new to an interval whose map already holds {@link #MAP_CAPACITY}: it takes the place of the
     * smallest entry if its time is strictly larger (that entry's time is then lost, and it starts from zero if it
     * comes back); otherwise its own time is lost. As Scalasca's {@code fixed_priority_map} settles its overflow slot.
     */
    private void bookIntoFullMap(int node, double seconds) {
        int min = 0;
        for (int i = 1; i < touchedCount; i++) {
            double a = acc[touched[i]];
            double b = acc[touched[min]];
            if (a < b || (a == b && cnodeOf.applyAsInt(touched[i]) < cnodeOf.applyAsInt(touched[min]))) {
                min = i;
            }
        }
        int old = touched[min];
        if (!(acc[old] < seconds)) {
            return;
        }
        acc[old] = 0;
        listedIn[old] = 0;
        touched[min] = node;
        listedIn[node] = closed + 1;
        acc[node] = 0.0 + seconds;
    }

    /**
     * Closes the open interval with a mark of the given kind at the event held by the call {@code callPath}
     * entered at {@code callEnter}; returns the mark's index. The call's Leave is set later by
     * {@link #setLeave}.
     */
    int mark(byte k, int r, int callPath, long callEnter, long position) {
        int m = size++;
        if (m == capacity) {
            capacity = Columns.nextCapacity(capacity);
            growMarks();
            if (boundaries != null) {
                entriesEnd.grow(capacity);
            }
        }
        long d = position - lastPosition;
        if (d >= 0 && d < Integer.MAX_VALUE) {
            step.set(m, (int) d);
        } else {
            step.set(m, WIDE);
            wideStep.put(m, d);
        }
        lastPosition = position;
        if (k >= OMP_FORK) {
            openMpMarks++;
        }
        kind.set(m, k);
        ref.set(m, r);
        path.set(m, callPath);
        enter.set(m, callEnter);
        duration.set(m, 0);
        if (boundaries != null) {
            if (boundaries.get(m) || alwaysCloses(k)) {
                closeInterval();
            }
            entriesEnd.set(m, entries.size());
        }
        return m;
    }

    /**
     * The next mark of a second pass ({@link #timesOnly}): closes the open interval when {@code close} (a
     * synchronisation point or a receive request), as {@link #mark} does.
     */
    void closeMark(boolean close) {
        int m = size++;
        if (m == capacity) {
            capacity = Columns.nextCapacity(capacity);
            entriesEnd.grow(capacity);
        }
        if (close) {
            closeInterval();
        }
        entriesEnd.set(m, entries.size());
    }

    /** Kinds at which an interval closes whether or not the mark is a synchronisation point. */
    static boolean alwaysCloses(byte k) {
        return k == RECV_REQUEST || k == OMP_JOIN;
    }

    /**
     * Adds {@code seconds} (possibly negative) to a call path of the open interval: Scalasca's time-map cache moves
     * the fork and join times of a parallel region from the forking call path to the region's (docs/openmp.md §6).
     * Second pass only.
     */
    void adjust(int node, double seconds) {
        if (node >= 0) {
            addToOpen(node, seconds);
        }
    }

    /**
     * Drops what the open interval holds: a worker thread's time outside its parallel regions belongs to no
     * interval of Scalasca's cache (it clears the map at each fork and at the end). Second pass only.
     */
    void discardOpen() {
        for (int i = 0; i < touchedCount; i++) {
            acc[touched[i]] = 0;
            listedIn[touched[i]] = 0;
        }
        touchedCount = 0;
    }

    /** Books the time since the last Enter/Leave on {@code node}, as a Leave does (the master's THREAD_JOIN). */
    void bookUntil(int node, long t) {
        book(node, t);
    }

    /** A timestamp in seconds as Scalasca's reader gives it. */
    double secondsOf(long t) {
        return seconds(t);
    }

    /** Position of mark {@code m}'s event in the stream minus that of mark {@code m - 1} (see {@link #step}). */
    long positionStep(int m) {
        int d = step.get(m);
        return d == WIDE ? wideStep.get(m) : d;
    }

    void setLeave(int m, long t) {
        long d = t - enter.get(m);
        if (d >= 0 && d < Integer.MAX_VALUE) {
            duration.set(m, (int) d);
            if (!wideDuration.isEmpty()) {
                wideDuration.remove(m);
            }
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
            finished = true;
            if (boundaries != null) {
                closeInterval();
                acc = null;
                listedIn = null;
                touched = null;
                cnodeOf = null;
                entries.finish();
            }
        }
    }

    /**
     * Marks a location keeps on the heap; from this many on, {@link #spillMarks} moves them to a spill file: 8 units of
     * {@code Columns.UNIT} rows, so that the two units a column keeps when read back are at most a quarter of it.
     */
    static final int SPILL_MARKS = 8 * Columns.UNIT;

    /**
     * Moves the full units of the mark columns to {@code file} when there are at least {@link #SPILL_MARKS} marks,
     * once they are no longer written ({@link #finish}): the root-cause stage reads them a few at a time, forwards
     * in its second pass and backwards in its replay, and their reads then read them back (Columns). Reading them so
     * costs the stage time (a fifth more on 1.2·10^8 events), so this is for a stage that would not fit otherwise.
     */
    public void spillMarks(SpillFile file) {
        if (size < SPILL_MARKS || !finished) {
            return;
        }
        kind.spill(file, size);
        ref.spill(file, size);
        path.spill(file, size);
        enter.spill(file, size);
        duration.spill(file, size);
        step.spill(file, size);
    }

    /** True when the marks are in a spill file ({@link #spillMarks}). */
    public boolean marksSpilled() {
        return kind.spilledUnits > 0;
    }

    private void closeInterval() {
        for (int i = 0; i < touchedCount; i++) {
            int node = touched[i];
            double v = acc[node];
            acc[node] = 0;
            if (v == 0) {
                continue;
            }
            entries.add(node, v);
        }
        touchedCount = 0;
        closed++;
    }

    // --- reading ---------------------------------------------------------------------------------------------

    /** Number of marks. */
    public int size() {
        return size;
    }

    /** Marks of OpenMP forks, barriers and joins ({@link #OMP_FORK} and after); the rest are MPI marks. */
    public int openMpMarks() {
        return openMpMarks;
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
        return m == size ? entries.size() : entriesEnd.get(m);
    }

    public int entryPath(int e) {
        return entries.path(e);
    }

    /**
     * The entries of all intervals, in blocks: the backward replay's sums run over the entries of many intervals at
     * a time. Read-only; only after {@link #finish}.
     */
    public IntervalEntries intervalEntries() {
        return entries;
    }

    /** Seconds of entry {@code e}, summed as Scalasca sums them (see {@link #book}). */
    public double entrySeconds(int e) {
        return entries.seconds(e);
    }

    /** Entries of all intervals. */
    public long entries() {
        return entries == null ? 0 : entries.size();
    }

    /** Bytes held on the heap by the marks and their intervals. */
    public long bytes() {
        return ((long) size - (long) kind.spilledUnits * Columns.UNIT) * (timesOnly ? 4 : 25)
                + (entries == null ? 0 : entries.heapBytes())
                + (wideDuration.size() + wideStep.size()) * 24L;
    }
}
