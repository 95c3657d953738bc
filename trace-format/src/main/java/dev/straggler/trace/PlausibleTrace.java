package dev.straggler.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A trace whose events are checked as they are read, so that no analysis ever sees an impossible value: every
 * timestamp lies within the clock range the trace declares (OTF2 ClockProperties: begin and length) and never
 * goes backwards within a location; ENTER and LEAVE name a defined region; message lengths and collective byte
 * counts are never negative.
 *
 * <p>Strict (the default): the first violation is a {@link TraceFormatException} naming the trace, the location,
 * the event index and the value. Lenient: the offending records are dropped, counted and listed
 * ({@link #dropped()}, {@link #partialReasons()}), and the analysis says its result is partial. A timestamp that
 * jumps ahead and back (one corrupt value between two plausible ones) is recognised by looking one event ahead,
 * so the corrupt event is dropped rather than every event after it.
 *
 * <p>The checks cost two comparisons per event; the source's own readers are used unchanged.
 */
public final class PlausibleTrace implements TraceSource {
    /** Records listed individually; the count is always exact. */
    public static final int LISTED = 50;

    /** One dropped record. {@code eventIndex} is its position in the location's stream as read. */
    public record Dropped(int location, int rank, long eventIndex, long time, String why) {
        @Override
        public String toString() {
            return "location " + location + " (rank " + rank + "), event " + eventIndex + ": " + why;
        }
    }

    private final TraceSource delegate;
    private final boolean lenient;
    private final long lo;
    private final long hi;
    private final Clock clock;
    private final int regions;
    private final AtomicLong droppedCount = new AtomicLong();
    /** Locations whose stream (or its rest) could not be read at all, among {@link #droppedCount}. */
    private final AtomicLong lostStreams = new AtomicLong();
    private final List<Dropped> listed = new ArrayList<>();
    /**
     * What was counted already, as (location, event index) and as locations lost: a location is read more than
     * once when the analysis makes a second pass (root causes), and a record dropped twice is still one record.
     */
    private final java.util.Set<Long> countedRecords = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.Set<Integer> countedLost = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private PlausibleTrace(TraceSource delegate, boolean lenient) {
        this.delegate = delegate;
        this.lenient = lenient;
        this.clock = delegate.definitions().clock();
        this.regions = delegate.definitions().regions().size();
        // a trace that does not declare its length (length 0) is checked for order and sizes only
        boolean declared = clock.traceLength() > 0;
        this.lo = declared ? clock.globalOffset() : Long.MIN_VALUE;
        this.hi = declared ? saturatingAdd(clock.globalOffset(), clock.traceLength()) : Long.MAX_VALUE;
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    /** Wraps a source; strict unless {@code lenient}. */
    public static PlausibleTrace wrap(TraceSource source, boolean lenient) {
        return source instanceof PlausibleTrace p && p.lenient == lenient ? p : new PlausibleTrace(source, lenient);
    }

    /** The source underneath a checked one, or the source itself. */
    public static TraceSource unwrap(TraceSource source) {
        return source instanceof PlausibleTrace p ? p.delegate : source;
    }

    public boolean lenient() {
        return lenient;
    }

    /** Number of records dropped so far (lenient only). */
    public long droppedCount() {
        return droppedCount.get();
    }

    /** The first dropped records, in the order they were met. */
    public List<Dropped> dropped() {
        synchronized (listed) {
            return List.copyOf(listed);
        }
    }

    @Override
    public List<String> partialReasons() {
        List<String> r = new ArrayList<>(delegate.partialReasons());
        r.addAll(partialReasons(droppedCount.get(), lostStreams.get()));
        return r;
    }

    /** Locations whose stream (or its rest) could not be read at all, among {@link #droppedCount}. */
    public long lostStreams() {
        return lostStreams.get();
    }

    /**
     * Why the checks made a read partial, from the counts (also summed over reads on several machines): records
     * dropped, of which {@code lost} are locations left out.
     */
    public static List<String> partialReasons(long dropped, long lost) {
        List<String> r = new ArrayList<>();
        long n = dropped - lost;
        if (n > 0) {
            r.add(String.format(Locale.ROOT, "--lenient dropped %,d implausible record(s) (listed on stderr)", n));
        }
        if (lost > 0) {
            r.add(String.format(Locale.ROOT, "--lenient left out the unreadable events of %,d location(s) (listed on "
                    + "stderr)", lost));
        }
        return r;
    }

    @Override
    public TraceDefinitions definitions() {
        return delegate.definitions();
    }

    @Override
    public String origin() {
        return delegate.origin();
    }

    @Override
    public long eventCount() throws IOException {
        return delegate.eventCount();
    }

    @Override
    public long[] declaredRecords() {
        return delegate.declaredRecords();
    }

    @Override
    public LocationReader openLocation(int location) throws IOException {
        return open(location, false, 0);
    }

    /**
     * The delegate's seek, so that a checked store still seeks without scanning; the checks then apply to the events
     * read from the seek point on (a trace read whole has passed them all, e.g. by {@code straggler validate}).
     */
    @Override
    public LocationReader openLocation(int location, long fromTick) throws IOException {
        return open(location, true, fromTick);
    }

    @Override
    public boolean seeksWithoutScanning() {
        return delegate.seeksWithoutScanning();
    }

    /**
     * The delegate's call-stack read while nothing has been dropped from this trace: the checks that follow read
     * only timestamps, kinds and regions then, and the events are those {@link #openLocation(int)} gives. Once a
     * lenient read has dropped a record for its message length, whole columns decide again: read everything.
     */
    @Override
    public LocationReader openCallStack(int location) throws IOException {
        if (droppedCount.get() > 0) {
            return openLocation(location);
        }
        return open(location, false, 0, true);
    }

    private LocationReader open(int location, boolean seek, long fromTick) throws IOException {
        return open(location, seek, fromTick, false);
    }

    private LocationReader open(int location, boolean seek, long fromTick, boolean callStack) throws IOException {
        int rank = definitions().location(location).rank();
        LocationReader in;
        try {
            in = callStack ? delegate.openCallStack(location)
                    : seek ? delegate.openLocation(location, fromTick) : delegate.openLocation(location);
        } catch (TraceFormatException e) {
            if (!lenient) {
                throw e.lenientSkips();
            }
            // lenient: a location that cannot be opened (a store file failing its checksum, say) is left out whole
            unreadable(location, rank, 0, e);
            in = EMPTY;
        }
        return new Checked(in, location, rank);
    }

    private static final LocationReader EMPTY = new LocationReader() {
        @Override
        public boolean next(EventBatch batch) {
            batch.clear();
            return false;
        }

        @Override
        public void close() {
        }
    };

    /** Lenient: the rest of a location's stream is lost; counted as one dropped record and listed with the cause. */
    private void unreadable(int location, int rank, long from, TraceFormatException e) {
        if (!countedLost.add(location)) {
            return;
        }
        droppedCount.incrementAndGet();
        lostStreams.incrementAndGet();
        synchronized (listed) {
            if (listed.size() < LISTED) {
                long declared = definitions().location(location).events();
                listed.add(new Dropped(location, rank, from, 0, "the location's events from here on are unreadable and "
                        + "left out" + (declared > from ? " (" + (declared - from) + " of " + declared + " declared)" : "")
                        + ": " + e.getMessage()));
            }
        }
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }

    private String range() {
        return String.format(Locale.ROOT, "[%d, %d] (ClockProperties: begin %d, length %d ticks = %s)", lo, hi,
                clock.globalOffset(), clock.traceLength(), seconds(clock.traceLength()));
    }

    private String seconds(long ticks) {
        return String.format(Locale.ROOT, "%.6g s", (double) ticks / clock.ticksPerSecond());
    }

    private String at(long t) {
        if (lo == Long.MIN_VALUE) {
            return "t=" + t;
        }
        // as validate writes times: seconds since the start, the tick value in parentheses
        return clock.describe(t);
    }

    private final class Checked implements LocationReader {
        private final LocationReader in;
        private final int location;
        private final int rank;
        private long previous = Long.MIN_VALUE;
        private long delivered;
        private boolean failed;

        Checked(LocationReader in, int location, int rank) {
            this.in = in;
            this.location = location;
            this.rank = rank;
        }

        @Override
        public long recordsRead() {
            return in.recordsRead();
        }

        @Override
        public boolean next(EventBatch b) throws IOException {
            while (true) {
                boolean more;
                try {
                    more = in.next(b);
                } catch (TraceFormatException e) {
                    if (!lenient) {
                        throw e.lenientSkips();
                    }
                    if (failed) {
                        throw e;
                    }
                    failed = true;
                    unreadable(location, rank, delivered, e);
                    b.clear();
                    return false;
                }
                if (!more) {
                    return false;
                }
                delivered = b.firstIndex + b.size; // counts from the location's start, also after a seek
                filter(b);
                if (b.size > 0) {
                    return true;
                }
            }
        }

        /** Checks a batch in place; lenient: compacts it to the plausible events. */
        private void filter(EventBatch b) throws TraceFormatException {
            int w = 0;
            int n = b.size;
            for (int i = 0; i < n; i++) {
                long t = b.time[i];
                String why = null;
                if (t < lo || t > hi) {
                    why = "timestamp " + t + " lies outside the trace's clock range " + range();
                } else if (t < previous) {
                    why = "timestamp " + at(t) + " is earlier than the previous event's, " + at(previous);
                } else if (lenient && i + 1 < n && b.time[i + 1] < t && b.time[i + 1] >= previous
                        && b.time[i + 1] >= lo) {
                    // t jumps ahead of both neighbours: t is the corrupt one, not every event after it
                    why = "timestamp " + at(t) + " is later than the next event's, " + at(b.time[i + 1]);
                } else {
                    why = sizes(b, i);
                }
                if (why != null) {
                    drop(b, i, why);
                    continue;
                }
                previous = t;
                if (w != i) {
                    b.time[w] = t;
                    b.kind[w] = b.kind[i];
                    b.ref[w] = b.ref[i];
                    b.comm[w] = b.comm[i];
                    b.tag[w] = b.tag[i];
                    b.bytes[w] = b.bytes[i];
                    b.aux[w] = b.aux[i];
                }
                w++;
            }
            b.size = w;
        }

        private String sizes(EventBatch b, int i) {
            switch (b.kind[i]) {
                case EventKind.ENTER_CODE, EventKind.LEAVE_CODE -> {
                    if (b.ref[i] < 0 || b.ref[i] >= regions) {
                        return EventKind.of(b.kind[i]) + " of undefined region " + b.ref[i] + " (the trace defines "
                                + regions + ")";
                    }
                }
                case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE, EventKind.MPI_RECV_CODE,
                     EventKind.MPI_IRECV_CODE -> {
                    if (b.bytes[i] < 0) {
                        return EventKind.of(b.kind[i]) + " with negative message length " + b.bytes[i];
                    }
                }
                case EventKind.MPI_COLLECTIVE_END_CODE -> {
                    if (b.bytes[i] < 0 || b.aux[i] < 0) {
                        return "MPI_COLLECTIVE_END with negative byte counts (sent " + b.bytes[i] + ", received "
                                + b.aux[i] + ")";
                    }
                }
                default -> {
                    return null;
                }
            }
            return null;
        }

        private void drop(EventBatch b, int i, String why) throws TraceFormatException {
            long index = b.firstIndex + i;
            if (!lenient) {
                throw new TraceFormatException(origin() + ": location " + location + " (rank " + rank + "), event "
                        + index + " (" + EventKind.of(b.kind[i]) + "): " + why).lenientSkips();
            }
            if (!countedRecords.add(((long) location << 40) | index)) {
                return;
            }
            droppedCount.incrementAndGet();
            synchronized (listed) {
                if (listed.size() < LISTED) {
                    listed.add(new Dropped(location, rank, index, b.time[i], EventKind.of(b.kind[i]) + ": " + why));
                }
            }
        }

        @Override
        public int[] openRegions() throws IOException {
            return in.openRegions();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
