package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.waitstate.CollectiveOutcomes;
import dev.straggler.patterns.waitstate.InitFinalize;
import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.CallTree;
import dev.straggler.replay.CollectiveMatching;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.MessageMatching;
import dev.straggler.replay.Parallel;
import dev.straggler.replay.ProgressListener;
import dev.straggler.replay.Replay;
import dev.straggler.replay.SpillFile;
import dev.straggler.trace.Clock;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * The root-cause stage (reference §1.6): why the wait states happened. From the wait states of the
 * where-stage it finds the synchronisation points, replays every rank backwards accounting delay costs and the
 * critical path, classifies point-to-point wait states as propagating/terminal and direct/indirect, and derives
 * the critical-path impact metrics, all with Scalasca 2.6's rules. Only the marks and call-path intervals of each
 * location are used, never its ENTER/LEAVE events.
 *
 * <p>Each location needs to know only its own records and what travels along its messages and collectives: its
 * partners' facts ({@link PartnerFacts}), its collective records' roles ({@link CollectiveRoles}), and during the
 * backward replay the costs its partners ship. {@link #run} does it all on one machine; {@link Partition} is the
 * same stage for a share of the locations, for an engine that spreads them over machines.
 */
public final class RootCauses {
    private RootCauses() {
    }

    /**
     * Books one location's critical-path impact metrics (critical-path activities, critical imbalance impact,
     * inter-partition imbalance, non-critical-path activities) into its severities, from the sums over all
     * locations that an engine formed in location order, exactly as {@link #run} does.
     */
    public static void bookImpact(Int2DoubleOpenHashMap[] severities, double[] localTimes, int callPaths,
                                  double[] criticalPath, double[] globalImbalance, double[] headroom) {
        CriticalPathImpact.bookLocation(severities, localTimes, callPaths, criticalPath, globalImbalance, headroom);
    }

    /** Thrown when the communication records admit no backward replay (a trace no MPI run can have written). */
    public static final class ImpossibleOrder extends RuntimeException {
        public ImpossibleOrder(String message) {
            super(message);
        }
    }

    /**
     * Per location (null for locations without the stage), per {@link RootCauseMetric}: call path → seconds; and,
     * one sentence each, the processes whose threads could not be replayed together (their root causes cover the
     * master thread only).
     */
    public record Result(Int2DoubleOpenHashMap[][] severities, List<String> problems, List<DelayCause> causes) {
        public Result {
            causes = List.copyOf(causes);
        }

        public Result(Int2DoubleOpenHashMap[][] severities, List<String> problems) {
            this(severities, problems, List.of());
        }

        public Result(Int2DoubleOpenHashMap[][] severities) {
            this(severities, List.of());
        }

        public Int2DoubleOpenHashMap values(int location, RootCauseMetric m) {
            Int2DoubleOpenHashMap[] s = severities[location];
            return s == null ? null : s[m.ordinal()];
        }
    }

    /**
     * Runs the stage on one machine.
     *
     * @param lateSenderWaits       per location and receive row, the Late Sender wait (ticks) where the receive is a
     *                              Late Sender synchronisation point (the largest of a multi-wait), else 0
     * @param lateReceiverWaits     per location and send row, the Late Receiver wait of its completion likewise
     * @param collectives           what the collective patterns found, synchronisation points included
     * @param init                  the all-rank reductions of MPI_Init, and of MPI_Finalize ({@code fin})
     * @param explain               wait-state instances whose delay to find ({@link Result#causes}: the
     *                              point-to-point and MPI collective ones with a delay booked); may be empty
     * @param pool                  threads for the backward replay (null or {@code threads} 1: the calling thread);
     *                              the result does not depend on them
     * @param releaseMessageRecords free the point-to-point records of every location once the stage has read them
     *                              ({@link LocationData#releaseMessageRecords}), with their envelope queues
     *                              ({@link MessageMatching#releaseQueues}), and each location's entries of
     *                              {@code lateSenderWaits} and {@code lateReceiverWaits} once its synchronisation
     *                              points are registered (they become null), for a caller that reads none of them
     *                              afterwards: the partner facts then never share the heap with the records, and the
     *                              backward replay holds none of them (12 bytes per record)
     * @param spill                 where a large location's interval entries wait for the backward replay
     *                              ({@code IntervalEntries}); null keeps them on the heap
     * @param progress              told how far the stage has come, as phase {@code "root causes"} in locations:
     *                              the second pass is its first half, the backward replay its second
     */
    public static Result run(Replay replay, CollectiveOutcomes collectives, InitFinalize.Reference init,
                             InitFinalize.Reference fin, long[][] lateSenderWaits, long[][] lateReceiverWaits,
                             List<Instance> explain, ExecutorService pool, int threads, boolean releaseMessageRecords,
                             SpillFile spill, ProgressListener progress) throws IOException {
        int n = replay.locations().size();
        LocationState[] states = new LocationState[n];
        PartnerFacts[] partners = new PartnerFacts[n];
        CollectiveRoles[] roles = new CollectiveRoles[n];
        int[] masters = replay.definitions().masterLocationByRank();
        boolean[] held = new boolean[n];
        for (int rank = 0; rank < masters.length; rank++) {
            int l = replay.locationOfRank(rank);
            if (l >= 0) {
                held[l] = replay.location(l).intervals() != null;
            }
        }
        // the OpenMP teams whose threads take part (docs/openmp.md §6): every thread of the process, master first
        List<String> problems = new ArrayList<>();
        List<LocationData[]> teams = teams(replay, held, problems);
        Team[] teamOf = new Team[n];
        for (int id = 0; id < teams.size(); id++) {
            Team team = new Team(id, teams.get(id));
            for (LocationData d : team.members) {
                held[d.location()] = true;
                teamOf[d.location()] = team;
            }
        }
        // Each step below writes only rows of its own location, or partner rows that exactly one record names, so
        // its locations may run on any thread; the steps stay in sequence because each reads what the one
        // before wrote everywhere.
        forEach(pool, threads, n, l -> {
            if (held[l]) {
                LocationData d = replay.location(l);
                states[l] = new LocationState(d);
                if (teamOf[l] != null) {
                    teamOf[l].join(states[l]);
                }
                roles[l] = new CollectiveRoles(d.collectives().size());
            }
        });
        // the last steps that read message records: who matched whom, and where the instances explained waited
        Matches matches = new Matches(replay, pool, threads);
        if (releaseMessageRecords) {
            replay.messages().releaseQueues(); // Matches holds who matched whom from here on
        }
        InstanceCauses causes = explain.isEmpty() ? null : InstanceCauses.of(replay, explain, lateSenderWaits,
                lateReceiverWaits);
        if (releaseMessageRecords) {
            for (LocationData d : replay.locations()) {
                d.releaseMessageRecords();
            }
        }
        // the partner facts take the rows' place: allocated once the rows are gone, they are never held together
        forEach(pool, threads, n, l -> {
            if (states[l] != null) {
                LocationData d = replay.location(l);
                partners[l] = new PartnerFacts(d.receives().size(), d.sends().size());
            }
        });
        emitFacts(states, partners, lateSenderWaits, lateReceiverWaits, matches, pool, threads);
        matches = null; // garbage from here on
        roles(replay, collectives, roles, pool, threads);
        Clock clock = replay.definitions().clock();
        AtomicInteger read = new AtomicInteger();
        Progress stage = new Progress(progress, n);
        forEach(pool, threads, n, l -> {
            if (states[l] != null && teamOf[l] != null) {
                teamOf[l].register(states[l], clock);
            }
            registerAndRead(replay, states[l], clock, lateSenderWaits[l], lateReceiverWaits[l], partners[l],
                    roles[l], init, fin, spill);
            if (releaseMessageRecords) {
                lateSenderWaits[l] = null; // registered: nothing below reads them
                lateReceiverWaits[l] = null;
            }
            stage.at(read.incrementAndGet() / 2);
        });
        PartnerFacts.FlagSink flags = flagsInto(partners);
        for (LocationState st : states) {
            if (st != null) {
                PartnerFacts.emitFlags(st, partners[st.location], flags);
            }
        }
        CollectiveMatching cm = replay.collectives();
        int comms = replay.definitions().communicators().size();
        int[][] memberLocations = new int[comms][];
        int[][] globalRanks = new int[comms][];
        for (int c = 0; c < comms; c++) {
            globalRanks[c] = replay.definitions().communicator(c).members();
            if (cm.instances(c) > 0) {
                memberLocations[c] = new int[cm.size(c)];
                for (int j = 0; j < cm.size(c); j++) {
                    memberLocations[c][j] = cm.memberLocation(c, j);
                }
            }
        }
        int paths = replay.callTree().size();
        int[] cnodeIds = cnodeIds(replay.callTree());
        CostReplay cost = new CostReplay(states, partners, roles, memberLocations, globalRanks, cnodeIds,
                path -> replay.regions().regions().get(replay.callTree().region(path)).name(), null);
        cost.finalizeLatest = fin.complete() ? fin.lastRank() : -1;
        if (!teams.isEmpty()) {
            cost.clock = clock;
        }
        cost.explain = causes;
        long heldCount = java.util.stream.IntStream.range(0, n).filter(l -> states[l] != null).count();
        cost.run(pool, threads, () -> stage.at(n / 2 + (heldCount == 0 ? 0
                : (n - n / 2) * Math.min(cost.progress(), 1000 * heldCount) / (1000 * heldCount))));
        cost.forwardClassification((target, row, lateSender, source, sp, v) ->
                CostReplay.addIndirect(states[target], row, lateSender, v));
        Int2DoubleOpenHashMap[][] out = new Int2DoubleOpenHashMap[n][];
        double[][] ltimes = new double[n][];
        ThreadLocal<IntervalTimes> times = ThreadLocal.withInitial(() -> new IntervalTimes(cnodeIds));
        forEach(pool, threads, n, l -> {
            if (states[l] != null) {
                out[l] = states[l].severity;
                ltimes[l] = CriticalPathImpact.localTimes(states[l], times.get(), paths);
            }
        });
        CriticalPathImpact.compute(out, ltimes, paths);
        return new Result(out, problems, causes == null ? List.of() : causes.causes());
    }

    /**
     * The stage's progress in locations, never going back although the steps that report it run on several threads
     * (the listener's contract): the second pass is the first half, the backward replay the second.
     */
    private static final class Progress {
        private final ProgressListener listener;
        private final int locations;
        private long last;

        Progress(ProgressListener listener, int locations) {
            this.listener = listener;
            this.locations = locations;
        }

        synchronized void at(long done) {
            if (done > last) {
                last = done;
                listener.update("root causes", done, locations);
            }
        }
    }

    /** The first exchange: each location tells its point-to-point partners its facts (reading no message record). */
    private static void emitFacts(LocationState[] states, PartnerFacts[] partners, long[][] lateSenderWaits,
                                  long[][] lateReceiverWaits, Matches matches, ExecutorService pool, int threads)
            throws IOException {
        PartnerFacts.Sink facts = factsInto(partners);
        forEach(pool, threads, states.length, l -> {
            if (states[l] != null) {
                PartnerFacts.emitFacts(states[l], lateSenderWaits[l], lateReceiverWaits[l], matching(matches, l),
                        facts);
            }
        });
    }

    /** The OpenMP teams of held master locations whose threads can be replayed together ({@link #replayable}). */
    private static List<LocationData[]> teams(Replay replay, boolean[] held, List<String> problems) {
        return replayable(replay.teams().stream().filter(t -> held[t[0].location()]).toList(),
                (problem, rank) -> problems.add(problem));
    }

    /**
     * Of the threads of some processes ({@link Replay#teams}: master first), the teams the stage replays together:
     * those with workers whose threads meet at the same instances ({@link #teamProblem}). Each other process with
     * workers gets its problem, with its rank: its root causes cover its master thread only.
     */
    public static List<LocationData[]> replayable(List<LocationData[]> processes,
                                                  java.util.function.ObjIntConsumer<String> problems) {
        List<LocationData[]> out = new ArrayList<>();
        for (LocationData[] t : processes) {
            if (t.length < 2) {
                continue;
            }
            String problem = teamProblem(t);
            if (problem == null) {
                out.add(t);
            } else {
                problems.accept(problem, t[0].rank());
            }
        }
        return out;
    }

    /**
     * Null when the threads of a process (master first, then its workers in thread order) can be replayed together:
     * each with marks, no nested parallel regions, and the same fork and barrier instances on every thread (Scalasca
     * 2.6 analyses no other); else the sentence the result carries about that process.
     */
    private static String teamProblem(LocationData[] team) {
        boolean ok = true;
        for (LocationData d : team) {
            ok &= d.intervals() != null && d.threads().nestedParallelRegions() == 0;
        }
        if (ok && TeamSyncPoints.consistent(team)) {
            return null;
        }
        return "rank " + team[0].rank() + ": its threads do not meet at the same parallel regions and"
                + " barriers (nested or varying teams): its OpenMP delay costs and the critical path through"
                + " its threads are not computed, its root causes cover its master thread only";
    }

    /**
     * The threads of one process replayed together by the stage ({@link #replayable}): its
     * synchronisation points at forks and barriers are met by all of them (docs/openmp.md §6). {@code id} tells
     * teams apart within one replay.
     */
    public static final class Team {
        private final int id;
        private final LocationData[] members;
        private final TeamSyncPoints.Instances instances;

        public Team(int id, LocationData[] members) {
            this.id = id;
            this.members = members.clone();
            this.instances = TeamSyncPoints.Instances.of(members);
        }

        /** The team's master thread, whose forks its workers' parallel regions hang under. */
        public LocationData master() {
            return members[0];
        }

        private int threadOf(int location) {
            for (int i = 0; i < members.length; i++) {
                if (members[i].location() == location) {
                    return i;
                }
            }
            throw new IllegalArgumentException("location " + location + " is not in the team of rank "
                    + members[0].rank());
        }

        /** Marks a thread's state as this team's. */
        void join(LocationState st) {
            st.teamId = id;
            st.teamThread = threadOf(st.location);
            st.teamSize = members.length;
        }

        /** The thread's team synchronisation points, before its other ones ({@link SyncPointDetection}). */
        void register(LocationState st, Clock clock) {
            TeamSyncPoints.register(st, members, instances, st.teamThread, clock);
        }
    }

    /**
     * Scalasca's call-path id of each unified call path (the cube's cnode ids): the order in which its bounded time
     * maps ({@link BoundedTimeMap}) keep call paths. An engine that replays elsewhere ships this with the call tree.
     */
    public static int[] cnodeIds(CallTree tree) {
        int[] ids = new int[tree.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = tree.creationId(i);
        }
        return ids;
    }

    /** A step of one location. */
    @FunctionalInterface
    interface LocationStep {
        void run(int location) throws IOException;
    }

    /**
     * Runs {@code step} for every location, on the pool when there is one with more than one thread; the steps
     * of different locations must not depend on each other.
     */
    static void forEach(ExecutorService pool, int threads, int n, LocationStep step) throws IOException {
        if (threads > 1 && pool != null && n > 1) {
            Parallel.map(pool, n, l -> {
                step.run(l);
                return null;
            });
        } else {
            for (int l = 0; l < n; l++) {
                step.run(l);
            }
        }
    }

    private static void registerAndRead(Replay replay, LocationState st, Clock clock, long[] lateSenderWaits,
                                        long[] lateReceiverWaits, PartnerFacts partners, CollectiveRoles roles,
                                        InitFinalize.Reference init, InitFinalize.Reference fin, SpillFile spill)
            throws IOException {
        if (st != null) {
            SyncPointDetection.register(st, clock, lateSenderWaits, lateReceiverWaits, partners, roles, init, fin);
            // on one machine these facts are not read again (a distributed engine keeps them for its flags)
            partners.dropRegistrationFacts();
            // the second pass over the location's events: interval times between its synchronisation points, the
            // entries written on unified call paths (the backward replay's sums need no lookup per entry) and a large
            // location's spilled
            st.times = replay.intervalTimes(st.location, st.syncMarks(), spill, st.loc::globalCallPath);
        }
    }

    private static PartnerFacts.Sink factsInto(PartnerFacts[] partners) {
        return new PartnerFacts.Sink() {
            @Override
            public void toSend(int sendLocation, int sendRow, int recvLocation, int recvRow, int rank,
                               boolean lateSender, long recvLeave, long requestLeave) {
                if (partners[sendLocation] != null) {
                    partners[sendLocation].setReceive(sendRow, recvLocation, recvRow, rank, lateSender, recvLeave,
                            requestLeave);
                }
            }

            @Override
            public void toReceive(int recvLocation, int recvRow, int sendLocation, int sendRow, int rank,
                                  boolean lateReceiver, long sendLeave, long completeLeave) {
                if (partners[recvLocation] != null) {
                    partners[recvLocation].setSend(recvRow, sendLocation, sendRow, rank, lateReceiver, sendLeave,
                            completeLeave);
                }
            }
        };
    }

    private static PartnerFacts.FlagSink flagsInto(PartnerFacts[] partners) {
        return new PartnerFacts.FlagSink() {
            @Override
            public void toSend(int sendLocation, int sendRow, boolean recvIsWait, boolean requestTakes) {
                partners[sendLocation].setReceiveFlags(sendRow, recvIsWait, requestTakes);
            }

            @Override
            public void toReceive(int recvLocation, int recvRow, boolean completeIsWait) {
                partners[recvLocation].setSendFlags(recvRow, completeIsWait);
            }
        };
    }

    private static PartnerFacts.Matching matching(Matches m, int l) {
        return new PartnerFacts.Matching() {
            @Override
            public int receivePartnerLocation(int i) {
                return m.recvPartnerLocation(l, i);
            }

            @Override
            public int receivePartnerRow(int i) {
                return m.recvPartner(l, i);
            }

            @Override
            public int sendPartnerLocation(int j) {
                return m.sendPartnerLocation(l, j);
            }

            @Override
            public int sendPartnerRow(int j) {
                return m.sendPartner(l, j);
            }
        };
    }

    /**
     * Every matched collective instance's roles, written into its members' locations (those with a state); in
     * chunks of instances, which write disjoint records.
     */
    private static void roles(Replay replay, CollectiveOutcomes outcomes, CollectiveRoles[] roles,
                              ExecutorService pool, int threads) throws IOException {
        CollectiveMatching cm = replay.collectives();
        int comms = replay.definitions().communicators().size();
        List<int[]> chunks = new ArrayList<>(); // (communicator, first instance, end)
        for (int c = 0; c < comms; c++) {
            if (cm.size(c) > 0) {
                for (int k = 0; k < cm.instances(c); k += ROLE_CHUNK) {
                    chunks.add(new int[]{c, k, (int) Math.min(cm.instances(c), (long) k + ROLE_CHUNK)});
                }
            }
        }
        forEach(pool, threads, chunks.size(), i -> roles(replay, outcomes, roles, chunks.get(i)));
    }

    private static final int ROLE_CHUNK = 4096;

    private static void roles(Replay replay, CollectiveOutcomes outcomes, CollectiveRoles[] roles, int[] chunk) {
        CollectiveMatching cm = replay.collectives();
        CollectiveSync sync = new CollectiveSync();
        int world = replay.definitions().masterLocationByRank().length;
        int c = chunk[0];
        {
            int[] members = replay.definitions().communicator(c).members();
            for (int k = chunk[1]; k < chunk[2]; k++) {
                boolean loaded = sync.load(replay, outcomes, c, k);
                int comm = c;
                int instance = k;
                sync.roles(loaded, k, members, world, (j, inst, parts, takes, kind, ref, sp, w, done, ranks, all) -> {
                    CollectiveRoles r = roles[cm.memberLocation(comm, j)];
                    if (r != null) {
                        r.set(cm.record(comm, instance, j), inst, parts, takes, kind, ref, sp, w, done, ranks, all);
                    }
                });
            }
        }
    }

    // --- a share of the locations, for a distributed engine ------------------------------------------------------

    /**
     * What a location tells its partners before the stage can start (the first exchange): {@code matching} names
     * each record's partner as the message matching found it.
     */
    public static void emitFacts(LocationData d, long[] lateSenderWaits, long[] lateReceiverWaits,
                                 PartnerFacts.Matching matching, PartnerFacts.Sink sink) {
        PartnerFacts.emitFacts(new LocationState(d), lateSenderWaits, lateReceiverWaits, matching, sink);
    }

    /**
     * What a location tells its partners once it knows its synchronisation points (the second exchange), from what
     * they told it in the first. Returns those synchronisation points, for {@link Partition#add} to take instead of
     * finding them again; null when the location has no point-to-point records (no flags, nothing found).
     */
    public static Registration emitFlags(LocationData d, Clock clock, long[] lateSenderWaits,
                                         long[] lateReceiverWaits, PartnerFacts partners, CollectiveRoles roles,
                                         InitFinalize.Reference init, InitFinalize.Reference fin,
                                         PartnerFacts.FlagSink sink) {
        if (d.sends().size() == 0 && d.receives().size() == 0) {
            return null; // flags go to point-to-point partners only (a worker thread, a rank with collectives alone)
        }
        LocationState st = new LocationState(d);
        SyncPointDetection.register(st, clock, lateSenderWaits, lateReceiverWaits, partners, roles, init, fin);
        PartnerFacts.emitFlags(st, partners, sink);
        return new Registration(st);
    }

    /**
     * A location's synchronisation points as {@link #emitFlags} found them. They depend only on the location and the
     * facts of the first exchange, which the flags of the second do not change.
     */
    public static final class Registration {
        private final LocationState state;

        private Registration(LocationState state) {
            this.state = state;
        }
    }

    /**
     * Where the backward replay meets one of the instances it explains ({@link Result#causes}): the record that
     * waited, as {@link #instanceKeys} finds it on the waiting location.
     *
     * @param kind     {@link #LATE_SENDER} (a receive), {@link #LATE_RECEIVER} (a send) or {@link #COLLECTIVE}
     * @param record   the waiting location and the record's row there
     * @param instance the instance's index in the list explained
     */
    public record InstanceKey(int kind, long record, int instance) implements java.io.Serializable {
        public static final int LATE_SENDER = 0;
        public static final int LATE_RECEIVER = 1;
        public static final int COLLECTIVE = 2;
    }

    /** The location of the rank and thread that waited in an instance, -1 when the trace has none. */
    public static int locationOf(TraceDefinitions defs, Instance instance) {
        return defs.locationOf(instance.rank(), instance.thread());
    }

    /**
     * The records at which a location waited in the given instances (those of its rank and thread), from its own
     * waits as the wait-state stage found them (null when it has none); for {@link Partition#explain}.
     */
    public static List<InstanceKey> instanceKeys(LocationData d, Clock clock, List<Instance> instances,
                                                 long[] lateSenderWaits, long[] lateReceiverWaits) {
        return InstanceCauses.keys(d, clock, instances, lateSenderWaits, lateReceiverWaits);
    }

    /** Reads a location's interval times between the given marks (the second pass over its events). */
    public interface IntervalReader {
        /** The location's interval times, closed at {@code closingMarks}, entries on {@code entryPaths}. */
        CallPathIntervals read(int location, BitSet closingMarks, IntUnaryOperator entryPaths) throws IOException;
    }

    /**
     * The backward replay and what follows it for the locations one task holds. Locations are added with what the two
     * exchanges brought them; then {@link #step} runs until no task has anything left to hand over, each step's
     * output going to the tasks it names and theirs coming back through {@link #receive}. Afterwards
     * {@link #forward} finds the indirect waiting (for partners, possibly held elsewhere) and each location's
     * severities and local times are read for the critical-path impact ({@link #impact}), which needs all locations.
     */
    public static final class Partition implements CostReplay.Exchange {
        private final LocationState[] states;
        private final PartnerFacts[] partners;
        private final CollectiveRoles[] roles;
        private final int[][] memberLocations;
        private final int[][] globalRanks;
        private final int paths;
        private final int[] cnodeIds;
        private final IntFunction<String> regionOfPath;
        private final IntUnaryOperator taskOf;
        private final int self;
        private final int finalizeLatest;
        /** Set once a team is held: the team rendezvous needs the clock ({@link CostReplay#clock}). */
        private Clock teamClock;
        private CostReplay replay;
        /** The instances whose delay is recorded where it is booked, or null. */
        private InstanceCauses explain;
        /** Per task: what this step hands it. */
        private final List<List<Object>> outbox = new ArrayList<>();

        /**
         * @param locations       all locations of the trace
         * @param memberLocations per communicator, each member's location (null for communicators without instances)
         * @param globalRanks     per communicator, each member's global rank
         * @param taskOf          which task holds a location; this one is {@code self} of {@code tasks}
         * @param finalizeLatest  the rank that entered MPI_Finalize last, -1 when Finalize is incomplete
         * @param cnodeIds        Scalasca's call-path id of each unified call path ({@link #cnodeIds(CallTree)}),
         *                        which decides what its bounded time maps keep; its length is the tree's size
         */
        public Partition(int locations, int[][] memberLocations, int[][] globalRanks, int[] cnodeIds,
                         IntFunction<String> regionOfPath, IntUnaryOperator taskOf, int self, int tasks,
                         int finalizeLatest) {
            int callPaths = cnodeIds.length;
            this.cnodeIds = cnodeIds.clone();
            this.states = new LocationState[locations];
            this.partners = new PartnerFacts[locations];
            this.roles = new CollectiveRoles[locations];
            this.memberLocations = memberLocations;
            this.globalRanks = globalRanks;
            this.paths = callPaths;
            this.regionOfPath = regionOfPath;
            this.taskOf = taskOf;
            this.self = self;
            this.finalizeLatest = finalizeLatest;
            for (int t = 0; t < tasks; t++) {
                outbox.add(new ArrayList<>());
            }
        }

        /**
         * Adds a held location with what the exchanges brought it; reads its interval times through {@code reader}.
         * A thread of an OpenMP team ({@code team}, else null) is held with every other thread of its team: they
         * meet at forks and barriers. {@code registered} is what {@link #emitFlags} found for this location (or
         * null), taken instead of finding the synchronisation points again; a thread of a team registers its team's
         * points first, so for it they are found here.
         */
        public void add(LocationData d, Clock clock, long[] lateSenderWaits, long[] lateReceiverWaits,
                        PartnerFacts facts, CollectiveRoles collectiveRoles, InitFinalize.Reference init,
                        InitFinalize.Reference fin, Team team, Registration registered, IntervalReader reader)
                throws IOException {
            LocationState st;
            if (registered != null && team == null) {
                if (registered.state.loc != d) {
                    throw new IllegalArgumentException("location " + d.location() + " was registered as location "
                            + registered.state.location);
                }
                st = registered.state;
            } else {
                st = new LocationState(d);
                if (team != null) {
                    team.join(st);
                    team.register(st, clock);
                    teamClock = clock;
                }
                SyncPointDetection.register(st, clock, lateSenderWaits, lateReceiverWaits, facts, collectiveRoles,
                        init, fin);
            }
            // the entries are written on unified call paths: the backward replay's sums need no lookup per entry
            st.times = reader.read(d.location(), st.syncMarks(), st.loc::globalCallPath);
            states[d.location()] = st;
            partners[d.location()] = facts;
            roles[d.location()] = collectiveRoles;
        }

        /**
         * Finds the delay behind the given instances where this partition books it: {@code keys} are the records
         * of all instances ({@link #instanceKeys} on every waiting location, wherever held), since the delaying
         * side looks its partner's record up. Before the first {@link #step}; {@link #causes} then has what was
         * found here.
         */
        public void explain(List<Instance> instances, Clock clock, List<InstanceKey> keys) {
            explain = instances.isEmpty() ? null : InstanceCauses.ofKeys(instances, clock, keys);
        }

        /**
         * Per instance given to {@link #explain}, its cause if its delay was booked at a location held here, else
         * null; null without instances. The causes of all partitions together are those of {@link RootCauses#run}.
         */
        public DelayCause[] causes() {
            return explain == null ? null : explain.found();
        }

        /**
         * Advances the held locations as far as they can go with what has arrived; returns, per task, what this step
         * hands it (serialized), null where nothing.
         */
        public byte[][] step() {
            if (replay == null) {
                replay = new CostReplay(states, partners, roles, memberLocations, globalRanks, cnodeIds, regionOfPath,
                        this);
                replay.finalizeLatest = finalizeLatest;
                replay.clock = teamClock;
                replay.explain = explain;
                replay.start();
            }
            replay.drain();
            byte[][] out = new byte[outbox.size()][];
            for (int t = 0; t < out.length; t++) {
                List<Object> items = outbox.get(t);
                if (!items.isEmpty()) {
                    out[t] = Wire.encode(items);
                    items.clear();
                }
            }
            return out;
        }

        /** What another task's {@link #step} handed over; the parts for locations held here are taken. */
        public void receive(byte[] message) {
            for (Object s : Wire.decode(message)) {
                if (s instanceof Wire.Shipped sh) {
                    replay.receive(sh.lateSender(), sh.key(), sh.shipment());
                } else if (s instanceof CostReplay.Arrival a) {
                    replay.receive(a);
                }
            }
        }

        /** How far the held locations' backward replay has come, in thousandths of a location (for progress). */
        public long progress() {
            return replay.progress();
        }

        /** Held locations that could not finish, and the first three described (location order). */
        public int blockedCount() {
            return replay.blockedCount();
        }

        public List<String> blocked() {
            return replay.blocked(3);
        }

        /** The error for ranks that cannot be replayed backwards, from all tasks' counts and first descriptions. */
        public static ImpossibleOrder impossible(int count, List<String> first) {
            return CostReplay.impossible(count, first.subList(0, Math.min(3, first.size())));
        }

        /** Indirect waiting found at held locations for partner records ({@link #addIndirect}). */
        public void forward(Indirect sink) {
            replay.forwardClassification(sink);
        }

        /**
         * Per receive row of a held location, the unified call path of its receive: where Late Sender indirect
         * waiting found at the partner is booked ({@link #addIndirect}); -1 where the receive has no mark.
         */
        public int[] receivePaths(int location) {
            LocationState st = states[location];
            return paths(st, st.links.recvMark);
        }

        /** Per send row of a held location, the unified call path of its completion (Late Receiver indirect waiting). */
        public int[] completionPaths(int location) {
            LocationState st = states[location];
            return paths(st, st.links.sendCompleteMark);
        }

        private static int[] paths(LocationState st, int[] marks) {
            int[] out = new int[marks.length];
            for (int i = 0; i < marks.length; i++) {
                out[i] = marks[i] < 0 ? -1 : st.callPath(marks[i]);
            }
            return out;
        }

        /**
         * Books indirect waiting into a location's severities at the call path of its record
         * ({@link #receivePaths}, {@link #completionPaths}); called in (source location, point) order, as on one
         * machine.
         */
        public static void addIndirect(Int2DoubleOpenHashMap[] severities, int path, boolean lateSender,
                                       double seconds) {
            RootCauseMetric m = lateSender ? RootCauseMetric.MPI_WAIT_INDIRECT_LATESENDER
                    : RootCauseMetric.MPI_WAIT_INDIRECT_LATERECEIVER;
            severities[m.ordinal()].addTo(path, seconds);
        }

        /** A held location's severities so far, per {@link RootCauseMetric}. */
        public Int2DoubleOpenHashMap[] severities(int location) {
            return states[location].severity;
        }

        /** A held location's local non-waiting time per unified call path (for {@link #impact}). */
        public double[] localTimes(int location) {
            return CriticalPathImpact.localTimes(states[location], new IntervalTimes(cnodeIds), paths);
        }

        @Override
        public void ship(boolean lateSender, long key, CostReplay.Shipment shipment) {
            outbox.get(taskOf.applyAsInt((int) (key >>> 32))).add(new Wire.Shipped(lateSender, key, shipment));
        }

        @Override
        public void arrive(int coordinator, CostReplay.Arrival arrival) {
            outbox.get(taskOf.applyAsInt(coordinator)).add(arrival);
        }
    }

    /** Receives indirect waiting a location found for the partner of one of its records. */
    public interface Indirect {
        /**
         * {@code lateSender}: for receive row {@code row} of {@code target} (the partner of a send); otherwise for
         * the completion of send row {@code row} (the partner of a receive request). {@code source} and
         * {@code sp} name where it was found, which orders these additions.
         */
        void indirect(int target, int row, boolean lateSender, int source, int sp, double seconds);
    }

    /**
     * The critical-path impact metrics of all locations, booked into their severities (null for locations without
     * the stage), from each location's {@link Partition#localTimes}; locations are summed in location order.
     */
    public static void impact(Int2DoubleOpenHashMap[][] severities, double[][] localTimes, int callPaths) {
        CriticalPathImpact.compute(severities, localTimes, callPaths);
    }
}
