package dev.straggler.replay;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The replay of a whole trace: every location's stream is read once, in parallel over locations, into
 * {@link LocationData}; the call trees are merged into one {@link CallTree}; point-to-point and collective
 * records are indexed for matching. Only communication records are kept across locations, so a trace larger
 * than memory can be replayed as long as its communication fits.
 *
 * <p>The result is identical for any thread count: locations are merged in location order. Immutable.
 */
public final class Replay {
    private final TraceSource source;
    private final TraceDefinitions defs;
    private final RegionTable regions;
    private final List<LocationData> locations;
    private final CallTree callTree;
    private final int[] locationOfRank;
    private final MessageMatching messages;
    private final CollectiveMatching collectives;
    private final TeamManagement management;
    /** Set when the replay dropped the marks ({@link #marksDropped}); -1 otherwise. */
    private long projectedMarks = -1;
    private long projectedOpenMpMarks = -1;
    private double shareReadWhenDropped;
    /** Per location, its team's master when it is a worker thread ({@link #teamMasters}), else -1. */
    private final int[] teamMaster;

    private Replay(TraceSource source, TraceDefinitions defs, RegionTable regions, List<LocationData> locations,
                   CallTree callTree, int[] locationOfRank, MessageMatching messages, CollectiveMatching collectives,
                   TeamManagement management) {
        this.management = management;
        this.source = source;
        this.defs = defs;
        this.regions = regions;
        this.locations = locations;
        this.callTree = callTree;
        this.locationOfRank = locationOfRank;
        this.messages = messages;
        this.collectives = collectives;
        this.teamMaster = teamMasters(defs, locationOfRank);
    }

    /** The master location of a worker thread's team, -1 for any other location. */
    public int teamMasterOf(int location) {
        return teamMaster[location];
    }

    /**
     * The CPU threads of each process in rank order: its master location first, then the workers of its team
     * ({@link #teamMasters}) in thread order; a process without workers is its master alone.
     */
    public List<LocationData[]> teams() {
        return teams(locations, teamMaster, locationOfRank);
    }

    /**
     * As {@link #teams()} among some locations ({@code held}, e.g. those one task of a distributed engine holds):
     * each process whose master is among them, with its workers among them in thread order.
     *
     * @param teamMaster per location of the trace its team's master ({@link #teamMasters}), -1 for none
     */
    public static List<LocationData[]> teams(java.util.Collection<LocationData> held, int[] teamMaster,
                                             int[] locationOfRank) {
        java.util.Map<Integer, LocationData> masters = new java.util.HashMap<>();
        java.util.Map<Integer, java.util.List<LocationData>> byMaster = new java.util.HashMap<>();
        for (LocationData d : held) {
            int master = teamMaster[d.location()];
            if (master >= 0) {
                byMaster.computeIfAbsent(master, k -> new java.util.ArrayList<>()).add(d);
            } else {
                masters.put(d.location(), d);
            }
        }
        java.util.List<LocationData[]> out = new java.util.ArrayList<>();
        for (int m : locationOfRank) {
            LocationData master = m < 0 ? null : masters.get(m);
            if (master == null) {
                continue;
            }
            java.util.List<LocationData> workers = byMaster.getOrDefault(m, java.util.List.of());
            LocationData[] team = new LocationData[workers.size() + 1];
            team[0] = master;
            int i = 1;
            for (LocationData w : workers.stream().sorted(java.util.Comparator.comparingInt(LocationData::thread))
                    .toList()) {
                team[i++] = w;
            }
            out.add(team);
        }
        return out;
    }

