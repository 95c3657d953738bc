package dev.straggler.testdata.sim;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;
import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import it.unimi.dsi.fastutil.objects.Object2ObjectOpenHashMap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What-if replay of a recorded trace through the simulator's {@link NetworkModel}, as Dimemas replays a trace on a
 * model of another machine: each rank keeps its recorded computation (the time between its MPI calls, and the
 * duration of MPI calls that communicate nothing), and every communicating call is re-timed with the model's
 * protocol rules exactly as the {@link Simulator} times it — eager and rendezvous sends, receives completing at the
 * message's arrival, requests completed in MPI_Wait/Waitall/Test, collectives ending after the arrivals they depend
 * on plus {@link NetworkModel#collectiveCost}. Replaying the same trace at a lower model bandwidth answers "how much
 * longer would this run take on a slower network", the throttling experiment of Medya et al. without the hardware
 * emulator.
 *
 * <p>Which send meets which receive is the trace's own (per communicator, source, destination and tag, the k-th
 * send matches the k-th receive, as Scalasca matches), so a program with wildcard receives is replayed with the
 * matching it had when it was measured. For a program without wildcards, replaying the trace of a simulated run at
 * another bandwidth gives the simulator's own run at that bandwidth, tick for tick (the validation of this class).
 *
 * <p>The recorded sizes drive the model: a point-to-point message's size is its send record's length; a
 * collective's per-rank payload is recovered from Score-P's sent/received byte counts (the inverse of
 * {@link MpiCall#scorepBytes}). Only the master location of each rank is replayed (MPI calls of other threads are
 * not re-timed); records outside MPI calls are ignored, as Scalasca ignores them. The trace is read once; each
 * {@link #run} is a pass over primitive arrays.
 */
public final class WhatIfReplay {
    private static final long UNKNOWN = Long.MIN_VALUE;

    // item kinds of an MPI call
    private static final byte SEND = 0;
    private static final byte RECV = 1;
    private static final byte ISEND = 2;
    private static final byte IRECV_POST = 3;
    private static final byte SEND_COMPLETE = 4;
    private static final byte RECV_COMPLETE = 5;
    private static final byte COLLECTIVE = 6;

    private final String origin;
    private final long ticksPerSecond;
    private final int ranks;
    private final RankOps[] ops;
    // messages
    private final long[] sendBytes;
    private final boolean[] synchronous;
    private final int[] sendOwner;
    private final int[] sendPartner;
    private final int[] recvOwner;
    private final int[] recvPartner;
    // collectives: per instance, its communicator, call and members' offset into the flattened per-member arrays
    private final int[] instComm;
    private final MpiCall[] instCall;
    private final int[] instRoot;
    private final int[] instOffset;
    private final int[][] members;
    private final long measuredTicks;
    private final long unmatchedSends;
    private final long unmatchedReceives;
    private final long incompleteCollectives;
    private final RecordedTimes recorded;

    /** The replay of one rank: its MPI calls, in order, with the computation before each. */
    private static final class RankOps {
        long start;
        long tail;
        int calls;
        long[] gap = new long[16];
        /** Recorded duration, used for calls with nothing to re-time. */
        long[] duration = new long[16];
        int[] firstItem = new int[17];
        final IntArrayList itemKind = new IntArrayList();
        /** Message, receive or collective-instance id of each item; for a collective, the member index follows. */
        final IntArrayList itemRef = new IntArrayList();
        final IntArrayList itemMember = new IntArrayList();
        final LongArrayList itemPayload = new LongArrayList();

        void addCall(long gapTicks, long durationTicks, int itemsFrom) {
            if (calls + 1 >= gap.length) {
                gap = Arrays.copyOf(gap, gap.length * 2);
                duration = Arrays.copyOf(duration, duration.length * 2);
                firstItem = Arrays.copyOf(firstItem, gap.length + 1);
            }
            gap[calls] = gapTicks;
            duration[calls] = durationTicks;
            firstItem[calls] = itemsFrom;
            calls++;
            firstItem[calls] = itemKind.size();
        }
    }

    /** The completion of one replay. */
    public record Outcome(double seconds, long[] rankEndTicks) {
    }

    /**
     * The fastest recorded time of one communication term: {@code count} observations whose model cost is
     * {@code latencySteps × latency + bytes / bandwidth}, the shortest of them {@code seconds}.
     */
    public record RecordedTime(int latencySteps, long bytes, double seconds, long count) {
    }

    /**
     * What the trace recorded of its communication, in the model's cost terms, for calibrating the model to the
     * machine the trace was recorded on.
     *
     * @param pointToPoint per message size: receive leave − send enter of matched messages (latency steps 1). In the
     *                     model this is never less than the transfer time, and equals it when the receive was posted
     *                     before the message arrived (eager) or before the send began (rendezvous).
     * @param collectives  per (latency steps, bytes) of {@link NetworkModel#collectiveTerms}: for every complete
     *                     instance of an N×N collective or barrier (not MPI_Init/MPI_Finalize, which keep their
     *                     recorded time), the first member's leave − the last member's enter; in the model this is
     *                     the collective's cost (plus the exit stagger of the member that left first)
     */
    public record RecordedTimes(long messages, long collectiveInstances, List<RecordedTime> pointToPoint,
                                List<RecordedTime> collectives) {
    }

    private WhatIfReplay(Builder b) {
        this.origin = b.origin;
        this.ticksPerSecond = b.defs.clock().ticksPerSecond();
        this.ranks = b.ops.length;
        this.ops = b.ops;
        this.sendBytes = b.sendBytes.toLongArray();
        int s = sendBytes.length;
        this.synchronous = new boolean[s];
        for (int i = 0; i < s; i++) {
            synchronous[i] = b.sendSync.getInt(i) != 0;
        }
        this.sendOwner = b.sendOwner.toIntArray();
        this.recvOwner = b.recvOwner.toIntArray();
        this.sendPartner = new int[s];
        this.recvPartner = new int[recvOwner.length];
        Arrays.fill(sendPartner, -1);
        Arrays.fill(recvPartner, -1);
        for (Envelope e : b.envelopes.values()) {
            int n = Math.min(e.sends.size(), e.recvs.size());
            for (int k = 0; k < n; k++) {
                sendPartner[e.sends.getInt(k)] = e.recvs.getInt(k);
                recvPartner[e.recvs.getInt(k)] = e.sends.getInt(k);
            }
        }
        long us = 0;
        for (int p : sendPartner) {
            us += p < 0 ? 1 : 0;
        }
        this.unmatchedSends = us;
        this.unmatchedReceives = countNegative(recvPartner, b.recvEnvelope.toBooleanArray());
        this.members = b.members;
        int instances = b.instComm.size();
        this.instComm = b.instComm.toIntArray();
        this.instCall = b.instCall.toArray(new MpiCall[0]);
        this.instRoot = b.instRoot.toIntArray();
        this.instOffset = new int[instances + 1];
        for (int i = 0; i < instances; i++) {
            instOffset[i + 1] = instOffset[i] + members[instComm[i]].length;
        }
        this.incompleteCollectives = b.incompleteCollectives;
        this.measuredTicks = b.lastTime - b.firstTime;
        this.recorded = recordedTimes(b);
    }

    private RecordedTimes recordedTimes(Builder b) {
        // key: latency steps in the top byte, bytes below; value: {shortest ticks, count}
        it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap<long[]> p2p = new it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap<>();
        long messages = 0;
        for (int s = 0; s < sendPartner.length; s++) {
            int rv = sendPartner[s];
            long leave = rv < 0 ? UNKNOWN : b.recvLeave.getLong(rv);
            if (leave == UNKNOWN) {
                continue;
            }
            messages++;
            fastest(p2p, 1, sendBytes[s], leave - b.sendEnter.getLong(s));
        }
        it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap<long[]> coll = new it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap<>();
        long instances = 0;
        for (int i = 0; i < instComm.length; i++) {
            MpiCall c = instCall[i];
            int size = members[instComm[i]].length;
            if (c.sync() != MpiCall.Sync.ALL || Builder.keepsRecordedTime(c) || size < 2
                    || b.instJoined.getInt(i) < size) {
                continue;
            }
            long[] terms = NetworkModel.collectiveTerms(c, b.instFirstLeavePayload.getLong(i), size);
            instances++;
            fastest(coll, terms[0], terms[1], b.instFirstLeave.getLong(i) - b.instRecordedBegin.getLong(i));
        }
        return new RecordedTimes(messages, instances, list(p2p), list(coll));
    }

    private static void fastest(it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap<long[]> m, long steps, long bytes,
                                long ticks) {
        if (steps > 127 || bytes >= 1L << 56) {
            return;
        }
        long[] a = m.get(steps << 56 | bytes);
        if (a == null) {
            m.put(steps << 56 | bytes, new long[] {ticks, 1});
        } else {
            a[0] = Math.min(a[0], ticks);
            a[1]++;
        }
    }

    private List<RecordedTime> list(it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap<long[]> m) {
        List<RecordedTime> out = new ArrayList<>();
        for (var e : m.long2ObjectEntrySet()) {
            long k = e.getLongKey();
            out.add(new RecordedTime((int) (k >>> 56), k & ((1L << 56) - 1), (double) e.getValue()[0] / ticksPerSecond,
                    e.getValue()[1]));
        }
        out.sort(java.util.Comparator.comparingInt(RecordedTime::latencySteps).thenComparingLong(RecordedTime::bytes));
        return List.copyOf(out);
    }

    private static long countNegative(int[] partner, boolean[] relevant) {
        long n = 0;
        for (int i = 0; i < partner.length; i++) {
            if (partner[i] < 0 && relevant[i]) {
                n++;
            }
        }
        return n;
    }

    /**
     * Reads a trace for replay.
     *
     * @throws TraceFormatException when a collective's members disagree on the operation or root, or a rank has no
     *                              master location
     */
    public static WhatIfReplay load(TraceSource source) throws IOException {
        Builder b = new Builder(source);
        b.read();
        return new WhatIfReplay(b);
    }

    public String origin() {
        return origin;
    }

    public int ranks() {
        return ranks;
    }

    /** Length of the recorded run (first to last event of the replayed locations), seconds. */
    public double measuredSeconds() {
        return (double) measuredTicks / ticksPerSecond;
    }

    public long unmatchedSends() {
        return unmatchedSends;
    }

    public long unmatchedReceives() {
        return unmatchedReceives;
    }

    /** Collective records whose instance some member of the communicator never joined. */
    public long incompleteCollectives() {
        return incompleteCollectives;
    }

    /** The recorded communication times, per cost term of the network model. */
    public RecordedTimes recordedTimes() {
        return recorded;
    }

    /**
     * Replays the trace on a network.
     *
     * @throws IllegalStateException when the recorded matching cannot complete on the model (a deadlock, naming the
     *                               ranks and calls that wait)
     */
    public Outcome run(NetworkModel net) {
        return new Run(net).execute();
    }

    /** One replay: per-message and per-instance times, filled as ranks advance. */
    private final class Run {
        final NetworkModel net;
        final double ticksPerNs = ticksPerSecond / 1e9;
        final long overhead;
        final long[] sendTime = new long[sendBytes.length];
        final long[] recvPost = new long[recvOwner.length];
        final long[] begin = new long[instOffset[instOffset.length - 1]];
        final int[] arrived = new int[instComm.length];
        /** Scan instances: how many leading members have arrived. */
        final int[] prefix = new int[instComm.length];
        final long[] now = new long[ranks];
        final int[] call = new int[ranks];
        final boolean[] entered = new boolean[ranks];
        final long[] enter = new long[ranks];
        final boolean[] queued = new boolean[ranks];
        final IntArrayFIFOQueue queue = new IntArrayFIFOQueue();

        Run(NetworkModel net) {
            this.net = net;
            this.overhead = ticks(net.overhead());
            Arrays.fill(sendTime, UNKNOWN);
            Arrays.fill(recvPost, UNKNOWN);
            Arrays.fill(begin, UNKNOWN);
        }

        long ticks(long ns) {
            return ticksPerNs == 1.0 ? ns : Math.round(ns * ticksPerNs);
        }

        Outcome execute() {
            long first = Long.MAX_VALUE;
            for (int r = 0; r < ranks; r++) {
                now[r] = ops[r].start;
                first = Math.min(first, ops[r].start);
                wake(r);
            }
            while (!queue.isEmpty()) {
                int r = queue.dequeueInt();
                queued[r] = false;
                advance(r);
            }
            long[] end = new long[ranks];
            long last = Long.MIN_VALUE;
            StringBuilder stuck = new StringBuilder();
            int blocked = 0;
            for (int r = 0; r < ranks; r++) {
                RankOps o = ops[r];
                if (call[r] < o.calls) {
                    if (blocked++ < 8) {
                        stuck.append(blocked > 1 ? "; " : "").append("rank ").append(r).append(" in its MPI call #")
                                .append(call[r] + 1);
                    }
                    continue;
                }
                end[r] = now[r] + o.tail;
                last = Math.max(last, end[r]);
            }
            if (blocked > 0) {
                throw new IllegalStateException(origin + ": the recorded message matching cannot complete on this "
                        + "network model (" + blocked + " rank(s) wait forever: " + stuck + ")");
            }
            return new Outcome((double) (last - first) / ticksPerSecond, end);
        }

        void wake(int r) {
            if (!queued[r]) {
                queued[r] = true;
                queue.enqueue(r);
            }
        }

        /** Runs rank r until it finishes or waits for a time another rank has not produced yet. */
        void advance(int r) {
            RankOps o = ops[r];
            while (call[r] < o.calls) {
                int c = call[r];
                int from = o.firstItem[c];
                int to = o.firstItem[c + 1];
                if (!entered[r]) {
                    long t = now[r] + o.gap[c];
                    enter[r] = t;
                    entered[r] = true;
                    for (int i = from; i < to; i++) {
                        start(r, o, i, t);
                    }
                }
                long leave = complete(o, from, to, enter[r], o.duration[c]);
                if (leave == UNKNOWN) {
                    return;
                }
                now[r] = leave;
                entered[r] = false;
                call[r]++;
            }
        }

        /** What a call does when it is entered: messages leave, receives are posted, collectives are joined. */
        void start(int r, RankOps o, int i, long t) {
            int ref = o.itemRef.getInt(i);
            switch (o.itemKind.getInt(i)) {
                case SEND, ISEND -> {
                    sendTime[ref] = t;
                    int rv = sendPartner[ref];
                    if (rv >= 0) {
                        wake(recvOwner[rv]);
                    }
                }
                case RECV, IRECV_POST -> {
                    recvPost[ref] = t;
                    int s = recvPartner[ref];
                    if (s >= 0) {
                        wake(sendOwner[s]);
                    }
                }
                case COLLECTIVE -> {
                    int me = o.itemMember.getInt(i);
                    begin[instOffset[ref] + me] = t;
                    int n = members[instComm[ref]].length;
                    arrived[ref]++;
                    MpiCall.Sync sync = instCall[ref].sync();
                    if (sync == MpiCall.Sync.ALL && arrived[ref] == n) {
                        wakeMembers(ref, 0, n);
                    } else if (sync == MpiCall.Sync.ONE_TO_ALL && me == instRoot[ref]) {
                        wakeMembers(ref, 0, n);
                    } else if (sync == MpiCall.Sync.ALL_TO_ONE && arrived[ref] == n) {
                        wakeMembers(ref, instRoot[ref], instRoot[ref] + 1);
                    } else if (sync == MpiCall.Sync.PREFIX) {
                        int p0 = prefix[ref];
                        int p = p0;
                        while (p < n && begin[instOffset[ref] + p] != UNKNOWN) {
                            p++;
                        }
                        prefix[ref] = p;
                        if (p > p0) {
                            wakeMembers(ref, p0, p);
                        }
                    }
                }
                default -> {
                    // completions act when the call leaves
                }
            }
        }

        void wakeMembers(int inst, int from, int to) {
            int[] m = members[instComm[inst]];
            for (int j = from; j < to; j++) {
                wake(m[j]);
            }
        }

        /** The call's leave, or UNKNOWN while it waits for another rank. */
        long complete(RankOps o, int from, int to, long t, long recorded) {
            if (from == to) {
                return t + recorded;
            }
            long leave = t + overhead;
            for (int i = from; i < to; i++) {
                int ref = o.itemRef.getInt(i);
                long done;
                switch (o.itemKind.getInt(i)) {
                    case SEND, SEND_COMPLETE -> done = sendDone(ref);
                    case RECV, RECV_COMPLETE -> done = recvDone(ref);
                    case COLLECTIVE -> done = collectiveEnd(ref, o.itemMember.getInt(i), o.itemPayload.getLong(i));
                    default -> done = t;
                }
                if (done == UNKNOWN) {
                    return UNKNOWN;
                }
                leave = Math.max(leave, done);
            }
            return leave;
        }

        boolean rendezvous(int s) {
            return synchronous[s] || sendBytes[s] > net.eagerThreshold();
        }

        long sendDone(int s) {
            long t = sendTime[s];
            if (!rendezvous(s)) {
                return t + overhead;
            }
            int rv = sendPartner[s];
            if (rv < 0) {
                return t + overhead;
            }
            long post = recvPost[rv];
            return post == UNKNOWN ? UNKNOWN : Math.max(t, post) + ticks(net.transfer(sendBytes[s]));
        }

        long recvDone(int rv) {
            int s = recvPartner[rv];
            if (s < 0) {
                return recvPost[rv] + overhead;
            }
            long t = sendTime[s];
            if (t == UNKNOWN) {
                return UNKNOWN;
            }
            return rendezvous(s) ? sendDone(s) : t + ticks(net.transfer(sendBytes[s]));
        }

        long collectiveEnd(int inst, int me, long payload) {
            int n = members[instComm[inst]].length;
            int off = instOffset[inst];
            int root = instRoot[inst];
            MpiCall c = instCall[inst];
            long dep;
            switch (c.sync()) {
                case ALL -> {
                    if (arrived[inst] < n) {
                        return UNKNOWN;
                    }
                    dep = max(off, 0, n);
                }
                case ONE_TO_ALL -> {
                    long rb = begin[off + root];
                    if (rb == UNKNOWN) {
                        return UNKNOWN;
                    }
                    dep = Math.max(begin[off + me], rb);
                }
                case ALL_TO_ONE -> {
                    if (me != root) {
                        dep = begin[off + me];
                    } else if (arrived[inst] < n) {
                        return UNKNOWN;
                    } else {
                        dep = max(off, 0, n);
                    }
                }
                default -> {
                    if (prefix[inst] <= me) {
                        return UNKNOWN;
                    }
                    dep = max(off, 0, me + 1);
                }
            }
            if (Builder.keepsRecordedTime(c)) {
                return dep + payload;
            }
            return dep + ticks(net.collectiveCost(c, payload, n)) + ticks(net.exitDelay(me));
        }

        long max(int off, int from, int to) {
            long m = Long.MIN_VALUE;
            for (int j = from; j < to; j++) {
                m = Math.max(m, begin[off + j]);
            }
            return m;
        }
    }

    /** Sends and receives of one (communicator, source, destination, tag), in stream order. */
    private static final class Envelope {
        final IntArrayList sends = new IntArrayList();
        final IntArrayList recvs = new IntArrayList();
    }

    private record Key(int comm, int source, int dest, int tag) {
    }

    /** Reads every rank's master location into call lists and indexes messages and collective instances. */
    private static final class Builder {
        final TraceSource source;
        final String origin;
        final TraceDefinitions defs;
        final RankOps[] ops;
        final int[][] members;
        final LongArrayList sendBytes = new LongArrayList();
        /** Recorded enter of the call of each send. */
        final LongArrayList sendEnter = new LongArrayList();
        /** Recorded leave of the call completing each receive; UNKNOWN while not completed. */
        final LongArrayList recvLeave = new LongArrayList();
        final IntArrayList sendSync = new IntArrayList();
        final IntArrayList sendOwner = new IntArrayList();
        final IntArrayList recvOwner = new IntArrayList();
        /** Whether each receive got its envelope (a completion record); an Irecv never completed has none. */
        final it.unimi.dsi.fastutil.booleans.BooleanArrayList recvEnvelope = new it.unimi.dsi.fastutil.booleans.BooleanArrayList();
        final Object2ObjectOpenHashMap<Key, Envelope> envelopes = new Object2ObjectOpenHashMap<>();
        final IntArrayList instComm = new IntArrayList();
        final List<MpiCall> instCall = new ArrayList<>();
        final IntArrayList instRoot = new IntArrayList();
        /** Latest recorded enter of the members of each instance. */
        final LongArrayList instRecordedBegin = new LongArrayList();
        /** Earliest recorded leave of the members of each instance, and that member's payload. */
        final LongArrayList instFirstLeave = new LongArrayList();
        final LongArrayList instFirstLeavePayload = new LongArrayList();
        /** Members that joined each instance. */
        final IntArrayList instJoined = new IntArrayList();
        /** Per communicator: instance id of its k-th collective. */
        final IntArrayList[] instancesOf;
        /** Per communicator and member: how many collectives that member has joined. */
        final int[][] joined;
        long incompleteCollectives;
        long firstTime = Long.MAX_VALUE;
        long lastTime = Long.MIN_VALUE;
        final MpiCall[] callOfRegion;
        final boolean[] mpiRegion;

        Builder(TraceSource source) {
            this.source = source;
            this.origin = source.origin();
            this.defs = source.definitions();
            int n = defs.rankCount();
            this.ops = new RankOps[n];
            int comms = defs.communicators().size();
            this.members = new int[comms][];
            this.instancesOf = new IntArrayList[comms];
            this.joined = new int[comms][];
            for (Communicator c : defs.communicators()) {
                int id = c.id();
                if (id >= comms) {
                    continue;
                }
                members[id] = c.members().clone();
                instancesOf[id] = new IntArrayList();
                joined[id] = new int[c.size()];
            }
            int regions = 0;
            for (Region r : defs.regions()) {
                regions = Math.max(regions, r.id() + 1);
            }
            callOfRegion = new MpiCall[regions];
            mpiRegion = new boolean[regions];
            for (Region r : defs.regions()) {
                mpiRegion[r.id()] = r.paradigm() == Paradigm.MPI || r.name().startsWith("MPI_");
                for (MpiCall c : MpiCall.values()) {
                    if (c.regionName().equals(r.name())) {
                        callOfRegion[r.id()] = c;
                    }
                }
                if (r.name().equals("MPI_Issend")) {
                    callOfRegion[r.id()] = MpiCall.SSEND;
                }
            }
        }

        void read() throws IOException {
            int[] master = defs.masterLocationByRank();
            for (int r = 0; r < ops.length; r++) {
                if (r >= master.length || master[r] < 0) {
                    throw new TraceFormatException(origin + ": rank " + r + " has no master location to replay");
                }
                ops[r] = readRank(r, master[r]);
            }
            // collectives some member never reached cannot complete: drop them from every member's calls
            for (int c = 0; c < members.length; c++) {
                if (members[c] == null) {
                    continue;
                }
                int most = 0;
                int least = Integer.MAX_VALUE;
                for (int j : joined[c]) {
                    most = Math.max(most, j);
                    least = Math.min(least, j);
                }
                if (most > least) {
                    for (int j : joined[c]) {
                        incompleteCollectives += j - least;
                    }
                }
            }
            if (incompleteCollectives > 0) {
                dropIncomplete();
            }
            for (RankOps o : ops) {
                for (int i = 0; i < o.itemKind.size(); i++) {
                    if (o.itemKind.getInt(i) == COLLECTIVE && keepsRecordedTime(instCall.get(o.itemRef.getInt(i)))) {
                        long recordedEnd = o.itemPayload.getLong(i);
                        o.itemPayload.set(i, Math.max(0, recordedEnd - instRecordedBegin.getLong(o.itemRef.getInt(i))));
                    }
                }
            }
        }

        /** Turns the items of collectives beyond the last complete instance into recorded-duration calls. */
        private void dropIncomplete() {
            int[] complete = new int[members.length];
            for (int c = 0; c < members.length; c++) {
                if (members[c] != null) {
                    complete[c] = Arrays.stream(joined[c]).min().orElse(0);
                }
            }
            for (RankOps o : ops) {
                for (int i = 0; i < o.itemKind.size(); i++) {
                    if (o.itemKind.getInt(i) == COLLECTIVE) {
                        int inst = o.itemRef.getInt(i);
                        int c = instComm.getInt(inst);
                        if (instancesOf[c].indexOf(inst) >= complete[c]) {
                            o.itemKind.set(i, -1);
                        }
                    }
                }
            }
        }

        private RankOps readRank(int rank, int location) throws IOException {
            RankOps o = new RankOps();
            EventBatch b = new EventBatch(8192);
            Long2IntOpenHashMap isends = new Long2IntOpenHashMap();
            Long2IntOpenHashMap irecvs = new Long2IntOpenHashMap();
            isends.defaultReturnValue(-1);
            irecvs.defaultReturnValue(-1);
            long first = UNKNOWN;
            long last = UNKNOWN;
            long prevLeave = UNKNOWN;
            int depth = 0;
            int mpiDepth = 0;
            int callRegion = -1;
            long callEnter = 0;
            int callItems = 0;
            try (LocationReader reader = source.openLocation(location)) {
                while (reader.next(b)) {
                    for (int i = 0; i < b.size; i++) {
                        long t = b.time[i];
                        if (first == UNKNOWN) {
                            first = t;
                            prevLeave = t;
                        }
                        last = t;
                        switch (b.kind[i]) {
                            case EventKind.ENTER_CODE -> {
                                depth++;
                                int reg = b.ref[i];
                                if (mpiDepth == 0 && reg >= 0 && reg < mpiRegion.length && mpiRegion[reg]) {
                                    mpiDepth = depth;
                                    callRegion = reg;
                                    callEnter = t;
                                    callItems = o.itemKind.size();
                                }
                            }
                            case EventKind.LEAVE_CODE -> {
                                if (mpiDepth > 0 && depth == mpiDepth) {
                                    recordLeave(o, callItems, t);
                                    o.addCall(callEnter - prevLeave, t - callEnter, callItems);
                                    prevLeave = t;
                                    mpiDepth = 0;
                                    callRegion = -1;
                                }
                                depth--;
                            }
                            case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE -> {
                                if (mpiDepth == 0) {
                                    continue;
                                }
                                int s = sendBytes.size();
                                sendBytes.add(Math.max(0, b.bytes[i]));
                                sendEnter.add(callEnter);
                                MpiCall c = callRegion >= 0 ? callOfRegion[callRegion] : null;
                                sendSync.add(c == MpiCall.SSEND ? 1 : 0);
                                sendOwner.add(rank);
                                int comm = b.comm[i];
                                envelope(comm, rank, globalRank(comm, b.ref[i], location, b.firstIndex + i), b.tag[i])
                                        .sends.add(s);
                                boolean blocking = b.kind[i] == EventKind.MPI_SEND_CODE;
                                if (!blocking) {
                                    isends.put(b.aux[i], s);
                                }
                                item(o, blocking ? SEND : ISEND, s, 0, 0);
                            }
                            case EventKind.MPI_IRECV_REQUEST_CODE -> {
                                if (mpiDepth == 0) {
                                    continue;
                                }
                                int rv = newRecv(rank);
                                irecvs.put(b.aux[i], rv);
                                item(o, IRECV_POST, rv, 0, 0);
                            }
                            case EventKind.MPI_RECV_CODE -> {
                                if (mpiDepth == 0) {
                                    continue;
                                }
                                int rv = newRecv(rank);
                                received(rv, rank, location, b, i);
                                item(o, RECV, rv, 0, 0);
                            }
                            case EventKind.MPI_IRECV_CODE -> {
                                if (mpiDepth == 0) {
                                    continue;
                                }
                                int rv = irecvs.remove(b.aux[i]);
                                if (rv < 0) {
                                    // a completion without its request: post it here
                                    rv = newRecv(rank);
                                    item(o, IRECV_POST, rv, 0, 0);
                                }
                                received(rv, rank, location, b, i);
                                item(o, RECV_COMPLETE, rv, 0, 0);
                            }
                            case EventKind.MPI_ISEND_COMPLETE_CODE -> {
                                int s = isends.remove(b.aux[i]);
                                if (s >= 0 && mpiDepth > 0) {
                                    item(o, SEND_COMPLETE, s, 0, 0);
                                }
                            }
                            case EventKind.MPI_REQUEST_CANCELLED_CODE -> {
                                isends.remove(b.aux[i]);
                                irecvs.remove(b.aux[i]);
                            }
                            case EventKind.MPI_COLLECTIVE_END_CODE -> {
                                if (mpiDepth == 0) {
                                    continue;
                                }
                                collective(o, rank, location, b, i, callRegion, callEnter);
                            }
                            default -> {
                                // computation, measurement records: part of the gaps
                            }
                        }
                    }
                }
            }
            if (first == UNKNOWN) {
                first = 0;
                last = 0;
                prevLeave = 0;
            }
            o.start = first;
            o.tail = last - prevLeave;
            firstTime = Math.min(firstTime, first);
            lastTime = Math.max(lastTime, last);
            return o;
        }

        /** A receive record: the receive now has an envelope and queues for its matching send. */
        private void received(int rv, int rank, int location, EventBatch b, int i) throws TraceFormatException {
            recvEnvelope.set(rv, true);
            int comm = b.comm[i];
            envelope(comm, globalRank(comm, b.ref[i], location, b.firstIndex + i), rank, b.tag[i]).recvs.add(rv);
        }

        /** The recorded leave of a call, for the receives it completes and the collectives it joins. */
        private void recordLeave(RankOps o, int from, long leave) {
            for (int i = from; i < o.itemKind.size(); i++) {
                int ref = o.itemRef.getInt(i);
                switch (o.itemKind.getInt(i)) {
                    case RECV, RECV_COMPLETE -> recvLeave.set(ref, leave);
                    case COLLECTIVE -> {
                        if (leave < instFirstLeave.getLong(ref)) {
                            instFirstLeave.set(ref, leave);
                            instFirstLeavePayload.set(ref, o.itemPayload.getLong(i));
                        }
                    }
                    default -> {
                        // sends and posts: their enter is what counts
                    }
                }
            }
        }

        private int newRecv(int rank) {
            int rv = recvOwner.size();
            recvOwner.add(rank);
            recvLeave.add(UNKNOWN);
            recvEnvelope.add(false);
            return rv;
        }

        private void item(RankOps o, byte kind, int ref, int member, long payload) {
            o.itemKind.add(kind);
            o.itemRef.add(ref);
            o.itemMember.add(member);
            o.itemPayload.add(payload);
        }

        private Envelope envelope(int comm, int src, int dst, int tag) {
            return envelopes.computeIfAbsent(new Key(comm, src, dst, tag), k -> new Envelope());
        }

        private int globalRank(int comm, int peer, int location, long event) throws TraceFormatException {
            if (comm < 0 || comm >= members.length || members[comm] == null) {
                throw new TraceFormatException(origin + ": location " + location + ", event " + event
                        + ": communicator " + comm + " is not defined");
            }
            if (peer < 0 || peer >= members[comm].length) {
                throw new TraceFormatException(origin + ": location " + location + ", event " + event + ": peer "
                        + peer + " is outside communicator " + comm + " of size " + members[comm].length);
            }
            return members[comm][peer];
        }

        private void collective(RankOps o, int rank, int location, EventBatch b, int i, int callRegion,
                                long callEnter) throws TraceFormatException {
            int comm = b.comm[i];
            if (comm < 0 || comm >= members.length || members[comm] == null) {
                throw new TraceFormatException(origin + ": location " + location + ", event " + (b.firstIndex + i)
                        + ": communicator " + comm + " is not defined");
            }
            int[] m = members[comm];
            int me = -1;
            for (int j = 0; j < m.length; j++) {
                if (m[j] == rank) {
                    me = j;
                    break;
                }
            }
            if (me < 0) {
                throw new TraceFormatException(origin + ": location " + location + ", event " + (b.firstIndex + i)
                        + ": rank " + rank + " is not a member of communicator " + comm);
            }
            CollectiveOp op = CollectiveOp.of(b.ref[i]);
            MpiCall call = callRegion >= 0 && callOfRegion[callRegion] != null && callOfRegion[callRegion].isCollective()
                    ? callOfRegion[callRegion] : callFor(op, callRegion >= 0 ? defs.region(callRegion).name() : "");
            int root = call.isRooted() ? b.tag[i] : -1;
            if (call.isRooted() && (root < 0 || root >= m.length)) {
                throw new TraceFormatException(origin + ": location " + location + ", event " + (b.firstIndex + i)
                        + ": " + op + " with root " + root + " on communicator " + comm + " of size " + m.length);
            }
            int k = joined[comm][me]++;
            IntArrayList list = instancesOf[comm];
            int inst;
            if (k < list.size()) {
                inst = list.getInt(k);
                if (instCall.get(inst) != call || instRoot.getInt(inst) != root) {
                    throw new TraceFormatException(origin + ": location " + location + ", event "
                            + (b.firstIndex + i) + ": collective #" + (k + 1) + " on communicator " + comm + " is "
                            + call.regionName() + " (root " + root + ") here but " + instCall.get(inst).regionName()
                            + " (root " + instRoot.getInt(inst) + ") on another member");
                }
            } else {
                inst = instComm.size();
                instComm.add(comm);
                instCall.add(call);
                instRoot.add(root);
                instRecordedBegin.add(Long.MIN_VALUE);
                instFirstLeave.add(Long.MAX_VALUE);
                instFirstLeavePayload.add(0);
                instJoined.add(0);
                list.add(inst);
            }
            instJoined.set(inst, instJoined.getInt(inst) + 1);
            instRecordedBegin.set(inst, Math.max(instRecordedBegin.getLong(inst), callEnter));
            // MPI_Init and MPI_Finalize: the recorded end, turned into the recorded time after the last arrival once
            // every member is read (see keepsRecordedTime)
            long p = keepsRecordedTime(call) ? b.time[i] : payload(call, b.bytes[i], b.aux[i], m.length, me, root);
            item(o, COLLECTIVE, inst, me, p);
        }

        /**
         * MPI_Init and MPI_Finalize start and stop processes, which no network model describes (MPI_Init often takes
         * most of a short run): they keep, per member, the time they took after their last member arrived. For a
         * simulated trace that time is exactly the model's cost, so the replay still equals the simulator.
         */
        static boolean keepsRecordedTime(MpiCall call) {
            return call == MpiCall.INIT || call == MpiCall.FINALIZE;
        }

        /** The per-rank payload {@link NetworkModel#collectiveCost} takes: Score-P's byte rules inverted. */
        private static long payload(MpiCall call, long sent, long received, int size, int me, int root) {
            sent = Math.max(0, sent);
            received = Math.max(0, received);
            return switch (call) {
                case BCAST, SCATTER -> received;
                case GATHER, REDUCE, ALLTOALLV -> sent;
                case ALLREDUCE, ALLGATHER, ALLTOALL -> sent / Math.max(1, size);
                case SCAN -> received / (me + 1L);
                default -> 0;
            };
        }

        /** The simulator call whose synchronisation and cost model an operation follows. */
        private static MpiCall callFor(CollectiveOp op, String region) {
            String r = region.toLowerCase(Locale.ROOT);
            return switch (op) {
                case BARRIER, ALLOCATE, DEALLOCATE, CREATE_HANDLE_AND_ALLOCATE, DESTROY_HANDLE_AND_DEALLOCATE ->
                        MpiCall.BARRIER;
                case BCAST -> MpiCall.BCAST;
                case SCATTER, SCATTERV -> MpiCall.SCATTER;
                case GATHER, GATHERV -> MpiCall.GATHER;
                case REDUCE -> MpiCall.REDUCE;
                case ALLGATHER, ALLGATHERV -> MpiCall.ALLGATHER;
                case ALLTOALL -> MpiCall.ALLTOALL;
                case ALLTOALLV, ALLTOALLW -> MpiCall.ALLTOALLV;
                case ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> MpiCall.ALLREDUCE;
                case SCAN, EXSCAN -> MpiCall.SCAN;
                case CREATE_HANDLE -> r.startsWith("mpi_init") ? MpiCall.INIT : MpiCall.COMM_SPLIT;
                case DESTROY_HANDLE -> MpiCall.FINALIZE;
            };
        }
    }
}
