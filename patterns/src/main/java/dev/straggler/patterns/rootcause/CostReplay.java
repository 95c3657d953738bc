package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.waitstate.CollectiveOutcomes;
import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.CollectiveMatching;
import dev.straggler.replay.Replay;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

import java.util.ArrayDeque;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scalasca's backward cost-accounting replay ({@code bwc}: delay costs and the critical path) and its forward
 * classification replay ({@code fwc}: propagating and indirect wait states), reference §1.6, on the marks of every
 * rank's master location.
 *
 * <p>Each location is replayed from its last mark to its first. Data flows exactly where Scalasca's replay sends
 * it: from a Late Sender receive to its send, from a Late Receiver send completion to its receive request, and
 * among the members of a collective. A location blocks only where it needs such data; since the values every
 * location computes depend only on its own marks and the data it receives, the result does not depend on the order
 * in which locations advance (a Kahn network), and equals Scalasca's.
 */
final class CostReplay {
    /** Data a wait state ships to the location that caused it. */
    private record Shipment(double waitTime, TimeMap times, double[] costs, boolean criticalPath) {
    }

    private final Replay replay;
    private final LocationState[] states;
    private final Matches matches;
    /**
     * Shipments in one direction, keyed by their destination (location, row), and the locations blocked on one.
     * Taking and delivering are atomic, so a location is released exactly once, by whoever delivers what it waits
     * for; the lock also hands the shipment and the blocked location's state over between threads.
     */
    private final class Channel {
        private final Long2ObjectOpenHashMap<Shipment> shipped = new Long2ObjectOpenHashMap<>();
        private final Long2IntOpenHashMap waiting = new Long2IntOpenHashMap();

        Channel() {
            waiting.defaultReturnValue(-1);
        }

