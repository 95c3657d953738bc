package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.function.IntFunction;

/**
 * Scalasca's backward cost-accounting replay ({@code bwc}: delay costs and the critical path) and its forward
 * classification replay ({@code fwc}: propagating and indirect wait states), reference §1.6, on the marks of every
 * rank's master location.
 *
 * <p>Each location is replayed from its last mark to its first. Data flows exactly where Scalasca's replay sends
 * it: from a Late Sender receive to its send, from a Late Receiver send completion to its receive request, and
 * among the members of a collective, each of which contributes its part ({@link Arrival}); once all are in, the
 * instance's delay is computed where its reference rank is, and the members go on. A location blocks only where it needs such data;
 * since the values every location computes depend only on its own marks and the data it receives, the result does
 * not depend on the order in which locations advance (a Kahn network), and equals Scalasca's. That also holds when
 * the locations are spread over several replays that hand each other the data for locations they do not hold
 * ({@link Exchange}): a member held elsewhere sends its arrival to the replay holding the instance's coordinator and
 * waits for its release, then takes its own part (the critical path leaving it), which depends on its arrival only.
 */
final class CostReplay {
    /** Data a wait state ships to the location that caused it. */
    record Shipment(double waitTime, TimeMap times, double[] costs, boolean criticalPath) {
    }

    /**
     * What the reference member of a collective contributes besides its own part: its previous synchronisation
     * with the whole group ({@code prevSp}), the later points where some members synchronised with it
     * ({@code prevSps}: communicator rank → point), and the time maps from those points to this one.
     */
    record RootPart(int prevSp, TreeMap<Integer, Integer> prevSps, TimeMap group, TimeMap[] prevSpTimes) {
    }

    /**
     * One member's arrival at a collective instance: what the instance's delay computation reads of it, copied when
     * it arrives (a member held here is parked until all have arrived; one held by another replay goes on).
     * {@code kind} -1: the instance has no delay semantics and only the arrival counts.
     */
    record Arrival(int comm, int instance, int member, int location, int row, int participants, byte kind,
                   int size, int reference, int sp, double waitTime, double[] costs, boolean criticalPath,
                   boolean waitState, TimeMap delay, RootPart root) {
        long key() {
            return ((long) comm << 32) | instance;
        }
    }

    /**
     * Where data for locations held by another replay goes (a distributed engine); null on one machine. A collective
     * instance is evaluated by the replay holding its coordinator ({@link #coordinator}): the others send it their
     * members' arrivals and go on (see {@link #collective}).
     */
    interface Exchange {
        /** A shipment for a location held elsewhere; {@code lateSender} names the channel. */
        void ship(boolean lateSender, long key, Shipment shipment);

        /** An arrival for the instance whose coordinator, location {@code coordinator}, is held elsewhere. */
        void arrive(int coordinator, Arrival arrival);
    }

    private final LocationState[] states;
    private final PartnerFacts[] partners;
    private final CollectiveRoles[] roles;
    /** Per communicator: the location of each member (communicator rank), and its global rank. */
    private final int[][] memberLocations;
    private final int[][] globalRanks;
    private final IntFunction<String> regionOfPath;
    private final Exchange exchange;
    /** Per communicator: location → communicator rank. */
    private final Int2IntOpenHashMap[] memberIndex;
    /** Per communicator, the communicator rank of each global rank; null when a global rank appears twice. */
    private final Int2IntOpenHashMap[] memberOfRank;
    /** The number of ranks (Scalasca's {@code numLocationGroups}): a communicator of that size is the world. */
    private final int worldSize;

    /**
     * Shipments in one direction, keyed by their destination (location, row), and the locations blocked on one.
     * Taking and delivering are atomic, so a location is released exactly once, by whoever delivers what it waits
     * for; the lock also hands the shipment and the blocked location's state over between threads.
     */
    private final class Channel {
        private final boolean lateSender;
        // sized so that they do not shrink and grow again as shipments come and go (fastutil maps shrink on remove)
        private final Long2ObjectOpenHashMap<Shipment> shipped = new Long2ObjectOpenHashMap<>(CHANNEL_SIZE);
        private final Long2IntOpenHashMap waiting = new Long2IntOpenHashMap(CHANNEL_SIZE);

        Channel(boolean lateSender) {
            this.lateSender = lateSender;
            waiting.defaultReturnValue(-1);
        }

        void deliver(long key, Shipment sh) {
            if (states[(int) (key >>> 32)] == null) {
                exchange.ship(lateSender, key, sh);
                return;
            }
            int l;
            synchronized (this) {
                shipped.put(key, sh);
                l = waiting.remove(key);
            }
            if (l >= 0) {
                scheduler.release(l);
            }
        }

        /** The shipment for {@code key}, or null after registering {@code location} as blocked on it. */
        synchronized Shipment take(long key, int location) {
            Shipment sh = shipped.remove(key);
            if (sh == null) {
                waiting.put(key, location);
            }
            return sh;
        }
    }

    private static final int CHANNEL_SIZE = 1 << 12;

    /** Late Sender shipments, keyed by the receiving send (location, send row). */
    private final Channel toSend = new Channel(true);
    /** Late Receiver shipments, keyed by the receive whose request gets them (location, receive row). */
    private final Channel toRequest = new Channel(false);

    /** The members' arrivals at an instance until all participants are in. */
    private static final class Pending {
        final Arrival[] byMember;
        final int expected;
        int count;

        Pending(int size, int expected) {
            byMember = new Arrival[size];
            this.expected = expected;
        }
    }

    /** Instances with some but not all participants arrived, keyed by (communicator, instance). */
    private final Long2ObjectOpenHashMap<Pending> pending = new Long2ObjectOpenHashMap<>();
    /** Per worker thread: the interval accumulator. */
    private final ThreadLocal<IntervalTimes> times;
    /** The most severe instances whose delay is recorded as it is booked, or null. */
    InstanceCauses explain;
    private Scheduler scheduler;

