package dev.straggler.patterns.timeline;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.replay.RegionClass;
import dev.straggler.trace.Clock;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a time window of a trace in the JSON trace-event format that Perfetto (ui.perfetto.dev) and Chrome's
 * trace viewer (chrome://tracing) open: one process per rank, one thread per location, the regions as nested
 * slices, point-to-point messages as flow arrows from the send to its receive, and optional marks of the analysis
 * on an extra track per location. See {@code docs/perfetto.md}.
 *
 * <p>Each location is streamed once up to the first event after the window; slices are written as they are read,
 * as B/E pairs, so nothing per event is kept. Only the message records inside the window are kept until the end,
 * to pair them. Where a location starts depends on the source:
 * <ul>
 *   <li>a source that seeks without scanning ({@link TraceSource#seeksWithoutScanning()}: a store with its batch
 *       index) is read from the window's start ({@link TraceSource#openLocation(int, long)}); the regions open
 *       there come exactly from {@link LocationReader#openRegions()}. Message records are numbered per envelope from
 *       the window's start, and the receives of messages sent before the window are recognised by time (see
 *       {@code alignReceives}); the summary says that pairing was done so
 *       ({@link Summary#messagesPairedFromWindowStart()}).</li>
 *   <li>any other source is read from its start, which gives every envelope's exact order.</li>
 * </ul>
 */
public final class PerfettoExport {
    /** Marks of lane {@code k} on a location use tid {@code MARK_TID_BASE * (k + 1) + thread}. */
    public static final int MARK_TID_BASE = 1_000_000;
    private static final String FLOW_CATEGORY = "MPI message";
    private static final String FLOW_NAME = "message";
    private static final String COLLECTIVE_CATEGORY = "MPI collective";
    private static final String COLLECTIVE_NAME = "collective";
    /** Flow ids of collective operations start here, apart from the messages' (1, 2, ...). */
    private static final long COLLECTIVE_IDS = 1L << 40;
    /** Most messages of one envelope taken to be in flight at the window's start when seeking. */
    private static final int MAX_IN_FLIGHT = 64;

    private PerfettoExport() {
    }

    /**
     * A time window in seconds since the trace's first event, both ends included; {@code to} may be
     * {@link Double#POSITIVE_INFINITY} for "to the end".
     */
    public record Window(double from, double to) {
        public Window {
            if (Double.isNaN(from) || Double.isNaN(to) || Double.isInfinite(from)) {
                throw new IllegalArgumentException("the window [" + from + ", " + to + "] s needs finite numbers");
            }
            if (from < 0) {
                throw new IllegalArgumentException("the window starts at " + from
                        + " s, before the trace's first event (0 s)");
            }
            if (from > to) {
                throw new IllegalArgumentException("the window's start (" + from + " s) is after its end (" + to + " s)");
            }
        }

        /** The whole trace. */
        public static Window all() {
            return new Window(0, Double.POSITIVE_INFINITY);
        }
    }

    /**
     * A time span the caller wants shown on a location, e.g. a wait state or a delay found by the analysis.
     *
     * @param start seconds since the trace's first event
     * @param end   seconds since the trace's first event, {@code >= start}
     * @param args  written as the slice's arguments (strings, numbers, booleans, lists and maps of them)
     */
    public record Mark(int location, double start, double end, String name, String category, Map<String, Object> args) {
        public Mark {
            Objects.requireNonNull(name, "name");
            category = category == null ? "" : category;
            args = args == null ? Map.of() : Map.copyOf(args);
            if (!(start <= end) || Double.isInfinite(start) || Double.isInfinite(end)) {
                throw new IllegalArgumentException("mark '" + name + "' must have finite start <= end: ["
                        + start + ", " + end + "] s");
            }
        }
    }

    /**
     * What was written.
     *
     * @param from                        window start, seconds since the trace's first event
     * @param to                          window end as applied (the trace's declared end when the window went past it)
     * @param traceEvents                 entries of the {@code traceEvents} array (metadata, slice begins and ends,
     *                                    marks, flow starts and ends)
     * @param slices                      region slices (one B/E pair each)
     * @param slicesClippedAtStart        of them, regions entered before the window (begin moved to its start)
     * @param slicesClippedAtEnd          of them, regions left after the window (end moved to its end)
     * @param slicesUnclosed              of them, regions the location's stream never leaves (ended at its last event)
     * @param messagesDrawn               messages with both ends in the window and the locations, drawn as flows
     * @param messagesOtherEndOutsideWindow one end drawn, the other before or after the window (or never recorded)
     * @param messagesOtherEndOutsideLocations one end drawn, the other on a rank none of whose locations was chosen
     * @param marksDrawn                  marks written (clipped to the window where needed)
     * @param marksNotDrawn               marks outside the window or on a location not chosen
     * @param messagesPairedFromWindowStart true when the locations were read from the window's start (a seekable
     *                                    store), so sends and receives were paired by their order within the window,
     *                                    skipping the leading receives of messages sent before it, recognised by time
     *                                    (exact when transfers are shorter than the interval between messages of an
     *                                    envelope);
     *                                    false when read from the trace's start (exact MPI order)
     * @param collectivesDrawn            collective operations with at least two members' records in the window and
     *                                    the locations, drawn as one flow through the members (rank order)
     * @param collectivesNotDrawn         operations read from the window's start whose members' calls do not all
     *                                    overlap in time, so that their numbering cannot be trusted: not drawn
     */
    public record Summary(double from, double to, int locations, long traceEvents, long slices,
                          long slicesClippedAtStart, long slicesClippedAtEnd, long slicesUnclosed, long messagesDrawn,
                          long messagesOtherEndOutsideWindow, long messagesOtherEndOutsideLocations,
                          long marksDrawn, long marksNotDrawn, boolean messagesPairedFromWindowStart,
                          long collectivesDrawn, long collectivesNotDrawn) {
    }

    /** Writes the window for all locations. */
    /** The category a region's slices get (MPI, MPI,I/O, OpenMP, Pthreads, I/O, user, measurement). */
    public static String categoryOf(Region r) {
        return Writer.category(r, RegionClass.of(r));
    }

    public static Summary write(TraceSource source, Window window, List<Mark> marks, OutputStream out) throws IOException {
        return write(source, window, null, marks, out);
    }

    /**
     * Writes the window for the given location indices ({@code null}: all). The stream is flushed, not closed.
     *
     * @throws IllegalArgumentException for a window starting after the trace's end, an unknown location or a mark
     *                                  on an unknown location
     */
    public static Summary write(TraceSource source, Window window, Collection<Integer> locations, List<Mark> marks,
                                OutputStream out) throws IOException {
        return new Writer(source, window, locations, marks == null ? List.of() : marks).run(out);
    }

    /**
     * The earliest event of all locations (from each one's first batch), in ticks: time 0 of the export, and of the
     * caller's marks. A source that seeks starts at its first batch without checking the whole file first.
     *
     * @throws IllegalArgumentException for a trace without events
     */
    public static long firstEventTick(TraceSource source) throws IOException {
        boolean seek = source.seeksWithoutScanning();
        long first = Long.MAX_VALUE;
        EventBatch b = new EventBatch(1024);
        for (Location l : source.definitions().locations()) {
            try (LocationReader r = seek ? source.openLocation(l.index(), Long.MIN_VALUE)
                    : source.openLocation(l.index())) {
                if (r.next(b) && b.size > 0) {
                    first = Math.min(first, b.time[0]);
                }
            }
        }
        if (first == Long.MAX_VALUE) {
            throw new IllegalArgumentException(source.origin() + " has no events, so it has no time window to export");
        }
        return first;
    }

    /** One envelope (communicator, sender rank, receiver rank, tag) and the records seen on it so far. */
    private static final class Envelope {
        // not final: one instance serves as the lookup key, so that a lookup allocates nothing
        int comm;
        int src;
        int dst;
        int tag;
        final int id;
        int sends;
        int receives;

        Envelope(int comm, int src, int dst, int tag, int id) {
            this.comm = comm;
            this.src = src;
            this.dst = dst;
            this.tag = tag;
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Envelope e && e.comm == comm && e.src == src && e.dst == dst && e.tag == tag;
        }

        @Override
        public int hashCode() {
            return ((comm * 31 + src) * 31 + dst) * 31 + tag;
        }
    }

    /** Message records inside the window, as growable primitive columns. */
    private static final class Endpoints {
        int size;
        int[] envelope = new int[64];
        int[] ordinal = new int[64];
        long[] ns = new long[64];
        int[] pid = new int[64];
        int[] tid = new int[64];
        long[] bytes = new long[64];

        void add(int env, int ord, long t, int p, int th, long b) {
            if (size == envelope.length) {
                int n = size * 2;
                envelope = Arrays.copyOf(envelope, n);
                ordinal = Arrays.copyOf(ordinal, n);
                ns = Arrays.copyOf(ns, n);
                pid = Arrays.copyOf(pid, n);
                tid = Arrays.copyOf(tid, n);
                bytes = Arrays.copyOf(bytes, n);
            }
            envelope[size] = env;
            ordinal[size] = ord;
            ns[size] = t;
            pid[size] = p;
            tid[size] = th;
            bytes[size] = b;
            size++;
        }

        long key(int i) {
            return ((long) envelope[i] << 32) | (ordinal[i] & 0xffffffffL);
        }
    }

    /** Collective records of the window, column by column. */
    private static final class Collectives {
        int size;
        int[] comm = new int[16];
        int[] ordinal = new int[16];
        long[] ns = new long[16];
        int[] pid = new int[16];
        int[] tid = new int[16];
        long[] enter = new long[16];
        long[] leave = new long[16];
        int[] region = new int[16];

        int add(int c, int o, long t, int p, int th, long callEnter, int callRegion) {
            if (size == comm.length) {
                int n = size * 2;
                comm = Arrays.copyOf(comm, n);
                ordinal = Arrays.copyOf(ordinal, n);
                ns = Arrays.copyOf(ns, n);
                pid = Arrays.copyOf(pid, n);
                tid = Arrays.copyOf(tid, n);
                enter = Arrays.copyOf(enter, n);
                leave = Arrays.copyOf(leave, n);
                region = Arrays.copyOf(region, n);
            }
            comm[size] = c;
            ordinal[size] = o;
            ns[size] = t;
            pid[size] = p;
            tid[size] = th;
            enter[size] = callEnter;
            leave[size] = Long.MAX_VALUE;
            region[size] = callRegion;
            return size++;
        }
    }

    private static final class Writer {
        private final TraceSource source;
        private final TraceDefinitions defs;
        private final Window window;
        private final List<Mark> marks;
        private final List<Location> chosen;
        private final BitSet chosenRanks = new BitSet();
        private final long ticksPerSecond;
        private final String[] regionName;
        private final String[] regionCategory;
        private final boolean[] regionIsMpi;
        private final int[][] members;
        private final char[] digits = new char[32];
        /** Read each location from the window's start (see the class comment). */
        private final boolean seek;

        private long origin;
        private long fromTick;
        private long toTick;
        private double appliedTo;
        private JsonGenerator g;

        private long traceEvents;
        private long slices;
        private long clippedStart;
        private long clippedEnd;
        private long unclosed;

        private final java.util.HashMap<Envelope, Envelope> envelopes = new java.util.HashMap<>();
        private final List<Envelope> envelopeList = new ArrayList<>();
        private final Envelope probe = new Envelope(0, 0, 0, 0, -1);
        private final Endpoints sends = new Endpoints();
        private final Endpoints receives = new Endpoints();

        // per-location region stack
        private int[] stackRegion = new int[64];
        private boolean[] stackWritten = new boolean[64];
        /** Per stack level, the region's Enter (ns; Long.MIN_VALUE when entered before a window read by seeking). */
        private long[] stackEnter = new long[64];
        /** Per stack level, the collective record made inside that call (index in {@link #colls}), -1 for none. */
        private int[] stackColl = new int[64];
        /** MPI_COLLECTIVE_END records in the window. */
        private final Collectives colls = new Collectives();
        /** Per (location, communicator), the collective records counted so far. */
        private final java.util.HashMap<Long, Integer> collCount = new java.util.HashMap<>();
        private int depth;

        Writer(TraceSource source, Window window, Collection<Integer> locations, List<Mark> marks) {
            this.source = source;
            this.defs = source.definitions();
            this.window = Objects.requireNonNull(window, "window");
            this.marks = marks;
            this.seek = source.seeksWithoutScanning();
            Clock clock = defs.clock();
            this.ticksPerSecond = clock.ticksPerSecond();
            List<Location> all = defs.locations();
            List<Location> pick = new ArrayList<>();
            if (locations == null) {
                pick.addAll(all);
            } else {
                BitSet seen = new BitSet();
                for (int l : locations) {
                    if (l < 0 || l >= all.size()) {
                        throw new IllegalArgumentException("location " + l + " does not exist (the trace has "
                                + all.size() + " locations, 0 to " + (all.size() - 1) + ")");
                    }
                    if (!seen.get(l)) {
                        seen.set(l);
                        pick.add(all.get(l));
                    }
                }
            }
            pick.sort(Comparator.comparingInt(Location::rank).thenComparingInt(Location::thread)
                    .thenComparingInt(Location::index));
            this.chosen = pick;
            for (Location l : pick) {
                if (l.rank() >= 0) {
                    chosenRanks.set(l.rank());
                }
            }
            for (Mark m : marks) {
                if (m.location() < 0 || m.location() >= all.size()) {
                    throw new IllegalArgumentException("mark '" + m.name() + "' is on location " + m.location()
                            + ", which does not exist");
                }
            }
            int n = defs.regions().size();
            regionName = new String[n];
            regionCategory = new String[n];
            regionIsMpi = new boolean[n];
            for (Region r : defs.regions()) {
                int c = RegionClass.of(r);
                regionName[r.id()] = r.name();
                regionIsMpi[r.id()] = RegionClass.isMpi(c);
                regionCategory[r.id()] = category(r, c);
            }
            members = new int[defs.communicators().size()][];
            for (int c = 0; c < members.length; c++) {
                members[c] = defs.communicator(c).members();
            }
        }

        /** The slice category: the paradigm a person filters by (MPI, OpenMP, I/O, user code, measurement). */
        static String category(Region r, int regionClass) {
            boolean io = r.role() == RegionRole.FILE_IO || r.role() == RegionRole.FILE_IO_METADATA
                    || (regionClass & RegionClass.CAT_IO) != 0;
            if (RegionClass.isMpi(regionClass)) {
                return io ? "MPI,I/O" : "MPI";
            }
            if (io) {
                return "I/O";
            }
            if (RegionClass.isInternal(regionClass)) {
                return "measurement";
            }
            Paradigm p = r.paradigm();
            return switch (p) {
                case OPENMP -> "OpenMP";
                case PTHREAD -> "Pthreads";
                case USER, COMPILER, UNKNOWN, NONE, SAMPLING -> "user";
                default -> p.name();
            };
        }

        Summary run(OutputStream out) throws IOException {
            origin = firstEventTick(source);
            Clock clock = defs.clock();
            long declaredEnd = clock.traceLength() > 0 ? clock.globalOffset() + clock.traceLength() : Long.MAX_VALUE;
            double endSeconds = declaredEnd == Long.MAX_VALUE ? Double.POSITIVE_INFINITY
                    : Math.max(0, declaredEnd - origin) / (double) ticksPerSecond;
            if (window.from() > endSeconds) {
                throw new IllegalArgumentException("the window starts at " + window.from()
                        + " s, after the trace's end at " + endSeconds + " s");
            }
            fromTick = origin + Math.round(window.from() * ticksPerSecond);
            if (window.to() >= endSeconds) {
                toTick = declaredEnd;
                appliedTo = endSeconds;
            } else {
                toTick = origin + Math.round(window.to() * ticksPerSecond);
                appliedTo = window.to();
            }

            g = new ObjectMapper().getFactory().createGenerator(out, JsonEncoding.UTF8);
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.writeStartObject();
            g.writeArrayFieldStart("traceEvents");
            writeMetadata();
            EventBatch batch = new EventBatch(4096);
            for (Location l : chosen) {
                writeLocation(l, batch);
            }
            long[] marksCount = writeMarks();
            long[] messages = writeFlows();
            long[] collectives = writeCollectives();
            g.writeEndArray();
            g.writeStringField("displayTimeUnit", "ms");
            Summary s = new Summary(window.from(), appliedTo, chosen.size(), traceEvents, slices, clippedStart,
                    clippedEnd, unclosed, messages[0], messages[1], messages[2], marksCount[0], marksCount[1], seek,
                    collectives[0], collectives[1]);
            writeOtherData(s);
            g.writeEndObject();
            g.close();
            out.flush();
            return s;
        }


        /** Ticks since the trace's first event as nanoseconds, in long arithmetic (timestamps exceed 2^53). */
        private long ns(long tick) {
            long d = tick - origin;
            long s = d / ticksPerSecond;
            long r = d % ticksPerSecond;
            long frac = ticksPerSecond <= 9_000_000_000L ? (r * 1_000_000_000L + ticksPerSecond / 2) / ticksPerSecond
                    : Math.round(r * 1e9 / ticksPerSecond);
            return s * 1_000_000_000L + frac;
        }

        /** Writes nanoseconds as microseconds in plain decimal notation (no exponent), e.g. 12.345. */
        private void writeMicros(String field, long ns) throws IOException {
            g.writeFieldName(field);
            if (ns < 0) {
                throw new IllegalStateException("negative time " + ns + " ns");
            }
            long us = ns / 1000;
            int frac = (int) (ns % 1000);
            // format the integer part right to left into the shared buffer
            int end = digits.length;
            int p = end;
            do {
                digits[--p] = (char) ('0' + (us % 10));
                us /= 10;
            } while (us > 0);
            int start = p;
            int len = end - start;
            char[] buf = digits;
            if (frac != 0) {
                // move the integer part to the front and append up to three decimals without trailing zeros
                System.arraycopy(buf, start, buf, 0, len);
                buf[len++] = '.';
                buf[len++] = (char) ('0' + frac / 100);
                buf[len++] = (char) ('0' + frac / 10 % 10);
                buf[len++] = (char) ('0' + frac % 10);
                while (buf[len - 1] == '0') {
                    len--;
                }
                start = 0;
            }
            g.writeRawValue(buf, start, len);
        }

        private void writeMetadata() throws IOException {
            int lastRank = Integer.MIN_VALUE;
            for (Location l : chosen) {
                if (l.rank() != lastRank) {
                    lastRank = l.rank();
                    metadata("process_name", l.rank(), 0, "name", "rank " + l.rank());
                    metadata("process_sort_index", l.rank(), 0, "sort_index", l.rank());
                }
                metadata("thread_name", l.rank(), l.thread(), "name", l.name());
                metadata("thread_sort_index", l.rank(), l.thread(), "sort_index", (long) l.thread() * 1024);
            }
        }

        private void metadata(String what, int pid, int tid, String key, Object value) throws IOException {
            g.writeStartObject();
            g.writeStringField("name", what);
            g.writeStringField("ph", "M");
            g.writeNumberField("ts", 0);
            g.writeNumberField("pid", pid);
            g.writeNumberField("tid", tid);
            g.writeObjectFieldStart("args");
            g.writeObjectField(key, value);
            g.writeEndObject();
            g.writeEndObject();
            traceEvents++;
        }

        private void writeLocation(Location l, EventBatch b) throws IOException {
            depth = 0;
            int pid = l.rank();
            int tid = l.thread();
            boolean flushed = false;
            boolean beyond = false;
            long last = Long.MIN_VALUE;
            try (LocationReader r = seek ? source.openLocation(l.index(), fromTick) : source.openLocation(l.index())) {
                if (seek) {
                    // the regions entered before the window and still open at its start, as a read from the
                    // location's start would have stacked them (not yet written: flushPending clips them)
                    for (int region : r.openRegions()) {
                        push(region, false, Long.MIN_VALUE);
                    }
                }
                read:
                while (r.next(b)) {
                    for (int i = 0; i < b.size; i++) {
                        long t = b.time[i];
                        if (t > toTick) {
                            beyond = true;
                            break read;
                        }
                        last = t;
                        byte k = b.kind[i];
                        boolean inWindow = t >= fromTick;
                        if (inWindow && !flushed) {
                            // a region left exactly at the window's start has nothing inside the window: drop it
                            // rather than draw a clipped slice of length 0
                            if (k == EventKind.LEAVE_CODE && t == fromTick && depth > 0) {
                                pop(ns(t));
                                continue;
                            }
                            flushPending(pid, tid);
                            flushed = true;
                        }
                        switch (k) {
                            case EventKind.ENTER_CODE -> {
                                push(b.ref[i], inWindow, ns(t));
                                if (inWindow) {
                                    begin(b.ref[i], ns(t), pid, tid, false);
                                }
                            }
                            case EventKind.LEAVE_CODE -> {
                                if (depth > 0) {
                                    pop(ns(t));
                                    if (inWindow) {
                                        end(ns(t), pid, tid, null);
                                    }
                                }
                            }
                            case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE ->
                                    message(b, i, l.rank(), true, inWindow, pid, tid);
                            case EventKind.MPI_RECV_CODE, EventKind.MPI_IRECV_CODE ->
                                    message(b, i, l.rank(), false, inWindow, pid, tid);
                            case EventKind.MPI_COLLECTIVE_END_CODE -> collective(b, i, l, inWindow, pid, tid);
                            default -> {
                            }
                        }
                    }
                }
            }
            if (beyond) {
                flushPending(pid, tid);
                long endNs = ns(toTick);
                while (depth > 0) {
                    pop(Long.MAX_VALUE); // left after the window: the call's end is not known
                    end(endNs, pid, tid, "clipped");
                    clippedEnd++;
                }
            } else if (last >= fromTick) {
                // the stream ends with regions never left: end them at its last event and say so
                flushPending(pid, tid);
                long endNs = ns(last);
                while (depth > 0) {
                    pop(endNs);
                    end(endNs, pid, tid, "unclosed");
                    unclosed++;
                }
            }
        }

        private void push(int region, boolean written, long enterNs) {
            if (depth == stackRegion.length) {
                stackRegion = Arrays.copyOf(stackRegion, depth * 2);
                stackWritten = Arrays.copyOf(stackWritten, depth * 2);
                stackEnter = Arrays.copyOf(stackEnter, depth * 2);
                stackColl = Arrays.copyOf(stackColl, depth * 2);
            }
            stackRegion[depth] = region;
            stackWritten[depth] = written;
            stackEnter[depth] = enterNs;
            stackColl[depth] = -1;
            depth++;
        }

        /** Leaves the innermost region at {@code ns}: a collective record made inside it learns its call's end. */
        private void pop(long ns) {
            depth--;
            if (stackColl[depth] >= 0) {
                colls.leave[stackColl[depth]] = ns;
            }
        }

        /** Begins, at the window's start, the regions entered before it and still open (outermost first). */
        private void flushPending(int pid, int tid) throws IOException {
            long startNs = ns(fromTick);
            for (int d = 0; d < depth; d++) {
                if (!stackWritten[d]) {
                    stackWritten[d] = true;
                    begin(stackRegion[d], startNs, pid, tid, true);
                    clippedStart++;
                }
            }
        }

        private void begin(int region, long ns, int pid, int tid, boolean clipped) throws IOException {
            g.writeStartObject();
            g.writeStringField("name", regionName[region]);
            g.writeStringField("cat", regionCategory[region]);
            g.writeStringField("ph", "B");
            writeMicros("ts", ns);
            g.writeNumberField("pid", pid);
            g.writeNumberField("tid", tid);
            if (clipped) {
                g.writeObjectFieldStart("args");
                g.writeBooleanField("clipped", true);
                g.writeEndObject();
            }
            g.writeEndObject();
            traceEvents++;
            slices++;
        }

        private void end(long ns, int pid, int tid, String flag) throws IOException {
            g.writeStartObject();
            g.writeStringField("ph", "E");
            writeMicros("ts", ns);
            g.writeNumberField("pid", pid);
            g.writeNumberField("tid", tid);
            if (flag != null) {
                g.writeObjectFieldStart("args");
                g.writeBooleanField(flag, true);
                g.writeEndObject();
            }
            g.writeEndObject();
            traceEvents++;
        }

        /**
         * Numbers a point-to-point record within its envelope, as MPI's non-overtaking rule pairs them: the k-th
         * send of (communicator, sender, receiver, tag) matches the k-th receive. Records outside an MPI call take
         * no part, as in Scalasca's replay ({@code MessageMatching}).
         */
        private void message(EventBatch b, int i, int myRank, boolean send, boolean inWindow, int pid, int tid) {
            int comm = b.comm[i];
            int peer = b.ref[i];
            if (comm < 0 || comm >= members.length || peer < 0 || peer >= members[comm].length
                    || depth == 0 || !regionIsMpi[stackRegion[depth - 1]]) {
                return;
            }
            int peerRank = members[comm][peer];
            Envelope key = lookup(comm, send ? myRank : peerRank, send ? peerRank : myRank, b.tag[i]);
            int ordinal = send ? key.sends++ : key.receives++;
            if (inWindow) {
                (send ? sends : receives).add(key.id, ordinal, ns(b.time[i]), pid, tid, b.bytes[i]);
            }
        }

        /**
         * Numbers a collective record within its communicator on this location: the k-th MPI_COLLECTIVE_END of a
         * communicator on each member belongs to its k-th operation (MPI orders a communicator's collectives alike
         * on all members; {@code CollectiveMatching}). Records outside an MPI call take no part. Read from the
         * window's start, a call begun before the window is left out on its location, and {@link #writeCollectives}
         * checks that the members' calls of each operation overlap.
         */
        private void collective(EventBatch b, int i, Location l, boolean inWindow, int pid, int tid) {
            int comm = b.comm[i];
            if (comm < 0 || comm >= members.length || depth == 0 || !regionIsMpi[stackRegion[depth - 1]]) {
                return;
            }
            long enter = stackEnter[depth - 1];
            if (seek && enter == Long.MIN_VALUE) {
                return;
            }
            int ordinal = collCount.merge(((long) l.index() << 32) | comm, 1, Integer::sum) - 1;
            if (inWindow) {
                stackColl[depth - 1] = colls.add(comm, ordinal, ns(b.time[i]), pid, tid, enter,
                        stackRegion[depth - 1]);
            }
        }

        private Envelope lookup(int comm, int src, int dst, int tag) {
            probe.comm = comm;
            probe.src = src;
            probe.dst = dst;
            probe.tag = tag;
            Envelope e = envelopes.get(probe);
            if (e == null) {
                e = new Envelope(comm, src, dst, tag, envelopeList.size());
                envelopes.put(e, e);
                envelopeList.add(e);
            }
            return e;
        }

        /** Writes the marks, each location's on as many lanes as needed to keep them properly nested. */
        private long[] writeMarks() throws IOException {
            long drawn = 0;
            long notDrawn = 0;
            BitSet chosenLocations = new BitSet();
            for (Location l : chosen) {
                chosenLocations.set(l.index());
            }
            List<Mark> sorted = new ArrayList<>(marks);
            sorted.sort(Comparator.comparingInt(Mark::location).thenComparingDouble(Mark::start)
                    .thenComparing(Comparator.comparingDouble(Mark::end).reversed()));
            long winFrom = ns(fromTick);
            long winTo = ns(toTick);
            List<long[]> lanes = new ArrayList<>();
            int[] laneDepth = new int[0];
            int current = -1;
            BitSet laneNamed = new BitSet();
            for (Mark m : sorted) {
                if (!chosenLocations.get(m.location())) {
                    notDrawn++;
                    continue;
                }
                long s = Math.round(m.start() * 1e9);
                long e = Math.round(m.end() * 1e9);
                if (e < winFrom || s > winTo) {
                    notDrawn++;
                    continue;
                }
                if (m.location() != current) {
                    current = m.location();
                    lanes.clear();
                    laneDepth = new int[0];
                    laneNamed.clear();
                }
                boolean clipped = s < winFrom || e > winTo;
                s = Math.max(s, winFrom);
                e = Math.min(e, winTo);
                // first lane where the mark nests inside what is still open there (or nothing is open)
                int lane = 0;
                for (; lane < lanes.size(); lane++) {
                    long[] open = lanes.get(lane);
                    while (laneDepth[lane] > 0 && open[laneDepth[lane] - 1] <= s) {
                        laneDepth[lane]--;
                    }
                    if (laneDepth[lane] == 0 || open[laneDepth[lane] - 1] >= e) {
                        break;
                    }
                }
                if (lane == lanes.size()) {
                    lanes.add(new long[8]);
                    laneDepth = Arrays.copyOf(laneDepth, lanes.size());
                }
                long[] open = lanes.get(lane);
                if (laneDepth[lane] == open.length) {
                    open = Arrays.copyOf(open, open.length * 2);
                    lanes.set(lane, open);
                }
                open[laneDepth[lane]++] = e;
                Location l = defs.location(m.location());
                int tid = MARK_TID_BASE * (lane + 1) + l.thread();
                if (!laneNamed.get(lane)) {
                    laneNamed.set(lane);
                    metadata("thread_name", l.rank(), tid, "name", l.name() + " — analysis"
                            + (lane == 0 ? "" : " " + (lane + 1)));
                    metadata("thread_sort_index", l.rank(), tid, "sort_index", (long) l.thread() * 1024 + 1 + lane);
                }
                g.writeStartObject();
                g.writeStringField("name", m.name());
                if (!m.category().isEmpty()) {
                    g.writeStringField("cat", m.category());
                }
                g.writeStringField("ph", "X");
                writeMicros("ts", s);
                writeMicros("dur", e - s);
                g.writeNumberField("pid", l.rank());
                g.writeNumberField("tid", tid);
                if (!m.args().isEmpty() || clipped) {
                    g.writeObjectFieldStart("args");
                    for (Map.Entry<String, Object> a : m.args().entrySet()) {
                        g.writeObjectField(a.getKey(), a.getValue());
                    }
                    if (clipped) {
                        g.writeBooleanField("clipped", true);
                    }
                    g.writeEndObject();
                }
                g.writeEndObject();
                traceEvents++;
                drawn++;
            }
            return new long[]{drawn, notDrawn};
        }

        /**
         * Pairs the sends and receives inside the window by envelope and ordinal and draws each pair as a flow
         * from the send (binding to the enclosing send call) to the receive (binding, with {@code bp:"e"}, to the
         * enclosing receive or wait call). Returns {drawn, other end outside the window, other end outside the
         * chosen locations}.
         */
        private long[] writeFlows() throws IOException {
            if (seek) {
                alignReceives();
            }
            java.util.HashMap<Long, Integer> receiveAt = new java.util.HashMap<>(Math.max(16, receives.size * 2));
            for (int i = 0; i < receives.size; i++) {
                receiveAt.put(receives.key(i), i);
            }
            boolean[] paired = new boolean[receives.size];
            long drawn = 0;
            long outsideWindow = 0;
            long outsideLocations = 0;
            for (int i = 0; i < sends.size; i++) {
                Envelope env = envelopeList.get(sends.envelope[i]);
                Integer j = receiveAt.get(sends.key(i));
                if (j == null) {
                    if (chosenRanks.get(env.dst)) {
                        outsideWindow++;
                    } else {
                        outsideLocations++;
                    }
                    continue;
                }
                paired[j] = true;
                drawn++;
                flow("s", drawn, sends.ns[i], sends.pid[i], sends.tid[i], env, sends.bytes[i]);
                flow("f", drawn, receives.ns[j], receives.pid[j], receives.tid[j], null, 0);
            }
            for (int j = 0; j < receives.size; j++) {
                if (!paired[j]) {
                    if (chosenRanks.get(envelopeList.get(receives.envelope[j]).src)) {
                        outsideWindow++;
                    } else {
                        outsideLocations++;
                    }
                }
            }
            return new long[]{drawn, outsideWindow, outsideLocations};
        }

        /**
         * Reading from the window's start numbers both ends of an envelope from there, but messages sent before the
         * window may be received in it: their receives come first (MPI's non-overtaking order) and belong to no
         * send drawn. Per envelope, finds how many leading receives {@code c} to skip: the one (at most
         * {@link #MAX_IN_FLIGHT}) that pairs send {@code i} with receive {@code i + c} at the smallest mean
         * |receive time - send time|, the smaller {@code c} on a tie. A send record starts the sending call and a
         * receive record ends the receiving one, so a wrong {@code c} shifts every pair by whole message intervals:
         * too small makes receives precede their sends, too large adds an interval to every transfer; a tolerance
         * of clock errors comes with using the mean rather than requiring every receive to follow its send (real
         * traces have clock condition violations). The skipped receives are counted as having their other end
         * outside the window. Exact when transfers are shorter than the interval between messages of an envelope.
         */
        private void alignReceives() {
            int envs = envelopeList.size();
            int[][] sendIdx = group(sends, envs);
            int[][] recvIdx = group(receives, envs);
            for (int e = 0; e < envs; e++) {
                int[] si = sendIdx[e];
                int[] ri = recvIdx[e];
                if (si == null || ri == null) {
                    continue;
                }
                int best = 0;
                double bestCost = Double.POSITIVE_INFINITY;
                for (int c = 0; c < ri.length && c <= MAX_IN_FLIGHT; c++) {
                    int n = Math.min(si.length, ri.length - c);
                    double sum = 0;
                    for (int i = 0; i < n; i++) {
                        sum += Math.abs((double) (receives.ns[ri[i + c]] - sends.ns[si[i]]));
                    }
                    double cost = sum / n;
                    if (cost < bestCost) {
                        bestCost = cost;
                        best = c;
                    }
                }
                if (best > 0) {
                    for (int j : ri) {
                        receives.ordinal[j] -= best; // negative: before any send drawn, so left unpaired
                    }
                }
            }
        }

        /** Indices of the records of each envelope, ordered by their ordinal (null: none). */
        private static int[][] group(Endpoints p, int envs) {
            int[] count = new int[envs];
            for (int i = 0; i < p.size; i++) {
                count[p.envelope[i]]++;
            }
            int[][] by = new int[envs][];
            for (int e = 0; e < envs; e++) {
                if (count[e] > 0) {
                    by[e] = new int[count[e]];
                }
            }
            for (int i = 0; i < p.size; i++) {
                // within the window, each envelope's ordinals are 0, 1, 2, ... in reading order
                by[p.envelope[i]][p.ordinal[i]] = i;
            }
            return by;
        }

        /**
         * Draws each collective operation with at least two members' records in the window as one flow through its
         * members in rank order (Perfetto links them step by step: "s", "t", ..., "f"), each step at the member's
         * MPI_COLLECTIVE_END. Returns {drawn, not drawn because the members' calls do not all overlap (read from the
         * window's start only)}.
         */
        private long[] writeCollectives() throws IOException {
            java.util.TreeMap<Long, List<Integer>> ops = new java.util.TreeMap<>();
            for (int i = 0; i < colls.size; i++) {
                ops.computeIfAbsent(((long) colls.comm[i] << 32) | colls.ordinal[i], k -> new ArrayList<>()).add(i);
            }
            long drawn = 0;
            long notDrawn = 0;
            for (List<Integer> op : ops.values()) {
                if (op.size() < 2) {
                    continue;
                }
                if (seek) {
                    long latestEnter = Long.MIN_VALUE;
                    long earliestLeave = Long.MAX_VALUE;
                    for (int i : op) {
                        latestEnter = Math.max(latestEnter, colls.enter[i]);
                        earliestLeave = Math.min(earliestLeave, colls.leave[i]);
                    }
                    if (latestEnter > earliestLeave) {
                        notDrawn++;
                        continue;
                    }
                }
                op.sort(Comparator.comparingInt((Integer i) -> colls.pid[i]).thenComparingInt(i -> colls.tid[i]));
                drawn++;
                long id = COLLECTIVE_IDS + drawn;
                for (int k = 0; k < op.size(); k++) {
                    int i = op.get(k);
                    String ph = k == 0 ? "s" : k == op.size() - 1 ? "f" : "t";
                    g.writeStartObject();
                    g.writeStringField("name", COLLECTIVE_NAME);
                    g.writeStringField("cat", COLLECTIVE_CATEGORY);
                    g.writeStringField("ph", ph);
                    g.writeNumberField("id", id);
                    writeMicros("ts", colls.ns[i]);
                    g.writeNumberField("pid", colls.pid[i]);
                    g.writeNumberField("tid", colls.tid[i]);
                    if (k > 0) {
                        g.writeStringField("bp", "e");
                    }
                    if (k == 0) {
                        g.writeObjectFieldStart("args");
                        String comm = defs.communicator(colls.comm[i]).name();
                        g.writeStringField("communicator", comm.isEmpty() ? "communicator " + colls.comm[i] : comm);
                        g.writeStringField("operation", regionName[colls.region[i]]);
                        g.writeNumberField("members_drawn", op.size());
                        g.writeNumberField("members", members[colls.comm[i]].length);
                        g.writeEndObject();
                    }
                    g.writeEndObject();
                    traceEvents++;
                }
            }
            return new long[]{drawn, notDrawn};
        }

        private void flow(String ph, long id, long ns, int pid, int tid, Envelope env, long bytes) throws IOException {
            g.writeStartObject();
            g.writeStringField("name", FLOW_NAME);
            g.writeStringField("cat", FLOW_CATEGORY);
            g.writeStringField("ph", ph);
            g.writeNumberField("id", id);
            writeMicros("ts", ns);
            g.writeNumberField("pid", pid);
            g.writeNumberField("tid", tid);
            if (env == null) {
                g.writeStringField("bp", "e");
            } else {
                g.writeObjectFieldStart("args");
                g.writeNumberField("from_rank", env.src);
                g.writeNumberField("to_rank", env.dst);
                String comm = defs.communicator(env.comm).name();
                // Score-P leaves some communicators unnamed: say which one it is rather than write ""
                g.writeStringField("communicator", comm.isEmpty() ? "communicator " + env.comm : comm);
                g.writeNumberField("tag", env.tag);
                g.writeNumberField("bytes", bytes);
                g.writeEndObject();
            }
            g.writeEndObject();
            traceEvents++;
        }

        private void writeOtherData(Summary s) throws IOException {
            g.writeObjectFieldStart("otherData");
            g.writeStringField("source", source.origin());
            g.writeStringField("time_origin", "first event of the trace (ts 0)");
            g.writeNumberField("window_from_s", s.from());
            g.writeNumberField("window_to_s", s.to());
            g.writeNumberField("locations", s.locations());
            g.writeNumberField("trace_events", s.traceEvents());
            g.writeNumberField("slices", s.slices());
            g.writeNumberField("slices_clipped_at_start", s.slicesClippedAtStart());
            g.writeNumberField("slices_clipped_at_end", s.slicesClippedAtEnd());
            g.writeNumberField("slices_unclosed", s.slicesUnclosed());
            g.writeNumberField("messages_drawn", s.messagesDrawn());
            g.writeNumberField("messages_other_end_outside_window", s.messagesOtherEndOutsideWindow());
            g.writeNumberField("messages_other_end_outside_locations", s.messagesOtherEndOutsideLocations());
            g.writeNumberField("marks_drawn", s.marksDrawn());
            g.writeNumberField("marks_not_drawn", s.marksNotDrawn());
            g.writeNumberField("collectives_drawn", s.collectivesDrawn());
            g.writeNumberField("collectives_not_drawn", s.collectivesNotDrawn());
            g.writeStringField("message_pairing", s.messagesPairedFromWindowStart()
                    ? "k-th send and k-th receive of each envelope counted from the window's start (each location was"
                    + " read from there), the receives of messages sent before the window recognised by time; exact"
                    + " when transfers are shorter than the interval between messages of an envelope"
                    : "k-th send and k-th receive of each envelope counted from the trace's start (MPI order)");
            g.writeEndObject();
        }
    }
}
