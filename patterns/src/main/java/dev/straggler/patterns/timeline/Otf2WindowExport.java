package dev.straggler.patterns.timeline;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.otf2.Otf2Writer;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a time window of a trace as an OTF2 archive ({@link Otf2Writer}) that OTF2 readers (otf2-print, Vampir,
 * Scalasca) take as a trace of its own. See {@code docs/timeline.md}, "OTF2 window".
 *
 * <ul>
 *   <li>Each chosen location gets its records whose time lies in {@code [fromTick, toTick]}, timestamps unchanged;
 *       the definitions are the trace's own (clock properties included), every location defined, those not chosen
 *       with an empty event file.</li>
 *   <li>Regions open at the window's start get an ENTER at its start, before its first record; regions still open
 *       at its end a LEAVE at its end (at the location's last record when its stream ends inside the window with
 *       regions open), so that every location's ENTER/LEAVE nest. An OpenMP fork open at the window's start gets a
 *       THREAD_FORK there (before the ENTER of the parallel region), one open at its end a THREAD_JOIN (after the
 *       parallel region's LEAVE), so that thread teams nest too.</li>
 *   <li>Records of operations with a part outside the archive are dropped, so that what remains matches: a
 *       point-to-point message is kept when its send and its receive are both written (and, for non-blocking ones,
 *       the request's start and completion too), with its request tests; a collective operation when every rank of
 *       its communicator has its begin and end in the window on a chosen location; a lock acquisition when its
 *       release is in the window too.</li>
 * </ul>
 *
 * <p>Every chosen location is read twice: once for what matches what, once to write. A source that seeks without
 * scanning ({@link TraceSource#seeksWithoutScanning()}) is read from the window's start both times; message and
 * collective order are then counted from there, the records of operations begun before the window recognised by
 * time (as {@link PerfettoExport} does for messages). Any other source is read from each location's start in the
 * first pass, which gives the exact order.
 */
public final class Otf2WindowExport {
    /** Most operations of one envelope or communicator taken to be under way at the window's start when seeking. */
    private static final int MAX_IN_FLIGHT = 64;
    private static final int KINDS = 21;

    private Otf2WindowExport() {
    }

    /**
     * What was written. Per-kind arrays are indexed by {@link EventKind} code; per-location arrays by location
     * index (0 for locations not chosen).
     *
     * @param fromTick          window start (ticks, as in the trace)
     * @param toTick            window end as applied (the trace's declared end when the window went past it)
     * @param locations         locations chosen
     * @param eventsWritten     records written, added ones included
     * @param eventsInWindow    records of the chosen locations whose time lies in the window
     * @param enterAdded        ENTER records added at the window's start (regions open there)
     * @param leaveAddedAtEnd   LEAVE records added at the window's end (regions open there)
     * @param leaveAddedUnclosed LEAVE records added at a location's last record (its stream ends with them open)
     * @param forksAdded        THREAD_FORK records added at the window's start
     * @param joinsAdded        THREAD_JOIN records added at the window's end
     * @param programRecordsAdded PROGRAM_BEGIN added at the window's start (the program ends inside it) and
     *                          PROGRAM_END at its end (it begins inside it): OTF2 readers take the pair as the
     *                          program region's ENTER and LEAVE
     * @param messagesKept      point-to-point messages written with both ends
     * @param collectivesKept   collective operations written (each once, however many ranks take part)
     * @param seek              true when the locations were read from the window's start (a seekable store)
     */
    public record Summary(long fromTick, long toTick, int locations, long eventsWritten, long eventsInWindow,
                          long enterAdded, long leaveAddedAtEnd, long leaveAddedUnclosed, long forksAdded,
                          long joinsAdded, long programRecordsAdded, long messagesKept, long collectivesKept, boolean seek,
                          long[] droppedByKind, long[] writtenByLocation, long[] addedByLocation,
                          long[] droppedByLocation) {
        public Summary {
            droppedByKind = droppedByKind.clone();
            writtenByLocation = writtenByLocation.clone();
            addedByLocation = addedByLocation.clone();
            droppedByLocation = droppedByLocation.clone();
        }

        public long dropped(EventKind k) {
            return droppedByKind[k.code()];
        }

        /** Point-to-point records dropped: sends, receives, request starts, completions and tests. */
        public long messageRecordsDropped() {
            long n = 0;
            for (EventKind k : EventKind.values()) {
                if (k.code() >= EventKind.MPI_SEND_CODE && k.code() <= EventKind.MPI_REQUEST_CANCELLED_CODE) {
                    n += droppedByKind[k.code()];
                }
            }
            return n;
        }

        public long collectiveRecordsDropped() {
            return droppedByKind[EventKind.MPI_COLLECTIVE_BEGIN_CODE] + droppedByKind[EventKind.MPI_COLLECTIVE_END_CODE];
        }

        public long lockRecordsDropped() {
            return droppedByKind[EventKind.THREAD_ACQUIRE_LOCK_CODE] + droppedByKind[EventKind.THREAD_RELEASE_LOCK_CODE];
        }

        public long droppedTotal() {
            return Arrays.stream(droppedByKind).sum();
        }

        @Override
        public long[] droppedByKind() {
            return droppedByKind.clone();
        }

        @Override
        public long[] writtenByLocation() {
            return writtenByLocation.clone();
        }

        @Override
        public long[] addedByLocation() {
            return addedByLocation.clone();
        }

        @Override
        public long[] droppedByLocation() {
            return droppedByLocation.clone();
        }
    }

    /**
     * Writes the window {@code [fromTick, toTick]} of the given locations ({@code null}: all) as an OTF2 archive in
     * {@code directory} (its anchor {@code traces.otf2}). {@code toTick} past the trace's declared end stops there.
     *
     * @throws IllegalArgumentException for an empty or reversed window, a window starting after the trace's end, or
     *                                  an unknown location
     */
    public static Summary write(TraceSource source, long fromTick, long toTick, Collection<Integer> locations,
                                Path directory) throws IOException {
        return new Run(source, fromTick, toTick, locations).write(directory);
    }

    /** One record of an operation whose parts must all be written, or none. */
    private static final class Run {
        private final TraceSource source;
        private final TraceDefinitions defs;
        private final boolean seek;
        private final long fromTick;
        private final long toTick;
        private final List<Location> chosen = new ArrayList<>();
        private final boolean[] parallel;
        private final int[] master;

        /** Per location index: records in the window to drop, by position from the window's first record. */
        private final BitSet[] drop;
        /** Per location index: team size of a THREAD_FORK to add at the window's start (0: none). */
        private final int[] forkAtStart;
        /** Per location index: THREAD_JOINs to add at the window's end. */
        private final int[] joinsAtEnd;
        /** Per location index: a PROGRAM_BEGIN to add at the window's start, a PROGRAM_END at its end. */
        private final BitSet programAtStart = new BitSet();
        private final BitSet programAtEnd = new BitSet();

        // point-to-point endpoints inside the window, as growable columns
        private final IntArrayList epLoc = new IntArrayList();
        private final IntArrayList epPos = new IntArrayList();
        private final IntArrayList epEnvelope = new IntArrayList();
        private final IntArrayList epOrdinal = new IntArrayList();
        private final LongArrayList epTime = new LongArrayList();
        private final BitSet epSend = new BitSet();
        /** Request of a non-blocking endpoint (-1: blocking). */
        private final IntArrayList epRequest = new IntArrayList();
        // requests inside the window: start position (-1: before the window), completion position (-1: after it)
        private final IntArrayList rqLoc = new IntArrayList();
        private final IntArrayList rqStart = new IntArrayList();
        private final IntArrayList rqEnd = new IntArrayList();
        private final IntArrayList rqTests = new IntArrayList(); // pairs (request, position)
        private final Map<Long, Integer> envelopes = new HashMap<>();
        /** Per envelope id: {communicator, sender rank, receiver rank, tag}; sends and receives counted so far. */
        private final List<long[]> envelopeCounts = new ArrayList<>();

        // collective instances inside the window (end record in it)
        private final IntArrayList coLoc = new IntArrayList();
        private final IntArrayList coBegin = new IntArrayList(); // -1: begun before the window
        private final IntArrayList coEnd = new IntArrayList();
        private final IntArrayList coOrdinal = new IntArrayList();
        private final LongArrayList coTime = new LongArrayList();
        /** (communicator, rank) -> instance indices in order. */
        private final Map<Long, IntArrayList> coByMember = new HashMap<>();
        /** (communicator, rank) -> location holding them; -2 when more than one does. */
        private final Map<Long, Integer> coLocation = new HashMap<>();

        // lock acquisitions kept (acquire and release both in the window): location, positions, rank, lock, order
        private final LongArrayList locks = new LongArrayList();
        /** Per location index: position of a kept lock record -> its acquisition order renumbered in the window. */
        private final Int2IntOpenHashMap[] lockOrder;

        private long messagesKept;
        private long collectivesKept;

        Run(TraceSource source, long fromTick, long toTick, Collection<Integer> locations) {
            this.source = source;
            this.defs = source.definitions();
            this.seek = source.seeksWithoutScanning();
            long declaredEnd = defs.clock().traceLength() > 0
                    ? defs.clock().globalOffset() + defs.clock().traceLength() : Long.MAX_VALUE;
            if (fromTick > toTick) {
                throw new IllegalArgumentException("the window's start (tick " + fromTick + ") is after its end (tick "
                        + toTick + ")");
            }
            if (fromTick > declaredEnd) {
                throw new IllegalArgumentException("the window starts at tick " + fromTick
                        + ", after the trace's end at tick " + declaredEnd);
            }
            this.fromTick = fromTick;
            this.toTick = Math.min(toTick, declaredEnd);
            List<Location> all = defs.locations();
            BitSet seen = new BitSet();
            for (int l : locations == null ? java.util.stream.IntStream.range(0, all.size()).boxed().toList()
                    : List.copyOf(locations)) {
                if (l < 0 || l >= all.size()) {
                    throw new IllegalArgumentException("location " + l + " does not exist (the trace has "
                            + all.size() + " locations, 0 to " + (all.size() - 1) + ")");
                }
                if (!seen.get(l)) {
                    seen.set(l);
                    chosen.add(all.get(l));
                }
            }
            parallel = new boolean[defs.regions().size()];
            for (Region r : defs.regions()) {
                parallel[r.id()] = r.role() == RegionRole.PARALLEL;
            }
            master = defs.masterLocationByRank();
            drop = new BitSet[all.size()];
            forkAtStart = new int[all.size()];
            joinsAtEnd = new int[all.size()];
            lockOrder = new Int2IntOpenHashMap[all.size()];
        }

        Summary write(Path directory) throws IOException {
            int[][] openAtStart = new int[defs.locations().size()][];
            boolean anyParallel = false;
            for (boolean p : parallel) {
                anyParallel |= p;
            }
            if (anyParallel) {
                // the team size of a fork open at the window's start: the rank's threads inside a parallel region
                for (Location l : defs.locations()) {
                    try (LocationReader r = source.openLocation(l.index(), fromTick)) {
                        openAtStart[l.index()] = r.openRegions();
                    }
                }
            }
            EventBatch b = new EventBatch(4096);
            for (Location l : chosen) {
                scan(l, b, openAtStart);
            }
            matchMessages();
            matchCollectives();
            renumberLocks();

            long[] droppedByKind = new long[KINDS];
            long[] written = new long[defs.locations().size()];
            long[] added = new long[defs.locations().size()];
            long[] droppedBy = new long[defs.locations().size()];
            long[] counts = new long[7]; // in the window, enter, leave at end, leave unclosed, forks, joins, program
            try (Otf2Writer w = new Otf2Writer(directory)) {
                EventBatch out = new EventBatch(4096);
                for (Location l : chosen) {
                    copy(l, b, out, w, droppedByKind, written, added, droppedBy, counts);
                }
                w.finish(defs);
            }
            return new Summary(fromTick, toTick, chosen.size(), Arrays.stream(written).sum(), counts[0], counts[1], counts[2], counts[3],
                    counts[4], counts[5], counts[6], messagesKept, collectivesKept, seek, droppedByKind, written, added,
                    droppedBy);
        }

        private boolean isMaster(Location l) {
            return l.rank() >= 0 && l.rank() < master.length && master[l.rank()] == l.index();
        }

        private static boolean hasParallel(int[] stack, boolean[] parallel) {
            if (stack != null) {
                for (int r : stack) {
                    if (r >= 0 && r < parallel.length && parallel[r]) {
                        return true;
                    }
                }
            }
            return false;
        }

        /**
         * First pass over a location: notes every record that belongs to an operation with other parts (marked to
         * drop until its operation is found whole) and what the forks open at the window's edges need.
         */
        private void scan(Location l, EventBatch b, int[][] openAtStart) throws IOException {
            BitSet d = new BitSet();
            drop[l.index()] = d;
            Long2IntOpenHashMap openRequest = new Long2IntOpenHashMap();
            openRequest.defaultReturnValue(-1);
            Int2IntOpenHashMap lockAcquired = new Int2IntOpenHashMap();
            lockAcquired.defaultReturnValue(-1);
            Map<Integer, Integer> collectiveOrdinal = new HashMap<>();
            int pendingBegin = -1;
            int forkDepth = 0;
            boolean forkOpenAtStart = false;
            boolean anyForkRecord = false;
            boolean programOpen = false;
            boolean anyProgramRecord = false;
            int pos = 0;
            try (LocationReader r = seek ? source.openLocation(l.index(), fromTick) : source.openLocation(l.index())) {
                read:
                while (r.next(b)) {
                    for (int i = 0; i < b.size; i++) {
                        long t = b.time[i];
                        if (t > toTick) {
                            break read;
                        }
                        byte k = b.kind[i];
                        boolean in = t >= fromTick;
                        if (!in) {
                            // before the window (only when reading from the start): the order of each envelope
                            // and communicator counts from the trace's start
                            if (k == EventKind.MPI_SEND_CODE || k == EventKind.MPI_ISEND_CODE
                                    || k == EventKind.MPI_RECV_CODE || k == EventKind.MPI_IRECV_CODE) {
                                boolean send = k == EventKind.MPI_SEND_CODE || k == EventKind.MPI_ISEND_CODE;
                                int e = envelope(b, i, l.rank(), send);
                                if (e >= 0) {
                                    envelopeCounts.get(e)[send ? 4 : 5]++;
                                }
                            } else if (k == EventKind.MPI_COLLECTIVE_END_CODE) {
                                collectiveOrdinal.merge(b.comm[i], 1, Integer::sum);
                            }
                            continue;
                        }
                        switch (k) {
                            case EventKind.MPI_SEND_CODE, EventKind.MPI_RECV_CODE -> {
                                d.set(pos);
                                endpoint(l, b, i, pos, k == EventKind.MPI_SEND_CODE, -1);
                            }
                            case EventKind.MPI_ISEND_CODE -> {
                                d.set(pos);
                                int rq = request(l, pos, -1);
                                openRequest.put(b.aux[i], rq);
                                endpoint(l, b, i, pos, true, rq);
                            }
                            case EventKind.MPI_IRECV_REQUEST_CODE -> {
                                d.set(pos);
                                openRequest.put(b.aux[i], request(l, pos, -1));
                            }
                            case EventKind.MPI_ISEND_COMPLETE_CODE -> {
                                d.set(pos);
                                int rq = openRequest.remove(b.aux[i]);
                                if (rq >= 0) {
                                    rqEnd.set(rq, pos);
                                }
                            }
                            case EventKind.MPI_IRECV_CODE -> {
                                d.set(pos);
                                int rq = openRequest.remove(b.aux[i]);
                                if (rq >= 0) {
                                    rqEnd.set(rq, pos);
                                } else {
                                    rq = request(l, -1, pos); // its start lies before the window
                                }
                                endpoint(l, b, i, pos, false, rq);
                            }
                            case EventKind.MPI_REQUEST_TEST_CODE, EventKind.MPI_REQUEST_CANCELLED_CODE -> {
                                d.set(pos);
                                int rq = openRequest.get(b.aux[i]);
                                if (rq >= 0) {
                                    rqTests.add(rq);
                                    rqTests.add(pos);
                                }
                            }
                            case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> {
                                d.set(pos);
                                pendingBegin = pos;
                            }
                            case EventKind.MPI_COLLECTIVE_END_CODE -> {
                                d.set(pos);
                                int comm = b.comm[i];
                                int ordinal = collectiveOrdinal.merge(comm, 1, Integer::sum) - 1;
                                int c = coLoc.size();
                                coLoc.add(l.index());
                                coBegin.add(pendingBegin);
                                coEnd.add(pos);
                                coOrdinal.add(ordinal);
                                coTime.add(t);
                                long key = ((long) comm << 32) | (l.rank() & 0xffffffffL);
                                coByMember.computeIfAbsent(key, x -> new IntArrayList()).add(c);
                                coLocation.merge(key, l.index(), (a, x) -> a.equals(x) ? a : -2);
                                pendingBegin = -1;
                            }
                            case EventKind.PROGRAM_BEGIN_CODE -> {
                                anyProgramRecord = true;
                                programOpen = true;
                            }
                            case EventKind.PROGRAM_END_CODE -> {
                                if (!anyProgramRecord) {
                                    programAtStart.set(l.index());
                                }
                                anyProgramRecord = true;
                                programOpen = false;
                            }
                            case EventKind.THREAD_FORK_CODE -> {
                                anyForkRecord = true;
                                forkDepth++;
                            }
                            case EventKind.THREAD_JOIN_CODE -> {
                                if (!anyForkRecord && forkDepth == 0) {
                                    forkOpenAtStart = true;
                                } else if (forkDepth > 0) {
                                    forkDepth--;
                                }
                                anyForkRecord = true;
                            }
                            case EventKind.THREAD_ACQUIRE_LOCK_CODE -> {
                                d.set(pos);
                                lockAcquired.put(b.ref[i], pos);
                            }
                            case EventKind.THREAD_RELEASE_LOCK_CODE -> {
                                d.set(pos);
                                int a = lockAcquired.remove(b.ref[i]);
                                if (a >= 0) {
                                    d.clear(a);
                                    d.clear(pos);
                                    locks.add(l.index());
                                    locks.add(a);
                                    locks.add(pos);
                                    locks.add(l.rank());
                                    locks.add(b.ref[i]);
                                    locks.add(b.aux[i]);
                                }
                            }
                            default -> {
                            }
                        }
                        pos++;
                    }
                }
            }
            if (!anyForkRecord && isMaster(l) && hasParallel(openAtStart[l.index()], parallel)) {
                forkOpenAtStart = true; // the whole window lies inside one parallel region
                forkDepth = 1;
            }
            if (forkOpenAtStart) {
                // the size the fork requested is before the window: the rank's threads inside a parallel region
                // at the window's start (all of the rank's CPU threads when none is, between fork and region)
                int inside = 0;
                int threads = 0;
                for (Location x : defs.locations()) {
                    if (x.rank() == l.rank() && x.type() == LocationType.CPU_THREAD) {
                        threads++;
                        inside += hasParallel(openAtStart[x.index()], parallel) ? 1 : 0;
                    }
                }
                forkAtStart[l.index()] = Math.max(1, inside > 0 ? inside : threads);
            }
            joinsAtEnd[l.index()] = forkDepth;
            programAtEnd.set(l.index(), programOpen);
        }

        private int request(Location l, int start, int end) {
            rqLoc.add(l.index());
            rqStart.add(start);
            rqEnd.add(end);
            return rqLoc.size() - 1;
        }

        /**
         * The id of a point-to-point record's envelope (communicator, sender rank, receiver rank, tag), its record
         * in {@link #envelopeCounts} ({comm, sender, receiver, tag, sends so far, receives so far}); -1 when the
         * record names no member of a defined communicator.
         */
        private int envelope(EventBatch b, int i, int myRank, boolean send) {
            int comm = b.comm[i];
            int peer = b.ref[i];
            if (comm < 0 || comm >= defs.communicators().size()) {
                return -1;
            }
            int[] members = defs.communicator(comm).members();
            if (peer < 0 || peer >= members.length) {
                return -1;
            }
            int src = send ? myRank : members[peer];
            int dst = send ? members[peer] : myRank;
            int tag = b.tag[i];
            long key = (((long) comm * 1_000_003L + src) * 1_000_003L + dst) * 1_000_003L + tag;
            while (true) {
                Integer id = envelopes.get(key);
                if (id == null) {
                    envelopes.put(key, envelopeCounts.size());
                    envelopeCounts.add(new long[] {comm, src, dst, tag, 0, 0});
                    return envelopeCounts.size() - 1;
                }
                long[] e = envelopeCounts.get(id);
                if (e[0] == comm && e[1] == src && e[2] == dst && e[3] == tag) {
                    return id;
                }
                key++; // two envelopes with one key: probe on
            }
        }

        private void endpoint(Location l, EventBatch b, int i, int pos, boolean send, int request) {
            int env = envelope(b, i, l.rank(), send);
            if (env < 0) {
                return; // names no communicator member: never matched, stays dropped
            }
            int n = epLoc.size();
            epLoc.add(l.index());
            epPos.add(pos);
            epEnvelope.add(env);
            epOrdinal.add((int) envelopeCounts.get(env)[send ? 4 : 5]++);
            epTime.add(b.time[i]);
            epSend.set(n, send);
            epRequest.add(request);
        }

        /** A non-blocking endpoint counts only when its request's start and completion are both in the window. */
        private boolean whole(int ep) {
            int rq = epRequest.getInt(ep);
            return rq < 0 || rqStart.getInt(rq) >= 0 && rqEnd.getInt(rq) >= 0;
        }

        private void keep(int loc, int pos) {
            if (pos >= 0) {
                drop[loc].clear(pos);
            }
        }

        /**
         * Pairs the sends and receives of each envelope, the k-th send with the k-th receive (MPI's non-overtaking
         * order), and keeps the pairs whose both ends are whole in the window. Read from the window's start, the
         * leading receives of messages sent before the window are skipped: per envelope the number of them is the
         * one (at most {@link #MAX_IN_FLIGHT}) that gives the smallest mean |receive time - send time|, as the
         * Perfetto export does.
         */
        private void matchMessages() {
            int envs = envelopeCounts.size();
            List<IntArrayList> sends = new ArrayList<>();
            List<IntArrayList> recvs = new ArrayList<>();
            for (int e = 0; e < envs; e++) {
                sends.add(new IntArrayList());
                recvs.add(new IntArrayList());
            }
            for (int ep = 0; ep < epLoc.size(); ep++) {
                (epSend.get(ep) ? sends : recvs).get(epEnvelope.getInt(ep)).add(ep);
            }
            // request id -> tests, for keeping them with their request
            Map<Integer, IntArrayList> tests = new HashMap<>();
            for (int i = 0; i < rqTests.size(); i += 2) {
                tests.computeIfAbsent(rqTests.getInt(i), x -> new IntArrayList()).add(rqTests.getInt(i + 1));
            }
            for (int e = 0; e < envs; e++) {
                IntArrayList s = sends.get(e);
                IntArrayList r = recvs.get(e);
                if (s.isEmpty() || r.isEmpty()) {
                    continue;
                }
                Map<Integer, Integer> recvByOrdinal = new HashMap<>();
                int shift = seek ? shift(times(s), times(r)) : 0;
                for (int j = 0; j < r.size(); j++) {
                    recvByOrdinal.put(epOrdinal.getInt(r.getInt(j)) - shift, r.getInt(j));
                }
                for (int j = 0; j < s.size(); j++) {
                    int se = s.getInt(j);
                    Integer re = recvByOrdinal.get(epOrdinal.getInt(se));
                    if (re == null || !whole(se) || !whole(re)) {
                        continue;
                    }
                    messagesKept++;
                    for (int ep : new int[] {se, re}) {
                        keep(epLoc.getInt(ep), epPos.getInt(ep));
                        int rq = epRequest.getInt(ep);
                        if (rq >= 0) {
                            keep(rqLoc.getInt(rq), rqStart.getInt(rq));
                            keep(rqLoc.getInt(rq), rqEnd.getInt(rq));
                            IntArrayList ts = tests.get(rq);
                            if (ts != null) {
                                for (int p : ts) {
                                    keep(rqLoc.getInt(rq), p);
                                }
                            }
                        }
                    }
                }
            }
        }

        private long[] times(IntArrayList eps) {
            long[] t = new long[eps.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = epTime.getLong(eps.getInt(i));
            }
            return t;
        }

        /**
         * How many leading entries of {@code later} belong to operations begun before the window: the shift {@code
         * c} (at most {@link #MAX_IN_FLIGHT}) pairing {@code earlier[i]} with {@code later[i + c]} at the smallest mean
         * |time difference|, the smaller on a tie. A wrong shift moves every pair by whole intervals between
         * operations, so it is exact when those intervals exceed the transfer times and clock skews.
         */
        private static int shift(long[] earlier, long[] later) {
            int best = 0;
            double bestCost = Double.POSITIVE_INFINITY;
            for (int c = 0; c < later.length && c <= MAX_IN_FLIGHT; c++) {
                int n = Math.min(earlier.length, later.length - c);
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += Math.abs((double) (later[i + c] - earlier[i]));
                }
                double cost = sum / n;
                if (cost < bestCost) {
                    bestCost = cost;
                    best = c;
                }
            }
            return best;
        }

        /**
         * Keeps the collective operations every rank of whose communicator has in the window, begin and end, on a
         * chosen location: the k-th operation on a communicator is the k-th on each of its ranks (counted from the
         * trace's start, or when seeking from the window's start, each rank's leading operations begun before the
         * others' first one in the window recognised by time).
         */
        private void matchCollectives() {
            for (Communicator c : defs.communicators()) {
                int[] members = c.members();
                if (members.length == 0 || Arrays.stream(members).distinct().count() != members.length) {
                    continue; // not an MPI communicator of distinct ranks: no MPI collective can be whole
                }
                IntArrayList[] inst = new IntArrayList[members.length];
                boolean complete = true;
                for (int m = 0; m < members.length && complete; m++) {
                    long key = ((long) c.id() << 32) | (members[m] & 0xffffffffL);
                    inst[m] = coByMember.get(key);
                    complete = inst[m] != null && coLocation.get(key) >= 0;
                }
                if (!complete) {
                    continue;
                }
                int[] shift = new int[members.length];
                int ref = 0;
                if (seek) {
                    // the rank whose first operation in the window ends last has the fewest begun before it
                    for (int m = 1; m < members.length; m++) {
                        if (coTime.getLong(inst[m].getInt(0)) > coTime.getLong(inst[ref].getInt(0))) {
                            ref = m;
                        }
                    }
                    long[] refTimes = coTimes(inst[ref]);
                    for (int m = 0; m < members.length; m++) {
                        shift[m] = m == ref ? 0 : shift(refTimes, coTimes(inst[m]));
                    }
                }
                IntArrayList refList = inst[ref];
                for (int j = 0; j < refList.size(); j++) {
                    int aligned = coOrdinal.getInt(refList.getInt(j)) - shift[ref];
                    int[] found = new int[members.length];
                    boolean whole = true;
                    for (int m = 0; m < members.length && whole; m++) {
                        IntArrayList li = inst[m];
                        int idx = aligned + shift[m] - coOrdinal.getInt(li.getInt(0));
                        whole = idx >= 0 && idx < li.size() && coBegin.getInt(li.getInt(idx)) >= 0;
                        found[m] = whole ? li.getInt(idx) : -1;
                    }
                    if (whole) {
                        collectivesKept++;
                        for (int x : found) {
                            keep(coLoc.getInt(x), coBegin.getInt(x));
                            keep(coLoc.getInt(x), coEnd.getInt(x));
                        }
                    }
                }
            }
        }

        /**
         * Numbers the acquisitions kept of each lock of a rank 1, 2, ... in their original order. OpenMP's
         * acquisition order counts every acquisition of a lock in the process from 1 (Score-P), and Scalasca's lock
         * analysis waits for the release of acquisition k - 1 before it takes k: left as they were, the first
         * acquisition in the window would wait for one outside it.
         */
        private void renumberLocks() {
            int n = locks.size() / 6;
            Integer[] idx = new Integer[n];
            for (int i = 0; i < n; i++) {
                idx[i] = i;
            }
            Arrays.sort(idx, java.util.Comparator.<Integer>comparingLong(i -> locks.getLong(6 * i + 3))
                    .thenComparingLong(i -> locks.getLong(6 * i + 4)).thenComparingLong(i -> locks.getLong(6 * i + 5)));
            int order = 0;
            for (int j = 0; j < n; j++) {
                int i = idx[j];
                boolean sameLock = j > 0 && locks.getLong(6 * idx[j - 1] + 3) == locks.getLong(6 * i + 3)
                        && locks.getLong(6 * idx[j - 1] + 4) == locks.getLong(6 * i + 4);
                order = sameLock ? order + 1 : 1;
                int loc = (int) locks.getLong(6 * i);
                if (lockOrder[loc] == null) {
                    lockOrder[loc] = new Int2IntOpenHashMap();
                }
                lockOrder[loc].put((int) locks.getLong(6 * i + 1), order);
                lockOrder[loc].put((int) locks.getLong(6 * i + 2), order);
            }
        }

        private long[] coTimes(IntArrayList inst) {
            long[] t = new long[inst.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = coTime.getLong(inst.getInt(i));
            }
            return t;
        }

        /** Second pass over a location: writes its window, records of incomplete operations left out, edges closed. */
        private void copy(Location l, EventBatch b, EventBatch out, Otf2Writer w, long[] droppedByKind,
                          long[] written, long[] added, long[] droppedBy, long[] counts) throws IOException {
            BitSet d = drop[l.index()];
            int li = l.index();
            out.clear();
            int[] stack;
            int depth;
            long last = Long.MIN_VALUE;
            boolean beyond = false;
            int pos = 0;
            int joins = joinsAtEnd[li];
            try (LocationReader r = source.openLocation(li, fromTick)) {
                if (!r.next(b) || d == null) {
                    return; // no record at or after the window's start: the location has ended
                }
                int[] open = r.openRegions();
                stack = Arrays.copyOf(open, Math.max(16, open.length * 2));
                depth = open.length;
                if (programAtStart.get(li)) {
                    out.add(fromTick, EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
                    counts[6]++;
                    added[li]++;
                }
                {
                    boolean forked = forkAtStart[li] == 0;
                    for (int k = 0; k < depth; k++) {
                        if (!forked && parallel[stack[k]]) {
                            out.add(fromTick, EventKind.THREAD_FORK_CODE, forkAtStart[li], Paradigm.OPENMP.code(), 0, 0, 0);
                            forked = true;
                            counts[4]++;
                            added[li]++;
                        }
                        out.add(fromTick, EventKind.ENTER_CODE, stack[k], 0, 0, 0, 0);
                        counts[1]++;
                        added[li]++;
                    }
                    if (!forked) {
                        out.add(fromTick, EventKind.THREAD_FORK_CODE, forkAtStart[li], Paradigm.OPENMP.code(), 0, 0, 0);
                        counts[4]++;
                        added[li]++;
                    }
                }
                read:
                do {
                    for (int i = 0; i < b.size; i++) {
                        long t = b.time[i];
                        if (t > toTick) {
                            beyond = true;
                            break read;
                        }
                        byte k = b.kind[i];
                        counts[0]++;
                        if (d.get(pos++)) {
                            droppedByKind[k]++;
                            droppedBy[li]++;
                            continue;
                        }
                        if (k == EventKind.ENTER_CODE) {
                            if (depth == stack.length) {
                                stack = Arrays.copyOf(stack, depth * 2);
                            }
                            stack[depth++] = b.ref[i];
                        } else if (k == EventKind.LEAVE_CODE && depth > 0) {
                            depth--;
                        }
                        last = t;
                        long aux = b.aux[i];
                        if ((k == EventKind.THREAD_ACQUIRE_LOCK_CODE || k == EventKind.THREAD_RELEASE_LOCK_CODE)
                                && lockOrder[li] != null && lockOrder[li].containsKey(pos - 1)) {
                            aux = lockOrder[li].get(pos - 1);
                        }
                        out.add(t, k, b.ref[i], b.comm[i], b.tag[i], b.bytes[i], aux);
                        if (out.size == out.capacity()) {
                            flush(w, li, out, written);
                        }
                    }
                } while (r.next(b));
            }
            // close what is still open: at the window's end, or at the last record of a stream that ends inside it
            long end = beyond ? toTick : Math.max(last, fromTick);
            boolean parallelOpen = false;
            for (int k = 0; k < depth; k++) {
                parallelOpen |= parallel[stack[k]];
            }
            if (!parallelOpen) {
                joins = addJoins(out, li, end, joins, added, counts);
            }
            while (depth > 0) {
                int region = stack[--depth];
                out.add(end, EventKind.LEAVE_CODE, region, 0, 0, 0, 0);
                counts[beyond ? 2 : 3]++;
                added[li]++;
                if (parallel[region]) {
                    boolean outer = true;
                    for (int k = 0; k < depth; k++) {
                        outer &= !parallel[stack[k]];
                    }
                    if (outer) {
                        joins = addJoins(out, li, end, joins, added, counts);
                    }
                }
            }
            addJoins(out, li, end, joins, added, counts);
            if (programAtEnd.get(li)) {
                // the exit status is not known inside the window: 0
                out.add(end, EventKind.PROGRAM_END_CODE, 0, 0, 0, 0, 0);
                counts[6]++;
                added[li]++;
            }
            flush(w, li, out, written);
        }

        private static int addJoins(EventBatch out, int li, long t, int joins, long[] added, long[] counts) {
            for (int j = 0; j < joins; j++) {
                out.add(t, EventKind.THREAD_JOIN_CODE, 0, Paradigm.OPENMP.code(), 0, 0, 0);
                counts[5]++;
                added[li]++;
            }
            return 0;
        }

        private static void flush(Otf2Writer w, int li, EventBatch out, long[] written) throws IOException {
            if (out.size > 0) {
                w.append(li, out);
                written[li] += out.size;
                out.clear();
            }
        }
    }
}