    /**
     * @param states          the locations this replay holds (null elsewhere), synchronisation points prepared
     * @param partners        per held location, its records' partners
     * @param roles           per held location, its collective records' roles
     * @param memberLocations per communicator, each member's location
     * @param globalRanks     per communicator, each member's global rank
     * @param cnodeIds        Scalasca's call-path id of each unified call path (its length: the tree's size)
     * @param regionOfPath    region name of a unified call path (for messages)
     * @param exchange        where data for locations held elsewhere goes; null when all are held here
     */
    CostReplay(LocationState[] states, PartnerFacts[] partners, CollectiveRoles[] roles, int[][] memberLocations,
               int[][] globalRanks, int[] cnodeIds, IntFunction<String> regionOfPath, Exchange exchange) {
        this.states = states;
        this.partners = partners;
        this.roles = roles;
        this.memberLocations = memberLocations;
        this.globalRanks = globalRanks;
        this.regionOfPath = regionOfPath;
        this.exchange = exchange;
        this.times = ThreadLocal.withInitial(() -> new IntervalTimes(cnodeIds));
        int maxRank = -1;
        for (int[] ranks : globalRanks) {
            for (int j = 0; ranks != null && j < ranks.length; j++) {
                maxRank = Math.max(maxRank, ranks[j]);
            }
        }
        this.worldSize = maxRank + 1;
        this.memberIndex = new Int2IntOpenHashMap[memberLocations.length];
        this.memberOfRank = new Int2IntOpenHashMap[globalRanks.length];
        for (int c = 0; c < globalRanks.length; c++) {
            int[] ranks = globalRanks[c];
            Int2IntOpenHashMap m = new Int2IntOpenHashMap(ranks == null ? 0 : ranks.length);
            m.defaultReturnValue(-1);
            for (int j = 0; ranks != null && j < ranks.length; j++) {
                if (m.put(ranks[j], j) >= 0) {
                    m = null; // a rank twice: previousGroupSync tests every member
                    break;
                }
            }
            memberOfRank[c] = m;
        }
        for (int c = 0; c < memberLocations.length; c++) {
            int[] locs = memberLocations[c];
            memberIndex[c] = new Int2IntOpenHashMap(locs == null ? 0 : locs.length);
            memberIndex[c].defaultReturnValue(-1);
            for (int j = 0; locs != null && j < locs.length; j++) {
                memberIndex[c].putIfAbsent(locs[j], j);
            }
        }
    }


    static long key(int location, int row) {
        return ((long) location << 32) | (row & 0xffffffffL);
    }

    /** Rank that entered MPI_Finalize last (ties: the lowest rank); -1 when Finalize is incomplete. */
    int finalizeLatest = -1;
    /** Called now and then from the thread waiting for the replay ({@link #run}). */
    private Runnable tick;

    /**
     * Runs the backward replay on every held location. With a pool, locations advance on its threads, each on one
     * thread at a time; the result is the same for any number of threads. {@code tick} (or null) is called now and
     * then while the replay runs, from the thread that called this, so that it can report {@link #progress}: every
     * 200 ms with a pool, every 4,096 location advances without.
     */
    void run(ExecutorService pool, int threads, Runnable tick) {
        this.tick = tick;
        start(threads > 1 && pool != null ? new PoolScheduler(pool, threads) : new QueueScheduler());
        scheduler.await();
        List<String> blocked = blocked(3);
        if (!blocked.isEmpty()) {
            throw impossible(blockedCount(), blocked);
        }
    }

    /** Releases every held location (a distributed replay then alternates {@link #drain} and receiving). */
    void start() {
        start(new QueueScheduler());
    }

    private void start(Scheduler s) {
        scheduler = s;
        prepareTeams();
        for (LocationState st : states) {
            if (st != null) {
                scheduler.release(st.location);
            }
        }
    }

    /** Advances held locations until each has finished or waits for data. */
    void drain() {
        scheduler.await();
    }

    /** A shipment from another replay for a location held here. */
    void receive(boolean lateSender, long key, Shipment sh) {
        (lateSender ? toSend : toRequest).deliver(key, sh);
    }

    /** An arrival from another replay at an instance this replay evaluates. */
    void receive(Arrival a) {
        Pending p = arrive(a);
        if (p != null) {
            process(p, -1, times.get());
        }
    }

    /**
     * How far the backward replay of the held locations has come, in thousandths of a location: each location counts
     * the share of its marks already replayed.
     */
    long progress() {
        long p = 0;
        for (LocationState st : states) {
            if (st != null) {
                int size = st.intervals.size();
                p += size == 0 ? 1000 : 1000L * (size - 1 - st.cursor) / size;
            }
        }
        return p;
    }

    int blockedCount() {
        int count = 0;
        for (LocationState st : states) {
            if (st != null && st.cursor >= 0) {
                count++;
            }
        }
        return count;
    }

    /** The first {@code max} held locations (in location order) that could not finish, described. */
    List<String> blocked(int max) {
        List<String> out = new ArrayList<>();
        for (LocationState st : states) {
            if (st != null && st.cursor >= 0 && out.size() < max) {
                out.add("rank " + st.rank + " at " + describe(st, st.cursor));
            }
        }
        return out;
    }

    /** The error for locations that cannot be replayed backwards, from their count and the first described. */
    static RootCauses.ImpossibleOrder impossible(int count, List<String> first) {
        return new RootCauses.ImpossibleOrder(count + " rank(s) cannot be replayed backwards (" + String.join(", ", first)
                + (count > 3 ? ", ..." : "") + "): the recorded communication order cannot have happened");
    }

    // --- backward replay -----------------------------------------------------------------------------------

    private void advance(LocationState st) {
        // the worker's interval accumulator, looked up once per run of this location, not per mark
        IntervalTimes t = times.get();
        CallPathIntervals iv = st.intervals;
        while (st.cursor >= 0) {
            int m = st.cursor;
            int ref = iv.ref(m);
            switch (iv.kind(m)) {
                case CallPathIntervals.SEND -> {
                    if (!postSend(st, m, ref, t)) {
                        return;
                    }
                    if (st.links.sendCompleteMark[ref] == m) {
                        preSendComplete(st, m, ref, t);
                    }
                }
                case CallPathIntervals.SEND_COMPLETE -> preSendComplete(st, m, ref, t);
                case CallPathIntervals.RECV -> {
                    if (st.links.requestMark[ref] == m && !postRequest(st, m, ref, t)) {
                        return;
                    }
                    preRecv(st, m, ref, t);
                }
                case CallPathIntervals.RECV_REQUEST -> {
                    if (ref >= 0 && !postRequest(st, m, ref, t)) {
                        return;
                    }
                }
                case CallPathIntervals.COLLECTIVE_END -> {
                    if (!collective(st, m, ref, t)) {
                        return;
                    }
                }
                case CallPathIntervals.INIT -> {
                    if (st.onCriticalPath) {
                        updatePath(st, st.spAt(m), t);
                    }
                }
                case CallPathIntervals.FINALIZE -> {
                    if (st.rank == finalizeLatest && st.teamThread == 0) {
                        st.onCriticalPath = true;
                        st.criticalPathEnd = m;
                    }
                }
                case CallPathIntervals.OMP_FORK -> {
                    if (!teamPoint(st, m, false, t)) {
                        return;
                    }
                }
                case CallPathIntervals.OMP_BARRIER -> {
                    if (!teamPoint(st, m, true, t)) {
                        return;
                    }
                }
                default -> {
                    // OMP_JOIN only closes an interval
                }
            }
            st.cursor--;
        }
    }

    // --- OpenMP teams (docs/openmp.md §6) ----------------------------------------------------------------------

    /** Timestamps in seconds as Scalasca's reader gives them; set when the replay holds OpenMP teams. */
    dev.straggler.trace.Clock clock;