    /**
     * Replays a trace on a pool of {@code options.threads()} threads.
     *
     * @throws IOException when a location cannot be read (the message names the trace and the location)
     */
    public static Replay run(TraceSource source, ReplayOptions options) throws IOException {
        ExecutorService pool = Pools.fixed(options.threads(), "replay");
        try {
            return run(source, options, pool);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Replays on a caller-provided pool (which stays open). */
    public static Replay run(TraceSource source, ReplayOptions options, ExecutorService pool) throws IOException {
        TraceDefinitions defs = source.definitions();
        RegionTable regions = RegionTable.of(defs);
        int[] locationOfRank = defs.masterLocationByRank();
        int n = defs.locations().size();
        long totalEvents = declaredEvents(defs);
        AtomicLong done = new AtomicLong();
        boolean pipelined = options.reading().pipelines(options.threads(), n, Runtime.getRuntime().availableProcessors());
        CollectiveMatching collectives = new CollectiveMatching(defs, locationOfRank, n);
        MessageMatching matching = new MessageMatching(defs, locationOfRank, n);
        // worker threads hang their parallel regions under their master's call stack at each fork, so the masters
        // (and every location without one) are replayed first, then the workers (docs/openmp.md §2)
        int[] teamMaster = teamMasters(defs, locationOfRank);
        int[] first = java.util.stream.IntStream.range(0, n).filter(l -> teamMaster[l] < 0).toArray();
        int[] workers = java.util.stream.IntStream.range(0, n).filter(l -> teamMaster[l] >= 0).toArray();
        LocationData[] byLocation = new LocationData[n];
        MarkBudget budget = markBudget(source, options, totalEvents, n);
        AtomicLong recordRoom = new AtomicLong(options.recordHeap());
        Parallel.map(pool, first.length, i -> {
            int l = first[i];
            LocationData d = replayLocation(source, defs, regions, l, isMaster(defs, locationOfRank, l), options,
                    pipelined, done, totalEvents, null, budget);
            // a location's envelope queues depend on its own records only: build them while they are hot
            matching.index(d);
            collectives.index(d);
            keepOrSpill(d, options, recordRoom, budget);
            byLocation[l] = d;
            return d;
        });
        Parallel.map(pool, workers.length, i -> {
            int l = workers[i];
            LocationData d = replayLocation(source, defs, regions, l, false, options, pipelined, done, totalEvents,
                    byLocation[teamMaster[l]].threads(), budget);
            matching.index(d);
            collectives.index(d);
            keepOrSpill(d, options, recordRoom, budget);
            byLocation[l] = d;
            return d;
        });
        boolean dropped = budget != null && budget.exceeded();
        if (dropped) {
            for (LocationData d : byLocation) {
                d.dropIntervals();
            }
        } else if (budget != null && budget.spillMarks()) {
            // the locations completed before the budget knew (those after moved theirs as they completed)
            for (LocationData d : byLocation) {
                if (d.intervals() != null) {
                    d.intervals().spillMarks(options.spill());
                }
            }
        }
        TeamManagement management = TeamManagement.apply(byLocation, locationOfRank);
        List<LocationData> locations = List.of(byLocation);
        matching.setLocations(locations);
        matching.countUnmatched();
        collectives.build();
        CallTree tree = CallTree.merge(locations);
        Replay replay = new Replay(source, defs, regions, locations, tree, locationOfRank, matching, collectives,
                management);
        if (dropped) {
            replay.projectedMarks = budget.projectedMarks();
            replay.projectedOpenMpMarks = budget.projectedOpenMpMarks();
            replay.shareReadWhenDropped = budget.shareRead();
        }
        return replay;
    }

    /**
     * Keeps a complete location's point-to-point rows on the heap while {@code room} (what is left of
     * {@link ReplayOptions#recordHeap}) holds them, else moves them to the scratch file: the records are what the
     * wait-state analysis keeps for every event that crosses locations, and on 10^9 events they alone would take
     * 11 GB of heap. Its marks go there too once the budget says they fit only there ({@link MarkBudget#spillMarks}).
     */
    private static void keepOrSpill(LocationData d, ReplayOptions options, AtomicLong room, MarkBudget budget) {
        if (options.spill() == null) {
            return;
        }
        long bytes = d.messageRecordHeapBytes();
        if (room.addAndGet(-bytes) < 0) {
            d.spillMessageRecords(options.spill());
        }
        if (budget != null && budget.spillMarks() && !budget.exceeded() && d.intervals() != null) {
            d.intervals().spillMarks(options.spill());
        }
    }

    /**
     * Whether the replay dropped the marks asked for ({@link ReplayOptions#intervals}) because the marks projected
     * for the whole trace would not fit in the heap ({@link ReplayOptions#bytesPerMark}); the root causes cannot
     * be computed then.
     */
    public boolean marksDropped() {
        return projectedMarks >= 0;
    }

    /** With {@link #marksDropped}: the marks the whole trace was projected to need, else -1. */
    public long projectedMarks() {
        return projectedMarks;
    }

    /** Of {@link #projectedMarks}, the OpenMP marks (forks, barriers and joins of threads), -1 as it is. */
    public long projectedOpenMpMarks() {
        return projectedOpenMpMarks;
    }

    /** With {@link #marksDropped}: the share of the trace's events read when the projection was made. */
    public double shareReadWhenDropped() {
        return shareReadWhenDropped;
    }

    /**
     * Reads one location as the replay does, for engines that read locations elsewhere than where they are matched
     * (a Spark task): the same records and profile as {@link #run}, its call paths still local.
     *
     * @param master whether the location is its rank's master location ({@link #isMaster})
     */
    public static LocationData readLocation(TraceSource source, TraceDefinitions defs, RegionTable regions, int l,
                                            boolean master, ReplayOptions options) throws IOException {
        return readLocation(source, defs, regions, l, master, options, null);
    }

    /**
     * As {@link #readLocation(TraceSource, TraceDefinitions, RegionTable, int, boolean, ReplayOptions)} for a worker
     * thread, whose parallel regions hang under its master's call stack at the master's forks ({@code team}: the
     * master's records, read first; null for a location that is no worker), as {@link #run} reads it. The team's
     * management time is not added: {@link TeamManagement#applyTo} does that.
     */
    public static LocationData readLocation(TraceSource source, TraceDefinitions defs, RegionTable regions, int l,
                                            boolean master, ReplayOptions options, ThreadRecords team)
            throws IOException {
        return replayLocation(source, defs, regions, l, master, options, false, new AtomicLong(), 0, team, null);
    }

    /**
     * The marks of the first {@code maxEvents} events (or fewer: whole batches, up to the end) of a location read as
     * its rank's master, for an engine that must judge before reading a trace whether the root causes' marks fit:
     * {@code {events read, marks, the source's records read}} (the last -1 where the source counts none,
     * {@link LocationReader#recordsRead}).
     */
    public static long[] sampleMarks(TraceSource source, TraceDefinitions defs, RegionTable regions, int l,
                                     long maxEvents) throws IOException {
        LocationPass pass = new LocationPass(defs, regions, l, true, true);
        EventBatch batch = threadBatch(ReplayOptions.defaults().batchSize());
        long events = 0;
        long records;
        try (LocationReader r = source.openLocation(l)) {
            while (events < maxEvents && r.next(batch)) {
                pass.accept(batch);
                events += batch.size;
            }
            records = r.recordsRead();
        }
        return new long[]{events, pass.marks(), records};
    }

    /**
     * The OpenMP records of some locations, for an engine that analyses a few processes' threads apart from the rest
     * of the trace (a Spark task): a replay whose locations are those of {@code defs} (location {@code i} holding
     * {@code threads.get(i)} and mapping its call paths by {@code localToGlobal.get(i)}), with the team management
     * {@link #run} computes from those records, not added to any profile (the engine added it where it read the
     * locations, {@link TeamManagement#applyTo}). It answers {@link #definitions}, {@link #regions},
     * {@link #locations} (ids, {@link LocationData#threads()}, {@link LocationData#globalCallPath}) and
     * {@link #teamManagement}: its locations have no profile entries and no communication records, and it has no
     * call tree, trace source or matching.
     */
    public static Replay threadLevel(TraceDefinitions defs, List<ThreadRecords> threads, List<int[]> localToGlobal) {
        int n = defs.locations().size();
        if (threads.size() != n || localToGlobal.size() != n) {
            throw new IllegalArgumentException(n + " locations, " + threads.size() + " thread records and "
                    + localToGlobal.size() + " call-path maps");
        }
        LocationData[] byLocation = new LocationData[n];
        for (int l = 0; l < n; l++) {
            var loc = defs.location(l);
            LocationData d = new LocationData(l, loc.rank(), loc.thread(), new LocationProfile(), new SendTable(),
                    new RecvTable(), new CollectiveTable(), null, threads.get(l), 0,
                    new long[Anomaly.values().length], 0, 0, 0, 0, -1, 0, 0, -1);
            d.setLocalToGlobal(localToGlobal.get(l));
            byLocation[l] = d;
        }
        int[] locationOfRank = defs.masterLocationByRank();
        return new Replay(null, defs, RegionTable.of(defs), List.of(byLocation), null, locationOfRank, null, null,
                TeamManagement.compute(byLocation, locationOfRank));
    }

    /** True when location {@code l} is the master location of its rank (the one MPI matching uses). */
    public static boolean isMaster(TraceDefinitions defs, int[] locationOfRank, int l) {
        int rank = defs.location(l).rank();
        return rank >= 0 && rank < locationOfRank.length && locationOfRank[rank] == l;
    }

    /** The heap per mark with the marks in the scratch file, when there is one; else 0. */
    private static long spilled(ReplayOptions options) {
        return options.spill() != null ? options.spilledBytesPerMark() : 0;
    }

    /**
     * The budget of the marks kept for the root causes ({@link ReplayOptions#bytesPerMark}): on the declared events,
     * else on the source's declared records; null when no marks are kept, no limit is asked for, or the source
     * declares neither.
     */
    private static MarkBudget markBudget(TraceSource source, ReplayOptions options, long declaredEvents, int n) {
        if (!options.intervals() || options.bytesPerMark() == 0) {
            return null;
        }
        if (declaredEvents > 0) {
            return new MarkBudget(declaredEvents, options.markHeap(), options.bytesPerMark(), spilled(options));
        }
        long[] records = source.declaredRecords();
        return records != null && records.length == n
                ? MarkBudget.ofRecords(records, options.markHeap(), options.bytesPerMark(), spilled(options)) : null;
    }

    /** The events the definitions declare for all locations, -1 when any location's are not declared. */
    public static long declaredEvents(TraceDefinitions defs) {
        long total = 0;
        for (var l : defs.locations()) {
            if (l.events() < 0) {
                return -1;
            }
            total += l.events();
        }
        return total;
    }

    /**
     * Per location, the location of its process's master thread when it is another CPU thread of that process (a
     * worker whose parallel regions belong to the master's forks), else -1. Accelerator streams and metric
     * locations are no team members.
     */
    public static int[] teamMasters(TraceDefinitions defs, int[] locationOfRank) {
        int n = defs.locations().size();
        int[] out = new int[n];
        for (int l = 0; l < n; l++) {
            var loc = defs.location(l);
            int rank = loc.rank();
            int m = rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
            boolean cpu = loc.type() == dev.straggler.trace.LocationType.CPU_THREAD;
            out[l] = cpu && m >= 0 && m != l ? m : -1;
        }
        return out;
    }

    static LocationData replayLocation(TraceSource source, TraceDefinitions defs, RegionTable regions, int l,
                                       boolean master, ReplayOptions options, boolean pipelined, AtomicLong done,
                                       long total, ThreadRecords team, MarkBudget budget) throws IOException {
        // once the budget is exceeded, locations replayed from then on keep no marks (those in flight finish theirs,
        // which the replay drops at its end: a mark's Leave is patched after it is made, so a pass cannot stop halfway)
        LocationPass pass = new LocationPass(defs, regions, l, master,
                options.intervals() && (budget == null || !budget.exceeded()));
        if (team != null) {
            pass.joinTeamOf(team);
        }
        try {
            read(source, l, pass, options, pipelined, done, total, budget);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(source.origin() + ": location ")) {
                throw e; // already says where
            }
            String where = source.origin() + ": location " + l + " (rank " + defs.location(l).rank() + "): ";
            throw e instanceof TraceFormatException ? new TraceFormatException(where + e.getMessage(), e)
                    : new IOException(where + e.getMessage(), e);
        }
        LocationData d = pass.finish();
        if (budget != null) {
            budget.locationDone(l, d.events());
        }
        return d;
    }

    /**
     * The second pass of the root-cause analysis over one location: reads its events again and returns its
     * interval times, closed at the given marks (its synchronisation points) and at receive requests. The marks are
     * those of {@link LocationData#intervals()}, found again in the same order.
     */
    public CallPathIntervals intervalTimes(int location, BitSet closingMarks) throws IOException {
        return intervalTimes(location, closingMarks, null, null);
    }

    /**
     * As {@link #intervalTimes(int, BitSet)}; the entries' call paths are written as {@code entryPaths} of the
     * local ones (null: local), and a large location's entries go to {@code spill} (null: all on the heap; see
     * {@link IntervalEntries}).
     */
    public CallPathIntervals intervalTimes(int location, BitSet closingMarks, SpillFile spill,
                                           java.util.function.IntUnaryOperator entryPaths) throws IOException {
        LocationData d = locations.get(location);
        int master = teamMaster[location];
        return intervalTimes(source, defs, regions, d, closingMarks,
                local -> callTree.creationId(d.globalCallPath(local)),
                master >= 0 ? locations.get(master).threads() : null, spill, entryPaths);
    }

    /**
     * As {@link #intervalTimes(int, BitSet)} for a location whose first pass ({@code d}, marks kept) was made
     * elsewhere: only the call stack is replayed again ({@link IntervalPass}), the marks are found by their
     * positions in the stream. {@code cnodeOf} gives Scalasca's call-path id of a local call path of the location
     * (the unified tree's creation id), which decides what a full interval map keeps.
     */
    public static CallPathIntervals intervalTimes(TraceSource source, TraceDefinitions defs, RegionTable regions,
                                                  LocationData d, BitSet closingMarks,
                                                  java.util.function.IntUnaryOperator cnodeOf) throws IOException {
        return intervalTimes(source, defs, regions, d, closingMarks, cnodeOf, null);
    }

    /**
     * As above; {@code team} is, for a worker thread, its master's {@link ThreadRecords} (its parallel regions hang
     * under the master's forks), null for any other location.
     */
    public static CallPathIntervals intervalTimes(TraceSource source, TraceDefinitions defs, RegionTable regions,
                                                  LocationData d, BitSet closingMarks,
                                                  java.util.function.IntUnaryOperator cnodeOf, ThreadRecords team)
            throws IOException {
        return intervalTimes(source, defs, regions, d, closingMarks, cnodeOf, team, null, null);
    }

    /**
     * As above; the entries' call paths are written as {@code entryPaths} of the local ones (null: local), and a
     * large location's entries go to {@code spill} (null: all on the heap; see {@link IntervalEntries}).
     */
    public static CallPathIntervals intervalTimes(TraceSource source, TraceDefinitions defs, RegionTable regions,
                                                  LocationData d, BitSet closingMarks,
                                                  java.util.function.IntUnaryOperator cnodeOf, ThreadRecords team,
                                                  SpillFile spill, java.util.function.IntUnaryOperator entryPaths)
            throws IOException {
        if (d.intervals() == null) {
            throw new IllegalArgumentException("location " + d.location() + " was read without marks");
        }
        IntervalPass pass = new IntervalPass(d, closingMarks, defs.clock(), regions, cnodeOf, team, spill,
                entryPaths);
        EventBatch batch = threadBatch(ReplayOptions.defaults().batchSize());
        // only the call stack is replayed: the store need not decode the message columns
        try (LocationReader r = source.openCallStack(d.location())) {
            while (r.next(batch)) {
                pass.accept(batch);
            }
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(source.origin() + ": location ")) {
                throw e;
            }
            throw new IOException(source.origin() + ": location " + d.location() + " (rank " + d.rank() + "): "
                    + e.getMessage(), e);
        }
        return pass.finish();
    }