        void deliver(long key, Shipment sh) {
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

    /** Late Sender shipments, keyed by the receiving send (location, send row). */
    private final Channel toSend = new Channel();
    /** Late Receiver shipments, keyed by the receive whose request gets them (location, receive row). */
    private final Channel toRequest = new Channel();
    /** Participants still to arrive per collective instance, keyed by (communicator, instance). */
    private final Long2IntOpenHashMap pending = new Long2IntOpenHashMap();
    private final int[][] instanceOf;
    /** Per worker thread: the interval accumulator and the collective being processed. */
    private final ThreadLocal<IntervalTimes> times;
    private final ThreadLocal<CollectiveSync> sync = ThreadLocal.withInitial(CollectiveSync::new);
    private Scheduler scheduler;

    private final CollectiveOutcomes outcomes;

    CostReplay(Replay replay, CollectiveOutcomes outcomes, LocationState[] states, Matches matches,
               int[][] instanceOf) {
        this.replay = replay;
        this.outcomes = outcomes;
        this.states = states;
        this.matches = matches;
        int paths = replay.callTree().size();
        this.times = ThreadLocal.withInitial(() -> new IntervalTimes(paths));
        this.instanceOf = instanceOf;
        pending.defaultReturnValue(-1);
    }

    private IntervalTimes times() {
        return times.get();
    }

    static long key(int location, int row) {
        return ((long) location << 32) | (row & 0xffffffffL);
    }

    /**
     * Runs the backward replay on every location, then the forward classification. With a pool, locations advance
     * on its threads, each on one thread at a time; the result is the same for any number of threads.
     */
    void run(ExecutorService pool, int threads) {
        scheduler = threads > 1 && pool != null ? new PoolScheduler(pool) : new QueueScheduler();
        for (LocationState st : states) {
            if (st != null) {
                scheduler.release(st.location);
            }
        }
        scheduler.await();
        StringBuilder blocked = new StringBuilder();
        int count = 0;
        for (LocationState st : states) {
            if (st != null && st.cursor >= 0) {
                if (count++ < 3) {
                    blocked.append(count > 1 ? ", " : "").append("rank ").append(st.rank).append(" at ")
                            .append(describe(st, st.cursor));
                }
            }
        }
        if (count > 0) {
            throw new RootCauses.ImpossibleOrder(count + " rank(s) cannot be replayed backwards (" + blocked
                    + (count > 3 ? ", ..." : "") + "): the recorded communication order cannot have happened");
        }
        forwardClassification();
    }

    // --- backward replay -----------------------------------------------------------------------------------

    private void advance(LocationState st) {
        CallPathIntervals iv = st.intervals;
        while (st.cursor >= 0) {
            int m = st.cursor;
            int ref = iv.ref(m);
            switch (iv.kind(m)) {
                case CallPathIntervals.SEND -> {
                    if (!postSend(st, m, ref)) {
                        return;
                    }
                    if (st.links.sendCompleteMark[ref] == m) {
                        preSendComplete(st, m, ref);
                    }
                }
                case CallPathIntervals.SEND_COMPLETE -> preSendComplete(st, m, ref);
                case CallPathIntervals.RECV -> {
                    if (st.links.requestMark[ref] == m && !postRequest(st, m, ref)) {
                        return;
                    }
                    preRecv(st, m, ref);
                }
                case CallPathIntervals.RECV_REQUEST -> {
                    if (ref >= 0 && !postRequest(st, m, ref)) {
                        return;
                    }
                }
                case CallPathIntervals.COLLECTIVE_END -> {
                    if (!collective(st, m, ref)) {
                        return;
                    }
                }
                case CallPathIntervals.INIT -> {
                    if (st.onCriticalPath) {
                        updatePath(st, st.spAt(m));
                    }
                }
                case CallPathIntervals.FINALIZE -> {
                    if (replay.definitions().masterLocationByRank().length > 0 && st.rank == finalizeLatest) {
                        st.onCriticalPath = true;
                        st.criticalPathEnd = m;
                    }
                }
                default -> {
                }
            }
            st.cursor--;
        }
    }

    private String describe(LocationState st, int m) {
        String what = switch (st.intervals.kind(m)) {
            case CallPathIntervals.SEND -> "a send";
            case CallPathIntervals.RECV, CallPathIntervals.RECV_REQUEST -> "a receive";
            case CallPathIntervals.COLLECTIVE_END -> "a collective";
            default -> "an MPI call";
        };
        int region = replay.callTree().region(st.callPath(m));
        return what + " in " + replay.regions().regions().get(region).name() + " (entered at tick "
                + st.intervals.enter(m) + ")";
    }

    /** Rank that entered MPI_Finalize last (ties: the lowest rank); -1 when Finalize is incomplete. */
    int finalizeLatest = -1;

    /**
     * Backward replay at a receive: Scalasca's PRE_RECV of the delay, long-term cost and critical-path patterns
     * ships the Late Sender wait, the receiver's time map, its long-term costs and the critical-path flag. A
     * blocking receive's request role ran before (see {@link #advance}): Scalasca's handlers run in that order
     * only for different events, and for one event a Late Sender wait excludes the Late Receiver role.
     */
    private void preRecv(LocationState st, int m, int recv) {
        int s = st.spAt(m);
        int sl = matches.recvPartnerLocation(st.location, recv);
        if (!st.sp.isWaitState(s) || sl < 0) {
            return; // only a Late Sender wait state makes the send a synchronisation point
        }
        toSend.deliver(key(sl, matches.recvPartner(st.location, recv)), shipment(st, s, states[sl].rank));
    }

    /** Backward replay at a send: receives the Late Sender shipment (blocking), then POST_SEND. */
    private boolean postSend(LocationState st, int m, int send) {
        int s = st.spAt(m);
        int rl = matches.sendPartnerLocation(st.location, send);
        if (s < 0 || rl < 0) {
            return true; // not a Late Sender synchronisation point: nothing to receive that matters
        }
        LocationState receiver = states[rl];
        if (!receiver.sp.isWaitState(receiver.spAt(receiver.links.recvMark[matches.sendPartner(st.location, send)]))) {
            return true; // the receive waited for nothing: its message carries no wait, cost or path
        }
        Shipment sh = toSend.take(key(st.location, send), st.location);
        if (sh == null) {
            return false;
        }
        arrived(st, m, s, sh, receiver.rank, WaitType.LATE_SENDER);
        return true;
    }

    /** Backward replay at a send completion that is a Late Receiver wait state: PRE_INV_SENDCMP. */
    private void preSendComplete(LocationState st, int m, int send) {
        int s = st.spAt(m);
        int rl = matches.sendPartnerLocation(st.location, send);
        if (!st.sp.isWaitState(s) || rl < 0) {
            return;
        }
        LocationState receiver = states[rl];
        int ri = matches.sendPartner(st.location, send);
        // built (and the critical path leaves) even when the request does not take it
        Shipment sh = shipment(st, s, receiver.rank);
        int q = receiver.spAt(receiver.links.requestMark[ri]);
        if (q >= 0 && !receiver.sp.isWaitState(q)) {
            toRequest.deliver(key(rl, ri), sh);
        }
    }

    /** Backward replay at a receive request that is a Late Receiver synchronisation point: POST_INV_RECVREQ. */
    private boolean postRequest(LocationState st, int m, int recv) {
        int q = st.spAt(m);
        int sl = matches.recvPartnerLocation(st.location, recv);
        if (q < 0 || st.sp.isWaitState(q) || sl < 0) {
            return true;
        }
        LocationState sender = states[sl];
        if (!sender.sp.isWaitState(sender.spAt(sender.links.sendCompleteMark[matches.recvPartner(st.location, recv)]))) {
            return true;
        }
        Shipment sh = toRequest.take(key(st.location, recv), st.location);
        if (sh == null) {
            return false;
        }
        arrived(st, m, q, sh, sender.rank, WaitType.LATE_RECEIVER);
        return true;
    }

    /**
     * What a point-to-point wait state at synchronisation point {@code s} ships to its cause: its wait, its time
     * map since the last synchronisation with the partner, its long-term costs, and the critical path, which
     * leaves this location here if it was on it.
     */
    private Shipment shipment(LocationState st, int s, int partnerRank) {
        TimeMap tmap = times().delayTimemap(st, s, partnerRank);
        double[] costs = new double[WaitType.COUNT];
        for (int t = 0; t < WaitType.COUNT; t++) {
            costs[t] = st.cost[t][s];
        }
        boolean cp = st.onCriticalPath;
        if (cp) {
            updatePath(st, s);
            st.onCriticalPath = false;
        }
        return new Shipment(st.sp.waitTime(s), tmap, costs, cp);
    }

    /** A shipment reached its cause at synchronisation point {@code s} (mark {@code m}): delay and path. */
    private void arrived(LocationState st, int m, int s, Shipment sh, int partnerRank, int type) {
        if (sh.waitTime() > 0) {
            pointToPointDelay(st, s, partnerRank, sh, type);
        }
        if (sh.criticalPath()) {
            st.onCriticalPath = true;
            st.criticalPathEnd = m;
        }
    }

    /**
     * Delay of a point-to-point wait state, at the location that caused it (Delay.MPI.pattern POST_SEND /
     * POST_INV_RECVREQ, then the DELAY_LATE_SENDER / DELAY_LATE_RECEIVER handlers of the long-term, indirect and
     * propagating patterns). {@code s} is the synchronisation point here, {@code partner} the waiting rank.
     */
    private void pointToPointDelay(LocationState st, int s, int partner, Shipment sh, int type) {
        DBGCTX = "p2p type " + type + " sp " + s + " mark " + st.sp.mark(s) + " partner " + partner + " rwait " + sh.waitTime() + " costs " + java.util.Arrays.toString(sh.costs());
        int prev = st.sp.previous(s, partner);
        TimeMap w = IntervalTimes.waitMap(st, prev, s);
        TimeMap pruned = times().pruned(st, prev, s, w);
        TimeMap d = pruned.minusPositive(sh.times());
        double rwait = sh.waitTime();
        double dw = d.sum() + w.sum();
        double scale = dw > 0 ? Math.min(rwait / dw, 1.0) : 0.0;
        if (d.sum() > 0) {
            addScaled(st, WaitType.shortTerm(type), d, scale);
        }
        if (!(dw > 0)) {
            return;
        }
        for (int t = 0; t < WaitType.COUNT; t++) {
            double rcost = sh.costs()[t];
            if (t == type) {
                double scaleC = rcost / dw;
                if (scaleC > 0) {
                    addScaled(st, WaitType.longTerm(t), d, scaleC);
                }
                addCosts(st, t, prev, s, scale + scaleC);
            } else {
                double sc = rcost / dw;
                if (!(sc > 0)) {
                    continue;
                }
                addScaled(st, WaitType.longTerm(t), d, sc);
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

    static String DBGCTX = "";
    private static void addScaled(LocationState st, RootCauseMetric metric, TimeMap d, double scale) {
        int[] p = d.paths();
        double[] v = d.seconds();
        for (int i = 0; i < p.length; i++) {
            if (System.getProperty("dbg5") != null && st.rank == 1 && p[i] == 32) System.err.println("DBG5 " + DBGCTX + " " + metric + " scale " + scale + " v " + v[i] + " add " + (scale * v[i]));
            st.add(metric, p[i], scale * v[i]);
        }
    }

    /** {@code DelayCostMap::addCosts(sps, scale)} over the wait states strictly between two points. */
    private static void addCosts(LocationState st, int type, int fromSp, int toSp, double scale) {
        if (!(scale > 0)) {
            return;
        }
        double[] c = st.cost[type];
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
        double[] c = st.cost[type];
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

    /** Critical path: books the interval since it reached this location, minus the wait where it leaves. */
    private void updatePath(LocationState st, int from) {
        int fromMark = from < 0 ? -1 : st.sp.mark(from);
        TimeMap tmap = times().runtimes(st, fromMark, st.criticalPathEnd);
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
     */
    private boolean collective(LocationState st, int m, int row) {
        int k = instanceOf[st.location][row];
        if (k < 0 || !outcomes.participates(st.location, row)) {
            return true;
        }
        int comm = st.loc.collectives().comm(row);
        CollectiveMatching cm = replay.collectives();
        long key = ((long) comm << 32) | k;
        // the last participant to arrive processes the instance; the others are parked and untouched meanwhile
        synchronized (pending) {
            int missing = pending.get(key);
            if (missing < 0) {
                missing = 0;
                for (int j = 0; j < cm.size(comm); j++) {
                    if (outcomes.participates(cm.memberLocation(comm, j), cm.record(comm, k, j))) {
                        missing++;
                    }
                }
            }
            missing--;
            if (missing > 0) {
                pending.put(key, missing);
                return false;
            }
            pending.remove(key);
        }
        CollectiveSync c = sync.get();
        if (c.load(replay, outcomes, comm, k)) {
            collectiveDelay(c, comm, k);
        }
        for (int j = 0; j < cm.size(comm); j++) {
            int l = cm.memberLocation(comm, j);
            if (l != st.location && outcomes.participates(l, cm.record(comm, k, j))) {
                states[l].cursor--;
                scheduler.release(l);
            }
        }
        return true;
    }

    /** Scalasca's {@code CalculateCollectiveDelay} and the collective delay / critical-path handlers. */
    private void collectiveDelay(CollectiveSync sync, int comm, int k) {
        CollectiveMatching cm = replay.collectives();
        int n = sync.size;
        int ref = sync.reference;
        int type = switch (sync.kind) {
            case BARRIER -> WaitType.BARRIER;
            case N_TO_N -> WaitType.N_TO_N;
            case ONE_TO_N -> WaitType.ONE_TO_N;
            default -> WaitType.N_TO_ONE;
        };
        LocationState[] member = new LocationState[n];
        int[] spOf = new int[n];
        for (int j = 0; j < n; j++) {
            int l = cm.memberLocation(comm, j);
            member[j] = states[l];
            int row = cm.record(comm, k, j);
            spOf[j] = member[j].spAt(member[j].links.collectiveMark[row]);
        }
        int[] globalRank = replay.definitions().communicator(comm).members();
        LocationState root = member[ref];
        int rootSp = spOf[ref];
        boolean rootSync = rootSp >= 0;

        // --- the reference rank's interval and the intermediate synchronisation points of the others
        int prevSp = -1;
        TreeMap<Integer, Integer> prevSps = new TreeMap<>(); // communicator rank -> sp on the reference rank
        TimeMap groupTmap = TimeMap.EMPTY;
        TimeMap[] prevSpTmaps = new TimeMap[n];
        if (rootSync) {
            prevSp = previousGroupSync(root, rootSp, globalRank, ref, prevSps);
            groupTmap = times().synchpointTimes(root, prevSp, rootSp);
            for (var e : prevSps.entrySet()) {
                prevSpTmaps[e.getKey()] = times().synchpointTimes(root, e.getValue(), rootSp);
            }
        }
        int[] cp = groupTmap.paths();
        int cpn = cp.length;

        // --- per member: local delay against the reference's times, scaled per input
        // inputs: 0 = the member's own wait (short-term), 1 + t = long-term cost of wait-state type t
        int inputs = 1 + WaitType.COUNT;
        double[][] reduced = new double[inputs][cpn];
        double[][] scaleOf = new double[n][inputs];
        for (int j = 0; j < n; j++) {
            if (!sync.participates[j]) {
                continue;
            }
            LocationState st = member[j];
            int s = spOf[j];
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
                TimeMap local = j == ref ? TimeMap.EMPTY : times().delayTimemap(st, s, globalRank[ref]);
                for (int i = 0; i < cpn; i++) {
                    double dd = Math.max(timesJ[i] - local.get(cp[i]), 0.0);
                    diff[i] = dd;
                    dsum += dd;
                }
            }
            double[] in = new double[inputs];
            in[0] = Math.max(st.sp.waitTime(s), 0.0);
            for (int t = 0; t < WaitType.COUNT; t++) {
                in[1 + t] = s >= 0 ? st.cost[t][s] : 0;
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

        // --- scales for the long-term costs of the reference's wait states (CalculateScales)
        TreeMap<Integer, Double>[] sumScales = sumScales(n, inputs, scaleOf, prevSp, prevSps);

        // --- severities and long-term costs at the reference rank
        if (rootSync) {
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
            LocationState st = member[j];
            if (sync.participates[j] && st.onCriticalPath && st.sp.isWaitState(spOf[j])) {
                updatePath(st, spOf[j]);
                st.onCriticalPath = false;
                moved = true;
            }
        }
        if (moved) {
            root.onCriticalPath = true;
            root.criticalPathEnd = root.links.collectiveMark[cm.record(comm, k, ref)];
        }
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

    @SuppressWarnings("unchecked")
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
        private final ArrayDeque<Integer> runnable = new ArrayDeque<>();

        @Override
        public void release(int location) {
            runnable.add(location);
        }

        @Override
        public void await() {
            while (!runnable.isEmpty()) {
                advance(states[runnable.poll()]);
            }
        }
    }

    /**
     * A pool: every release is a task advancing that location until it blocks. The replay is over when no task is
     * outstanding; a failure in any task is rethrown.
     */
    private final class PoolScheduler implements Scheduler {
        private final ExecutorService pool;
        /** Released and not finished, plus one until {@link #await} is called (the seeding may not end it). */
        private final AtomicInteger outstanding = new AtomicInteger(1);
        private final CountDownLatch idle = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        PoolScheduler(ExecutorService pool) {
            this.pool = pool;
        }

        @Override
        public void release(int location) {
            outstanding.incrementAndGet();
            pool.execute(() -> {
                try {
                    if (failure.get() == null) {
                        advance(states[location]);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    if (outstanding.decrementAndGet() == 0) {
                        idle.countDown();
                    }
                }
            });
        }

        @Override
        public void await() {
            if (outstanding.decrementAndGet() > 0) {
                try {
                    idle.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("root-cause replay interrupted", e);
                }
            }
            Throwable t = failure.get();
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error e) {
                throw e;
            }
        }
    }

    // --- forward classification (fwc) -------------------------------------------------------------------------

    /**
     * Indirect wait states: a receive (request) gets the indirect waiting its partner recorded; propagating wait
     * states: a Late Sender receive or Late Receiver send completion gets the largest share of later waiting it
     * propagated to.
     */
    private void forwardClassification() {
        for (LocationState st : states) {
            if (st == null) {
                continue;
            }
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
                        int rl = matches.sendPartnerLocation(st.location, ref);
                        if (rl >= 0) {
                            LocationState r = states[rl];
                            int rm = r.links.recvMark[matches.sendPartner(st.location, ref)];
                            r.add(RootCauseMetric.MPI_WAIT_INDIRECT_LATESENDER, r.callPath(rm), pw);
                        }
                    } else if (ref >= 0 && (kind == CallPathIntervals.RECV_REQUEST
                            || kind == CallPathIntervals.RECV)) {
                        int sl = matches.recvPartnerLocation(st.location, ref);
                        if (sl >= 0) {
                            LocationState snd = states[sl];
                            int cm = snd.links.sendCompleteMark[matches.recvPartner(st.location, ref)];
                            snd.add(RootCauseMetric.MPI_WAIT_INDIRECT_LATERECEIVER, snd.callPath(cm), pw);
                        }
                    }
                }
            }
        }
    }

    /** An MpiSend record (MPI_SEND event type): its own completion. */
    private static boolean isBlockingSendMark(LocationState st, int m) {
        return st.links.sendCompleteMark[st.intervals.ref(m)] == m;
    }
}