    /**
     * One thread's arrival at a team instance (a fork or a barrier), taken when it arrives; it is parked, and
     * nothing changes it, until the whole team has arrived. For a barrier: the thread's Enter of the barrier (s), its
     * pruned time map since its previous OpenMP point and the waiting in between. Its long-term costs at the point
     * are read at the evaluation ({@link LocationState#cost}): costs are added only strictly between two points of a
     * location, and this thread's next such range lies before this point.
     */
    record TeamArrival(int location, int sp, int mark, double enter, TimeMap times, double propWait, int prevSp) {
    }

    /**
     * The threads arrived at a team instance so far. Each thread writes its own slot before counting itself in; the
     * thread that counts last reads them all after its count, so it sees every slot (the count is atomic).
     */
    private static final class TeamInstance {
        final TeamArrival[] byThread;
        final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();

        TeamInstance(int size) {
            byThread = new TeamArrival[size];
        }
    }

    /**
     * Per team, its fork and barrier instances being met, indexed by instance number: the threads of a team meet
     * there without a lock shared by all teams (a barrier every few events makes this the replay's busiest meeting
     * point); a slot is emptied when its instance is evaluated.
     */
    private record TeamSlots(java.util.concurrent.atomic.AtomicReferenceArray<TeamInstance> forks,
                             java.util.concurrent.atomic.AtomicReferenceArray<TeamInstance> barriers) {
    }

    /** Per team id, its instances being met ({@link #prepareTeams}). */
    private TeamSlots[] teamSlots = new TeamSlots[0];

    /**
     * Backward replay at an OpenMP point of a team thread: the master's idle-thread delay at a fork, then the
     * rendezvous of the team; the thread that completes it evaluates the instance and releases the others.
     * False when the thread must wait for the rest of its team.
     */
    private boolean teamPoint(LocationState st, int m, boolean barrier, IntervalTimes t) {
        int s = st.spAt(m);
        if (st.teamId < 0 || s < 0) {
            return true;
        }
        TeamArrival a;
        if (barrier) {
            a = barrierArrival(st, m, s, t);
        } else {
            if (st.teamThread == 0) {
                OmpIdleDelay.atFork(st, s, t);
            }
            a = new TeamArrival(st.location, s, m, 0, null, 0, -1);
        }
        TeamSlots slots = teamSlots[st.teamId];
        java.util.concurrent.atomic.AtomicReferenceArray<TeamInstance> open = barrier ? slots.barriers()
                : slots.forks();
        int k = st.intervals.ref(m);
        TeamInstance inst = open.get(k);
        if (inst == null) {
            TeamInstance fresh = new TeamInstance(st.teamSize);
            inst = open.compareAndSet(k, null, fresh) ? fresh : open.get(k);
        }
        inst.byThread[st.teamThread] = a;
        if (inst.count.incrementAndGet() < st.teamSize) {
            return false;
        }
        open.set(k, null);
        TeamArrival[] team = inst.byThread;
        if (barrier) {
            OmpBarrierDelay.evaluate(this, team, t);
        } else {
            forkPath(team, t);
        }
        for (TeamArrival x : team) {
            if (x.location() != st.location) {
                states[x.location()].cursor--;
                scheduler.release(x.location());
            }
        }
        return true;
    }

    private TeamArrival barrierArrival(LocationState st, int m, int s, IntervalTimes t) {
        int prev = previousTeamPoint(st, s);
        TimeMap w = t.waitMap(st, prev, s);
        TimeMap mine = t.pruned(st, prev, s, w);
        return new TeamArrival(st.location, s, m, clock.secondsSinceStart(st.intervals.enter(m)), mine, w.sum(), prev);
    }

    /** Scalasca's {@code findPreviousOmpSynchpoint}: the last OpenMP point before {@code s}, -1 when none. */
    static int previousTeamPoint(LocationState st, int s) {
        return st.sp.previousTeam(s);
    }

    /**
     * The critical path at a fork (CriticalPath.pattern OMP_MGMT_FORK): a thread on it books its part up to the
     * fork, and the path goes on from the master.
     */
    private void forkPath(TeamArrival[] team, IntervalTimes t) {
        if (leavePath(team, t)) {
            LocationState master = states[team[0].location()];
            master.onCriticalPath = true;
            master.criticalPathEnd = team[0].mark();
        }
    }

    /**
     * The critical path at a team barrier (CriticalPath.pattern OMP_BARRIER): a thread on it books its part up to
     * the barrier, and every thread that did not wait there carries it on (the last to arrive; Scalasca notes that
     * ties give two paths).
     */
    void barrierPath(TeamArrival[] team, IntervalTimes t) {
        if (!leavePath(team, t)) {
            return;
        }
        for (TeamArrival a : team) {
            LocationState x = states[a.location()];
            if (!x.sp.isWaitState(a.sp())) {
                x.onCriticalPath = true;
                x.criticalPathEnd = a.mark();
            }
        }
    }

    /** Every thread of the team on the critical path books its part up to its point and leaves it; true if any was. */
    private boolean leavePath(TeamArrival[] team, IntervalTimes t) {
        boolean on = false;
        for (TeamArrival a : team) {
            LocationState x = states[a.location()];
            if (x.onCriticalPath) {
                leavePath(x, a.sp(), t);
                on = true;
            }
        }
        return on;
    }

    LocationState state(int location) {
        return states[location];
    }

    /** The idle-thread delay of every master's serial tail, before the backward replay starts (bwc PREPARE). */
    private void prepareTeams() {
        if (clock == null) {
            return;
        }
        // each team's instance counts: the most any of its threads has (TeamSyncPoints.Instances)
        int teams = 0;
        for (LocationState st : states) {
            if (st != null) {
                teams = Math.max(teams, st.teamId + 1);
            }
        }
        int[] forks = new int[teams];
        int[] barriers = new int[teams];
        for (LocationState st : states) {
            if (st != null && st.teamId >= 0) {
                forks[st.teamId] = Math.max(forks[st.teamId], st.loc.threads().parallels());
                barriers[st.teamId] = Math.max(barriers[st.teamId], st.loc.threads().barriers());
            }
        }
        teamSlots = new TeamSlots[teams];
        for (int id = 0; id < teams; id++) {
            teamSlots[id] = new TeamSlots(new java.util.concurrent.atomic.AtomicReferenceArray<>(forks[id]),
                    new java.util.concurrent.atomic.AtomicReferenceArray<>(barriers[id]));
        }
        IntervalTimes t = times.get();
        for (LocationState st : states) {
            if (st != null && st.teamId >= 0 && st.teamThread == 0) {
                OmpIdleDelay.atEnd(st, t);
            }
        }
    }