    /**
     * As {@link #intervalTimes(int, BitSet)}, for a location read from {@code source} outside a replay (a
     * distributed engine's task), repeating the whole first pass; the overload taking the location's
     * {@link LocationData} replays only the call stack.
     */
    public static CallPathIntervals intervalTimes(TraceSource source, TraceDefinitions defs, RegionTable regions,
                                                  int location, BitSet closingMarks) throws IOException {
        return intervalTimes(source, defs, regions, location, closingMarks,
                java.util.function.IntUnaryOperator.identity());
    }

    /**
     * As {@link #intervalTimes(int, BitSet)}; {@code cnodeOf} gives Scalasca's call-path id of a local call path of
     * the location (the unified tree's creation id), which decides what a full interval map keeps.
     */
    public static CallPathIntervals intervalTimes(TraceSource source, TraceDefinitions defs, RegionTable regions,
                                                  int location, BitSet closingMarks,
                                                  java.util.function.IntUnaryOperator cnodeOf) throws IOException {
        CallPathIntervals iv = new CallPathIntervals(defs.clock(), closingMarks, cnodeOf);
        LocationPass pass = new LocationPass(defs, regions, location, true, iv);
        ReplayOptions direct = ReplayOptions.defaults().withThreads(1);
        try {
            read(source, location, pass, direct, false, new AtomicLong(), 0, null);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(source.origin() + ": location ")) {
                throw e;
            }
            throw new IOException(source.origin() + ": location " + location + " (rank "
                    + defs.location(location).rank() + "): " + e.getMessage(), e);
        }
        pass.finish();
        return iv;
    }

    private static void read(TraceSource source, int l, LocationPass pass, ReplayOptions options, boolean pipelined,
                             AtomicLong done, long total, MarkBudget budget) throws IOException {
        int[] marks = {0, 0};
        if (pipelined) {
            try (PipelinedReader r = new PipelinedReader(source, l, options.batchSize())) {
                r.drain(b -> {
                    pass.accept(b);
                    options.progress().update("read", done.addAndGet(b.size), total);
                    noteMarks(budget, pass, b.size, marks);
                });
            }
        } else {
            EventBatch batch = threadBatch(options.batchSize());
            try (LocationReader r = source.openLocation(l)) {
                while (r.next(batch)) {
                    pass.accept(batch);
                    options.progress().update("read", done.addAndGet(batch.size), total);
                    noteMarks(budget, pass, batch.size, marks);
                }
            }
        }
    }

    /**
     * Reports a batch's events and the marks it added to the budget ({@code seen}: the pass's marks and OpenMP marks
     * before it).
     */
    private static void noteMarks(MarkBudget budget, LocationPass pass, int events, int[] seen) {
        if (budget != null) {
            int now = pass.marks();
            int openMp = pass.openMpMarks();
            budget.noteOpenMp(openMp - seen[1]);
            budget.note(events, now - seen[0]);
            seen[0] = now;
            seen[1] = openMp;
        }
    }

    /**
     * The reading thread's batch for direct reads: one location is read at a time per thread, and a batch per
     * location (seven columns of the batch size, allocated and zeroed) had been a twentieth of what a root-cause
     * analysis of many small locations allocates.
     */
    private static final ThreadLocal<EventBatch[]> BATCH = ThreadLocal.withInitial(() -> new EventBatch[1]);

    static EventBatch threadBatch(int capacity) {
        EventBatch[] held = BATCH.get();
        if (held[0] == null || held[0].time.length < capacity) {
            held[0] = new EventBatch(capacity);
        }
        return held[0];
    }

    public TraceSource source() {
        return source;
    }

    public TraceDefinitions definitions() {
        return defs;
    }

    public RegionTable regions() {
        return regions;
    }

    /** OpenMP thread-team management time per thread and parallel-region instance (already in the profiles). */
    public TeamManagement teamManagement() {
        return management;
    }

    public List<LocationData> locations() {
        return locations;
    }

    public LocationData location(int index) {
        return locations.get(index);
    }

    public CallTree callTree() {
        return callTree;
    }

    /** Master location of each global rank, -1 where a rank has none. */
    public int locationOfRank(int rank) {
        return rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
    }

    public MessageMatching messages() {
        return messages;
    }

    public CollectiveMatching collectives() {
        return collectives;
    }

    /** Total number of events read. */
    public long events() {
        long n = 0;
        for (LocationData l : locations) {
            n += l.events();
        }
        return n;
    }

    /** True when any location has an MPI communication record or left MPI_Init. */
    public boolean hasMpi() {
        for (LocationData l : locations) {
            if (l.sends().size() > 0 || l.receives().size() > 0 || l.collectives().size() > 0 || l.hasInit()) {
                return true;
            }
        }
        return false;
    }

    /** Anomalies summed over all locations. */
    public Map<Anomaly, Long> anomalies() {
        Map<Anomaly, Long> m = new EnumMap<>(Anomaly.class);
        for (LocationData l : locations) {
            l.anomalyCounts().forEach((k, v) -> m.merge(k, v, Long::sum));
        }
        return m;
    }

    /** The facts about the whole replay that the reports state (counts, times, what was left unmatched). */
    public ReplayFacts facts() {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        boolean anyInit = false;
        boolean anyFinalize = false;
        for (LocationData l : locations) {
            if (l.events() > 0) {
                first = Math.min(first, l.firstTime());
                last = Math.max(last, l.lastTime());
            }
            anyInit |= l.hasInit();
            anyFinalize |= l.hasFinalize();
        }
        long instances = 0;
        for (int c = 0; c < defs.communicators().size(); c++) {
            instances += collectives.instances(c);
        }
        return new ReplayFacts(events(), first, last, hasMpi(), anyInit, anyFinalize, messages.matchedMessages(),
                messages.unmatchedSends(), messages.unmatchedReceives(), instances, collectives.unmatchedRecords(),
                collectives.incompleteCommunicators(), recordBytes(), anomalies());
    }

    /** Bytes held by all communication records (the replay's cross-location state). */
    public long recordBytes() {
        long n = 0;
        for (LocationData l : locations) {
            n += l.recordBytes();
        }
        return n;
    }
}