    private String describe(LocationState st, int m) {
        String what = switch (st.intervals.kind(m)) {
            case CallPathIntervals.SEND -> "a send";
            case CallPathIntervals.RECV, CallPathIntervals.RECV_REQUEST -> "a receive";
            case CallPathIntervals.COLLECTIVE_END -> "a collective";
            case CallPathIntervals.OMP_FORK -> "an OpenMP fork";
            case CallPathIntervals.OMP_BARRIER -> "an OpenMP barrier";
            default -> "an MPI call";
        };
        return what + " in " + regionOfPath.apply(st.callPath(m)) + " (entered at tick " + st.intervals.enter(m)
                + ")";
    }

    /**
     * Backward replay at a receive: Scalasca's PRE_RECV of the delay, long-term cost and critical-path patterns
     * ships the Late Sender wait, the receiver's time map, its long-term costs and the critical-path flag. A
     * blocking receive's request role ran before (see {@link #advance}): Scalasca's handlers run in that order
     * only for different events, and for one event a Late Sender wait excludes the Late Receiver role.
     */
    private void preRecv(LocationState st, int m, int recv, IntervalTimes t) {
        int s = st.spAt(m);
        PartnerFacts f = partners[st.location];
        int sl = f.sendLocation[recv];
        if (!st.sp.isWaitState(s) || sl < 0) {
            return; // only a Late Sender wait state makes the send a synchronisation point
        }
        toSend.deliver(key(sl, f.sendRow[recv]), shipment(st, s, f.sendRank[recv], t));
    }

    /** Backward replay at a send: receives the Late Sender shipment (blocking), then POST_SEND. */
    private boolean postSend(LocationState st, int m, int send, IntervalTimes t) {
        int s = st.spAt(m);
        PartnerFacts f = partners[st.location];
        if (s < 0 || f.recvLocation[send] < 0) {
            return true; // not a Late Sender synchronisation point: nothing to receive that matters
        }
        if (!f.recvIsWait[send]) {
            return true; // the receive waited for nothing: its message carries no wait, cost or path
        }
        Shipment sh = toSend.take(key(st.location, send), st.location);
        if (sh == null) {
            return false;
        }
        arrived(st, m, s, sh, f.recvRank[send], WaitType.LATE_SENDER, t,
                explain == null ? null : explain.lateSender(f.recvLocation[send], f.recvRow[send]));
        return true;
    }

    /** Backward replay at a send completion that is a Late Receiver wait state: PRE_INV_SENDCMP. */
    private void preSendComplete(LocationState st, int m, int send, IntervalTimes t) {
        int s = st.spAt(m);
        PartnerFacts f = partners[st.location];
        int rl = f.recvLocation[send];
        if (!st.sp.isWaitState(s) || rl < 0) {
            return;
        }
        // built (and the critical path leaves) even when the request does not take it
        Shipment sh = shipment(st, s, f.recvRank[send], t);
        if (f.requestTakes[send]) {
            toRequest.deliver(key(rl, f.recvRow[send]), sh);
        }
    }

    /** Backward replay at a receive request that is a Late Receiver synchronisation point: POST_INV_RECVREQ. */
    private boolean postRequest(LocationState st, int m, int recv, IntervalTimes t) {
        int q = st.spAt(m);
        PartnerFacts f = partners[st.location];
        if (q < 0 || st.sp.isWaitState(q) || f.sendLocation[recv] < 0) {
            return true;
        }
        if (!f.sendCompleteIsWait[recv]) {
            return true;
        }
        Shipment sh = toRequest.take(key(st.location, recv), st.location);
        if (sh == null) {
            return false;
        }
        arrived(st, m, q, sh, f.sendRank[recv], WaitType.LATE_RECEIVER, t,
                explain == null ? null : explain.lateReceiver(f.sendLocation[recv], f.sendRow[recv]));
        return true;
    }

    /**
     * What a point-to-point wait state at synchronisation point {@code s} ships to its cause: its wait, its time
     * map since the last synchronisation with the partner, its long-term costs, and the critical path, which
     * leaves this location here if it was on it.
     */
    private Shipment shipment(LocationState st, int s, int partnerRank, IntervalTimes times) {
        TimeMap tmap = times.delayTimemap(st, s, partnerRank);
        double[] costs = new double[WaitType.COUNT];
        for (int t = 0; t < WaitType.COUNT; t++) {
            costs[t] = st.cost(t, s);
        }
        boolean cp = st.onCriticalPath;
        if (cp) {
            leavePath(st, s, times);
        }
        return new Shipment(st.sp.waitTime(s), tmap, costs, cp);
    }

    /** A shipment reached its cause at synchronisation point {@code s} (mark {@code m}): delay and path. */
    private void arrived(LocationState st, int m, int s, Shipment sh, int partnerRank, int type,
                         IntervalTimes times, IntArrayList explained) {
        if (sh.waitTime() > 0) {
            pointToPointDelay(st, s, partnerRank, sh, type, times, explained);
        }
        if (sh.criticalPath()) {
            st.onCriticalPath = true;
            st.criticalPathEnd = m;
        }
    }

    /**
     * Delay of a point-to-point wait state, at the location that caused it (Delay.MPI.pattern POST_SEND /
     * POST_INV_RECVREQ, then the DELAY_LATE_SENDER / DELAY_LATE_RECEIVER handlers of the long-term, indirect and
     * propagating patterns). {@code s} is the synchronisation point here, {@code partner} the waiting rank;
     * {@code explained}: the most severe instances this wait state is (null: none).
     */
    private void pointToPointDelay(LocationState st, int s, int partner, Shipment sh, int type,
                                   IntervalTimes times, IntArrayList explained) {
        int prev = st.sp.previous(s, partner);
        TimeMap w = times.waitMap(st, prev, s);
        // the delay stays in the accumulator's scratch: nothing below asks it for another map
        int d = times.prunedMinusPositive(st, prev, s, w, sh.times());
        double dSum = times.delaySum();
        double rwait = sh.waitTime();
        double dw = dSum + w.sum();
        double scale = dw > 0 ? Math.min(rwait / dw, 1.0) : 0.0;
        if (explained != null) {
            explainPointToPoint(explained, st, prev, s, times, d, scale, scale * w.sum());
        }
        if (dSum > 0) {
            addScaled(st, WaitType.shortTerm(type), times, d, scale);
        }
        if (!(dw > 0)) {
            return;
        }
        for (int t = 0; t < WaitType.COUNT; t++) {
            double rcost = sh.costs()[t];
            if (t == type) {
                double scaleC = rcost / dw;
                if (scaleC > 0) {
                    addScaled(st, WaitType.longTerm(t), times, d, scaleC);
                }
                addCosts(st, t, prev, s, scale + scaleC);
            } else {
                double sc = rcost / dw;
                if (!(sc > 0)) {
                    continue;
                }
                addScaled(st, WaitType.longTerm(t), times, d, sc);
                addCosts(st, t, prev, s, sc);
            }
        }
        // indirect wait states: the part of the remote wait explained by waiting here (Waitstates.MPI.pattern)
        if (w.sum() > 0) {
            st.indirect[s] += scale * w.sum();
            if (scale > 0) {
                for (int x = prev + 1; x < s; x++) {
                    double wx = st.sp.waitTime(x);
                    if (wx > 0) {
                        double v = scale * wx;
                        double old = st.propagating[x];
                        st.propagating[x] = Double.isNaN(old) ? v : Math.max(v, old);
                    }
                }
            }
        }
    }

    /** The short-term delay of a point-to-point wait state that is one of the instances explained. */
    private void explainPointToPoint(IntArrayList which, LocationState st, int prev, int s, IntervalTimes times, int n,
                                     double scale, double propagated) {
        int[] paths = new int[n];
        double[] seconds = new double[n];
        for (int i = 0; i < n; i++) {
            paths[i] = times.delayPath(i);
            seconds[i] = scale * times.delaySeconds(i);
        }
        explain.record(which, st, prev, s, paths, seconds, n, propagated);
    }

    /** Books {@code scale} times the delay held by {@code times} ({@link IntervalTimes#prunedMinusPositive}). */
    static void addScaled(LocationState st, RootCauseMetric metric, IntervalTimes times, int n,
                                  double scale) {
        for (int i = 0; i < n; i++) {
            st.add(metric, times.delayPath(i), scale * times.delaySeconds(i));
        }
    }

    /** {@code DelayCostMap::addCosts(sps, scale)} over the wait states strictly between two points. */
    static void addCosts(LocationState st, int type, int fromSp, int toSp, double scale) {
        if (!(scale > 0)) {
            return;
        }
        double[] c = st.costRow(type);
        for (int x = fromSp + 1; x < toSp; x++) {
            double w = st.sp.waitTime(x);
            if (w > 0) {
                c[x] += scale * w;
            }
        }
    }

    /** {@code DelayCostMap::addCosts(sps, scales)}: the scale changes at the points the map names. */
    private static void addCosts(LocationState st, int type, int fromSp, int toSp, TreeMap<Integer, Double> scales) {
        if (toSp - fromSp <= 1 || scales.isEmpty()) {
            return;
        }
        double scale = scales.firstEntry().getValue();
        double[] c = st.costRow(type);
        for (int x = fromSp + 1; x < toSp; x++) {
            Double sx = scales.get(x);
            if (sx != null) {
                scale = sx;
            }
            double w = st.sp.waitTime(x);
            if (scale > 0 && w > 0) {
                c[x] += scale * w;
            }
        }
    }

    /** The critical path leaves {@code st} at synchronisation point {@code from}: books its part up to there. */
    private void leavePath(LocationState st, int from, IntervalTimes times) {
        updatePath(st, from, times);
        st.onCriticalPath = false;
    }

    /** Critical path: books the interval since it reached this location, minus the wait where it leaves. */
    private void updatePath(LocationState st, int from, IntervalTimes times) {
        int fromMark = from < 0 ? -1 : st.sp.mark(from);
        TimeMap tmap = times.runtimes(st, fromMark, st.criticalPathEnd);
        for (int i = 0; i < tmap.size(); i++) {
            st.add(RootCauseMetric.CRITICAL_PATH, tmap.paths()[i], tmap.seconds()[i]);
        }
        if (from >= 0) {
            int path = st.spCallPath(from);
            double waitT = Math.min(st.sp.waitTime(from), tmap.get(path));
            st.add(RootCauseMetric.CRITICAL_PATH, path, -waitT);
        }
    }

    // --- collectives -----------------------------------------------------------------------------------------

    /**
     * Arrives at a collective; once every participant has arrived the instance is processed and the others, parked
     * at it, are released. Members that take no part (no payload in an N x N operation, skipped operations) pass.
     * A member whose instance another replay evaluates hands its arrival over and goes on at once: the evaluation
     * writes only the reference rank's costs, and the one thing it changes for a waiting member, the critical path
     * leaving it, the member tells from its own arrival. Waiting for a release instead cost a second hand-over between
     * tasks per collective instance, with the tasks idle in between.
     */
    private boolean collective(LocationState st, int m, int row, IntervalTimes t) {
        CollectiveRoles r = roles[st.location];
        int k = r.instance[row];
        if (k < 0 || !r.participates[row]) {
            return true;
        }
        Arrival a = arrival(st, m, row, t);
        int coordinator = coordinator(a);
        if (states[coordinator] == null) {
            // evaluated elsewhere; the arrival is a copy of what the evaluation reads, so this member may change
            exchange.arrive(coordinator, a);
            if (a.kind() >= 0 && a.criticalPath() && a.waitState()) {
                // the critical path leaves a waiting member for the reference rank (see collectiveDelay)
                leavePath(st, a.sp(), t);
            }
            return true;
        }
        Pending p = arrive(a);
        if (p == null) {
            return false;
        }
        process(p, st.location, t);
        return true;
    }

    /**
     * The location that evaluates an instance: the reference rank's (whose costs the instance changes), or member 0's
     * for an instance without one. The same for every member: all carry the instance's reference.
     */
    private int coordinator(Arrival a) {
        return memberLocations[a.comm()][a.reference() >= 0 ? a.reference() : 0];
    }

    /** Records an arrival; the instance when it is complete now (then it is no longer pending). */
    private Pending arrive(Arrival a) {
        long key = a.key();
        synchronized (pending) {
            Pending p = pending.get(key);
            if (p == null) {
                p = new Pending(a.size(), a.participants());
                pending.put(key, p);
            }
            p.byMember[a.member()] = a;
            p.count++;
            if (p.count < p.expected) {
                return null;
            }
            pending.remove(key);
            return p;
        }
    }

    /** What member {@code st} contributes to the instance of its collective record {@code row} (mark {@code m}). */
    private Arrival arrival(LocationState st, int m, int row, IntervalTimes times) {
        CollectiveRoles r = roles[st.location];
        int comm = st.loc.collectives().comm(row);
        int[] global = globalRanks[comm];
        int j = memberIndex(comm, st.location);
        int kind = r.kind[row];
        if (kind < 0) {
            return new Arrival(comm, r.instance[row], j, st.location, row, r.participants[row], (byte) -1,
                    global.length, r.reference[row], -1, 0, null, false, false, null, null);
        }
        int ref = r.reference[row];
        int s = st.spAt(st.links.collectiveMark[row]);
        double[] costs = new double[WaitType.COUNT];
        for (int t = 0; t < WaitType.COUNT; t++) {
            costs[t] = s >= 0 ? st.cost(t, s) : 0;
        }
        TimeMap delay = s >= 0 && j != ref ? times.delayTimemap(st, s, global[ref]) : TimeMap.EMPTY;
        RootPart root = null;
        if (j == ref && s >= 0) {
            TreeMap<Integer, Integer> prevSps = new TreeMap<>(); // communicator rank -> sp on the reference rank
            int prevSp = previousGroupSync(st, s, global, ref, prevSps, memberOfRank[comm],
                    global.length == worldSize);
            TimeMap group = times.synchpointTimes(st, prevSp, s);
            TimeMap[] prevSpTimes = new TimeMap[global.length];
            for (var e : prevSps.entrySet()) {
                prevSpTimes[e.getKey()] = times.synchpointTimes(st, e.getValue(), s);
            }
            root = new RootPart(prevSp, prevSps, group, prevSpTimes);
        }
        return new Arrival(comm, r.instance[row], j, st.location, row, r.participants[row], (byte) kind,
                global.length, ref, s, Math.max(st.sp.waitTime(s), 0.0), costs, st.onCriticalPath,
                st.sp.isWaitState(s), delay, root);
    }

    /** Communicator rank of a location in {@code comm}. */
    private int memberIndex(int comm, int location) {
        int j = memberIndex[comm].get(location);
        if (j < 0) {
            throw new IllegalStateException("location " + location + " is no member of communicator " + comm);
        }
        return j;
    }

    /**
     * Processes a complete instance: its delay (Scalasca's {@code CalculateCollectiveDelay} and the collective delay
     * and critical-path handlers) booked at the held members it concerns, then releases the held members parked at
     * it other than {@code trigger}, which continues by itself (members held elsewhere went on when they arrived).
     */
    private void process(Pending p, int trigger, IntervalTimes times) {
        Arrival any = null;
        for (Arrival a : p.byMember) {
            if (a != null) {
                any = a;
                break;
            }
        }
        if (any != null && any.kind() >= 0) {
            collectiveDelay(p.byMember, any, times);
        }
        for (Arrival a : p.byMember) {
            if (a != null && a.location() != trigger && states[a.location()] != null) {
                states[a.location()].cursor--;
                scheduler.release(a.location());
            }
        }
    }

    /** The instance's delay from its members' arrivals; only held locations are written. */
    private void collectiveDelay(Arrival[] member, Arrival any, IntervalTimes times) {
        int n = any.size();
        int ref = any.reference();
        int type = switch (CollectiveSync.Kind.values()[any.kind()]) {
            case BARRIER -> WaitType.BARRIER;
            case N_TO_N -> WaitType.N_TO_N;
            case ONE_TO_N -> WaitType.ONE_TO_N;
            default -> WaitType.N_TO_ONE;
        };
        Arrival rootArrival = member[ref];
        int rootLocation = memberLocations[any.comm()][ref];
        LocationState root = states[rootLocation];
        int rootSp = rootArrival == null ? -1 : rootArrival.sp();
        boolean rootSync = rootSp >= 0;

        // --- the reference rank's interval and the intermediate synchronisation points of the others
        int prevSp = -1;
        TreeMap<Integer, Integer> prevSps = new TreeMap<>();
        TimeMap groupTmap = TimeMap.EMPTY;
        TimeMap[] prevSpTmaps = new TimeMap[n];
        if (rootSync) {
            RootPart rp = rootArrival.root();
            prevSp = rp.prevSp();
            prevSps = rp.prevSps();
            groupTmap = rp.group();
            prevSpTmaps = rp.prevSpTimes();
        }
        int[] cp = groupTmap.paths();
        int cpn = cp.length;

        // --- per member: local delay against the reference's times, scaled per input
        // inputs: 0 = the member's own wait (short-term), 1 + t = long-term cost of wait-state type t
        int inputs = 1 + WaitType.COUNT;
        double propagated = 0; // the part of the members' waits explained by the reference rank's own waiting
        double[][] reduced = new double[inputs][cpn];
        double[][] scaleOf = new double[n][inputs];
        for (int j = 0; j < n; j++) {
            Arrival a = member[j];
            if (a == null) {
                continue;
            }
            int s = a.sp();
            double[] timesJ = new double[cpn];
            double propWait;
            if (prevSpTmaps[j] != null) {
                for (int i = 0; i < cpn; i++) {
                    timesJ[i] = prevSpTmaps[j].get(cp[i]);
                }
                propWait = prevSpTmaps[j].sum();
            } else {
                System.arraycopy(groupTmap.seconds(), 0, timesJ, 0, cpn);
                propWait = groupTmap.sum();
            }
            double dsum = 0;
            double[] diff = new double[cpn];
            if (s >= 0) {
                TimeMap local = a.delay();
                for (int i = 0; i < cpn; i++) {
                    double dd = Math.max(timesJ[i] - local.get(cp[i]), 0.0);
                    diff[i] = dd;
                    dsum += dd;
                }
            }
            double[] in = new double[inputs];
            in[0] = a.waitTime();
            if (dsum + propWait > 0) {
                propagated += in[0] / (dsum + propWait) * propWait;
            }
            for (int t = 0; t < WaitType.COUNT; t++) {
                in[1 + t] = a.costs()[t];
            }
            for (int x = 0; x < inputs; x++) {
                double scale = dsum;
                if (dsum + propWait > 0) {
                    scale = in[x] / (dsum + propWait);
                }
                for (int i = 0; i < cpn; i++) {
                    reduced[x][i] += diff[i] * scale;
                }
                scaleOf[j][x] = scale;
            }
        }

        if (explain != null && rootSync && root != null) {
            for (Arrival a : member) {
                IntArrayList which = a == null ? null : explain.collective(a.location(), a.row());
                if (which != null) {
                    explain.record(which, root, prevSp, rootSp, cp, reduced[0], cpn, propagated);
                }
            }
        }

        // --- severities and long-term costs at the reference rank (CalculateScales for its wait states)
        if (rootSync && root != null) {
            TreeMap<Integer, Double>[] sumScales = sumScales(n, inputs, scaleOf, prevSp, prevSps);
            addReduced(root, WaitType.shortTerm(type), cp, reduced[0]);
            for (int t = 0; t < WaitType.COUNT; t++) {
                addReduced(root, WaitType.longTerm(t), cp, reduced[1 + t]);
                addCosts(root, t, prevSp, rootSp, sumScales[1 + t]);
                if (t == type) {
                    addCosts(root, t, prevSp, rootSp, sumScales[0]);
                }
            }
        }

        // --- critical path: it moves to the reference rank if it was waiting here
        boolean moved = false;
        for (int j = 0; j < n; j++) {
            Arrival a = member[j];
            if (a != null && a.criticalPath() && a.waitState()) {
                LocationState st = states[a.location()];
                if (st != null) {
                    leavePath(st, a.sp(), times);
                }
                moved = true;
            }
        }
        if (moved && root != null) {
            root.onCriticalPath = true;
            int row = rootArrival != null ? rootArrival.row() : rowOf(rootLocation, any.comm(), any.instance());
            root.criticalPathEnd = root.links.collectiveMark[row];
        }
    }

    /** The collective record of a held location that belongs to instance {@code k} of {@code comm}. */
    private int rowOf(int location, int comm, int k) {
        var t = states[location].loc.collectives();
        CollectiveRoles r = roles[location];
        for (int row = 0; row < t.size(); row++) {
            if (t.comm(row) == comm && r.instance[row] == k) {
                return row;
            }
        }
        throw new IllegalStateException("location " + location + " has no record of instance " + k
                + " of communicator " + comm);
    }

    private static void addReduced(LocationState st, RootCauseMetric metric, int[] cp, double[] v) {
        double sum = 0;
        for (double x : v) {
            sum += x;
        }
        if (!(sum > 0)) {
            return;
        }
        for (int i = 0; i < cp.length; i++) {
            st.add(metric, cp[i], v[i]);
        }
    }

    /**
     * Scalasca's {@code findPreviousMpiGroupSynchpoints}: walking back from {@code from} on the reference rank,
     * the point where it last synchronised with all other members, and on the way the later points where some of
     * them synchronised with it ({@code prevSps}, communicator rank → point). -1 when the start is reached first.
     */
    private static int previousGroupSync(LocationState st, int from, int[] members, int self,
                                         TreeMap<Integer, Integer> prevSps, Int2IntOpenHashMap memberOfRank,
                                         boolean world) {
        if (world && members.length == 2) {
            return previousPairSync(st, from, members, self, prevSps);
        }
        if (memberOfRank == null) {
            return previousGroupSyncByMember(st, from, members, self, prevSps);
        }
        // the same walk, asking each point which members it covers instead of asking every member: a
        // point-to-point point covers at most one, so a walk over many such points is not members x points
        boolean[] remaining = new boolean[members.length];
        int left = 0;
        for (int j = 0; j < members.length; j++) {
            if (j != self) {
                remaining[j] = true;
                left++;
            }
        }
        SyncPoints sp = st.sp;
        for (int x = from - 1; x >= 0 && left > 0; x--) {
            if (sp.all(x)) {
                return x;
            }
            int single = sp.singleRank(x);
            if (single >= 0) {
                int j = memberOfRank.get(single);
                if (j >= 0 && remaining[j]) {
                    if (left == 1) {
                        return x;
                    }
                    prevSps.put(j, x);
                    remaining[j] = false;
                    left--;
                }
                continue;
            }
            int[] ranks = sp.several(x);
            if (ranks == null) {
                continue; // an OpenMP point synchronised with no rank
            }
            int covered = 0;
            for (int r : ranks) {
                int j = memberOfRank.get(r);
                if (j >= 0 && remaining[j]) {
                    covered++;
                }
            }
            if (covered == left) {
                return x;
            }
            for (int r : ranks) {
                int j = memberOfRank.get(r);
                if (j >= 0 && remaining[j]) {
                    prevSps.put(j, x);
                    remaining[j] = false;
                    left--;
                }
            }
        }
        return left == 0 ? lastCovering(prevSps) : -1;
    }

    /**
     * {@link #previousGroupSync} in a world of two ranks, with the turn Scalasca's set arithmetic takes there: its set
     * of remaining ranks starts as "every rank but the root" ({@code fixed_set}'s inverse form), and a point of one
     * rank is never judged to cover such a set ({@code operator>=}), even when the other rank is all it holds. So a
     * point-to-point (or rooted collective) point covering the other rank is reached through the partial branch: the
     * rank is recorded with that point ({@code prevSps}) and the point is also the group's previous point. The
     * consequence: the other rank's scale is taken out of the interval's long-term cost scale and, the point being
     * the interval's own start, never added back (docs/root-causes.md). A point of every rank covers as usual.
     */
    private static int previousPairSync(LocationState st, int from, int[] members, int self,
                                        TreeMap<Integer, Integer> prevSps) {
        int other = 1 - self;
        int rank = members[other];
        for (int x = from - 1; x >= 0; x--) {
            if (!st.sp.contains(x, rank)) {
                continue;
            }
            if (st.sp.singleRank(x) >= 0) {
                prevSps.put(other, x);
            }
            return x;
        }
        return -1;
    }

    /** {@link #previousGroupSync} testing every remaining member at every point (a communicator naming a rank twice). */
    private static int previousGroupSyncByMember(LocationState st, int from, int[] members, int self,
                                                 TreeMap<Integer, Integer> prevSps) {
        IntArrayList remaining = new IntArrayList();
        for (int j = 0; j < members.length; j++) {
            if (j != self) {
                remaining.add(j);
            }
        }
        for (int x = from - 1; x >= 0 && !remaining.isEmpty(); x--) {
            boolean all = true;
            for (int i = 0; i < remaining.size() && all; i++) {
                all = st.sp.contains(x, members[remaining.getInt(i)]);
            }
            if (all) {
                return x;
            }
            for (int i = remaining.size() - 1; i >= 0; i--) {
                int j = remaining.getInt(i);
                if (st.sp.contains(x, members[j])) {
                    prevSps.put(j, x);
                    remaining.removeInt(i);
                }
            }
        }
        return remaining.isEmpty() ? lastCovering(prevSps) : -1;
    }

    /** When the last ranks were covered by partial points, Scalasca's loop ends on the last point it visited. */
    private static int lastCovering(TreeMap<Integer, Integer> prevSps) {
        int min = Integer.MAX_VALUE;
        for (int v : prevSps.values()) {
            min = Math.min(min, v);
        }
        return min == Integer.MAX_VALUE ? -1 : min;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TreeMap<Integer, Double>[] sumScales(int n, int inputs, double[][] scaleOf, int prevSp,
                                                       TreeMap<Integer, Integer> prevSps) {
        TreeMap<Integer, Double>[] out = new TreeMap[inputs];
        for (int x = 0; x < inputs; x++) {
            double sum = 0;
            for (int j = 0; j < n; j++) {
                sum += scaleOf[j][x];
            }
            TreeMap<Integer, Double> increments = new TreeMap<>();
            for (var e : prevSps.entrySet()) {
                double s = scaleOf[e.getKey()][x];
                sum -= s;
                increments.merge(e.getValue(), s, Double::sum);
            }
            TreeMap<Integer, Double> scales = new TreeMap<>();
            scales.put(prevSp, sum);
            for (var e : increments.entrySet()) {
                scales.putIfAbsent(e.getKey(), sum);
                sum += e.getValue();
            }
            out[x] = scales;
        }
        return out;
    }

    // --- scheduling ------------------------------------------------------------------------------------------

    /** Runs released locations until none is left; a location is released once per blocking. */
    private interface Scheduler {
        void release(int location);

        void await();
    }

    /** One thread: a queue of released locations. */
    private final class QueueScheduler implements Scheduler {
        private final IntArrayFIFOQueue runnable = new IntArrayFIFOQueue();

        @Override
        public void release(int location) {
            runnable.enqueue(location);
        }

        @Override
        public void await() {
            int advances = 0;
            while (!runnable.isEmpty()) {
                advance(states[runnable.dequeueInt()]);
                if (tick != null && (++advances & 4095) == 0) {
                    tick.run();
                }
            }
        }
    }

    /**
     * A pool: one worker per thread takes released locations from a shared queue and advances each until it
     * blocks. A location is released about once per 30 marks, a million times for 10^8 events, so a release only
     * queues the location and wakes a worker if one is idle, instead of submitting a task to the pool (whose
     * hand-over cost about as much as the work). The replay is over when the queue is empty and no worker is
     * advancing a location (only those can release one); a failure in any worker is rethrown.
     */
    private final class PoolScheduler implements Scheduler {
        private final ExecutorService pool;
        private final int threads;
        /** Released locations any worker may take; guarded by this. */
        private final IntArrayFIFOQueue runnable = new IntArrayFIFOQueue();
        /**
         * Per worker, the locations it released itself (the threads of a team that meet at a barrier every few
         * events): taken by the same worker without the shared lock, handed to the shared queue when another worker
         * waits for work. A worker holding some counts as running, so the end of the replay is still seen.
         */
        private final ThreadLocal<IntArrayFIFOQueue> own = new ThreadLocal<>();
        /** Workers advancing a location, workers waiting for one; guarded by this ({@code idle} also read without). */
        private int running;
        private volatile int idle;
        private boolean done;
        private Throwable failure;

        PoolScheduler(ExecutorService pool, int threads) {
            this.pool = pool;
            this.threads = threads;
        }

        @Override
        public void release(int location) {
            IntArrayFIFOQueue mine = own.get();
            if (mine != null) {
                mine.enqueue(location);
                return;
            }
            synchronized (this) {
                runnable.enqueue(location);
                if (idle > 0) {
                    notify();
                }
            }
        }

        @Override
        public void await() {
            CountDownLatch finished = new CountDownLatch(threads);
            for (int w = 0; w < threads; w++) {
                pool.execute(() -> {
                    try {
                        work();
                    } finally {
                        finished.countDown();
                    }
                });
            }
            try {
                while (!finished.await(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    if (tick != null) {
                        tick.run();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                synchronized (this) {
                    done = true;
                    notifyAll();
                }
                throw new IllegalStateException("root-cause replay interrupted", e);
            }
            Throwable t;
            synchronized (this) {
                t = failure;
            }
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error e) {
                throw e;
            }
        }

        private void work() {
            IntArrayFIFOQueue mine = new IntArrayFIFOQueue();
            own.set(mine);
            try {
                while (true) {
                    int l;
                    synchronized (this) {
                        while (runnable.isEmpty() && !done) {
                            if (running == 0) {
                                // nothing queued and nobody who could queue anything: the replay is over
                                done = true;
                                notifyAll();
                                break;
                            }
                            idle++;
                            try {
                                wait();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                done = true;
                                notifyAll();
                            } finally {
                                idle--;
                            }
                        }
                        if (done) {
                            return;
                        }
                        l = runnable.dequeueInt();
                        running++;
                    }
                    try {
                        while (true) {
                            advance(states[l]);
                            if (mine.isEmpty()) {
                                break;
                            }
                            if (idle > 0 && mine.size() > 1) {
                                share(mine);
                            }
                            l = mine.dequeueInt();
                        }
                    } catch (Throwable t) {
                        mine.clear();
                        synchronized (this) {
                            if (failure == null) {
                                failure = t;
                            }
                            done = true;
                            notifyAll();
                        }
                    } finally {
                        synchronized (this) {
                            running--;
                            if (running == 0 && runnable.isEmpty()) {
                                done = true;
                                notifyAll();
                            }
                        }
                    }
                }
            } finally {
                own.remove();
            }
        }

        /** Hands half of a worker's own locations to the shared queue, for the workers waiting. */
        private void share(IntArrayFIFOQueue mine) {
            synchronized (this) {
                for (int k = mine.size() / 2; k > 0; k--) {
                    runnable.enqueue(mine.dequeueLastInt());
                }
                notifyAll();
            }
        }
    }

    // --- forward classification (fwc) -------------------------------------------------------------------------

    /**
     * Indirect wait states: a receive (request) gets the indirect waiting its partner recorded; propagating wait
     * states: a Late Sender receive or Late Receiver send completion gets the largest share of later waiting it
     * propagated to. Held locations in location order, each point in stream order; what belongs to a partner goes to
     * {@code sink}.
     */
    void forwardClassification(RootCauses.Indirect sink) {
        for (LocationState st : states) {
            if (st == null) {
                continue;
            }
            PartnerFacts f = partners[st.location];
            for (int s = 0; s < st.sp.size(); s++) {
                int m = st.sp.mark(s);
                byte kind = st.intervals.kind(m);
                double prop = st.propagating[s];
                if (!Double.isNaN(prop)) {
                    if (kind == CallPathIntervals.RECV) {
                        st.add(RootCauseMetric.MPI_WAIT_PROPAGATING_LS, st.callPath(m), prop);
                    } else if (kind == CallPathIntervals.SEND_COMPLETE
                            || (kind == CallPathIntervals.SEND && isBlockingSendMark(st, m))) {
                        st.add(RootCauseMetric.MPI_WAIT_PROPAGATING_LR, st.callPath(m), prop);
                    }
                }
                double pw = st.indirect[s];
                if (pw > 0) {
                    int ref = st.intervals.ref(m);
                    if (kind == CallPathIntervals.SEND) {
                        if (f.recvLocation[ref] >= 0) {
                            sink.indirect(f.recvLocation[ref], f.recvRow[ref], true, st.location, s, pw);
                        }
                    } else if (ref >= 0 && (kind == CallPathIntervals.RECV_REQUEST
                            || kind == CallPathIntervals.RECV)) {
                        if (f.sendLocation[ref] >= 0) {
                            sink.indirect(f.sendLocation[ref], f.sendRow[ref], false, st.location, s, pw);
                        }
                    }
                }
            }
        }
    }

    /** Books indirect waiting at the partner record it belongs to ({@link RootCauses.Indirect}). */
    static void addIndirect(LocationState target, int row, boolean lateSender, double seconds) {
        if (lateSender) {
            target.add(RootCauseMetric.MPI_WAIT_INDIRECT_LATESENDER, target.callPath(target.links.recvMark[row]),
                    seconds);
        } else {
            target.add(RootCauseMetric.MPI_WAIT_INDIRECT_LATERECEIVER,
                    target.callPath(target.links.sendCompleteMark[row]), seconds);
        }
    }

    /** An MpiSend record (MPI_SEND event type): its own completion. */
    private static boolean isBlockingSendMark(LocationState st, int m) {
        return st.links.sendCompleteMark[st.intervals.ref(m)] == m;
    }
}
