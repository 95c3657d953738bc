package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.CollectiveTable;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RecvTable;
import dev.straggler.replay.Replay;
import dev.straggler.replay.SendTable;
import dev.straggler.trace.Clock;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The delay behind each of the most severe wait-state instances, taken while the backward replay books delay costs
 * (Delay.MPI.pattern: the time maps of the two sides since their previous synchronisation, compared per call path).
 * An instance is found again by the record that waited: the receive of a Late Sender, the send of a Late Receiver,
 * the waiting member's call of a collective; the replay asks at each delay whether its wait state is one of them
 * (one hash lookup), so that the explanation costs nothing beyond the few instances explained.
 *
 * <p>Point-to-point and MPI collective instances are explained; the OpenMP instances are not (their delay costs
 * are booked per team, docs/openmp.md §6). Thread-safe: the replay records from any of its threads.
 */
final class InstanceCauses {
    private final List<Instance> instances;
    /** (receiving location, receive row) of Late Sender instances → their indices. */
    private final Long2ObjectOpenHashMap<IntArrayList> lateSender = new Long2ObjectOpenHashMap<>();
    /** (sending location, send row) of Late Receiver instances → their indices. */
    private final Long2ObjectOpenHashMap<IntArrayList> lateReceiver = new Long2ObjectOpenHashMap<>();
    /** (waiting location, collective row) of collective instances → their indices. */
    private final Long2ObjectOpenHashMap<IntArrayList> collective = new Long2ObjectOpenHashMap<>();
    private final DelayCause[] found;
    private final Clock clock;

    private InstanceCauses(List<Instance> instances, Clock clock) {
        this.instances = List.copyOf(instances);
        this.found = new DelayCause[instances.size()];
        this.clock = clock;
    }

    /**
     * The records of the given instances in the replay's tables; instances without a record are not explained.
     * The waits per record tell which of the records of one call (a multi-completion such as MPI_Waitall) is the
     * synchronisation point that the instance is (see {@link RootCauses#run}).
     */
    static InstanceCauses of(Replay replay, List<Instance> instances, long[][] lateSenderWaits,
                             long[][] lateReceiverWaits) {
        Clock clock = replay.definitions().clock();
        // the instances of each waiting location, found once (with every instance kept, as sql asks, there are as
        // many instances as wait states: no pass over all of them per location)
        it.unimi.dsi.fastutil.ints.Int2ObjectLinkedOpenHashMap<IntArrayList> byLocation =
                new it.unimi.dsi.fastutil.ints.Int2ObjectLinkedOpenHashMap<>();
        it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap locationOf = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap();
        for (var loc : replay.definitions().locations()) {
            locationOf.put(((long) loc.rank() << 32) | (loc.thread() & 0xffffffffL), loc.index());
        }
        locationOf.defaultReturnValue(-1);
        for (int i = 0; i < instances.size(); i++) {
            Instance in = instances.get(i);
            int l = locationOf.get(((long) in.rank() << 32) | (in.thread() & 0xffffffffL));
            if (l >= 0 && replay.location(l) != null) {
                byLocation.computeIfAbsent(l, k -> new IntArrayList()).add(i);
            }
        }
        List<RootCauses.InstanceKey> keys = new ArrayList<>();
        for (var e : byLocation.int2ObjectEntrySet()) {
            int l = e.getIntKey();
            keys.addAll(keys(replay.location(l), clock, instances, e.getValue(), lateSenderWaits[l],
                    lateReceiverWaits[l]));
        }
        return ofKeys(instances, clock, keys);
    }

    /**
     * The instances with their records as {@link #keys} found them, wherever each waiting location is held: an
     * engine that spreads the locations over machines finds them where the tables are and hands them to all.
     */
    static InstanceCauses ofKeys(List<Instance> instances, Clock clock, List<RootCauses.InstanceKey> keys) {
        InstanceCauses c = new InstanceCauses(instances, clock);
        List<RootCauses.InstanceKey> sorted = new ArrayList<>(keys);
        sorted.sort(java.util.Comparator.comparingInt(RootCauses.InstanceKey::instance));
        for (RootCauses.InstanceKey k : sorted) {
            add(switch (k.kind()) {
                case RootCauses.InstanceKey.LATE_SENDER -> c.lateSender;
                case RootCauses.InstanceKey.LATE_RECEIVER -> c.lateReceiver;
                default -> c.collective;
            }, k.record(), k.instance());
        }
        return c;
    }

    /**
     * The records at which one location waited in the given instances (those of its rank and thread): the receive
     * of a Late Sender, the send of a Late Receiver, its call of a collective operation. {@code lateSenderWaits}
     * and {@code lateReceiverWaits} are the location's own (null when it has none).
     */
    static List<RootCauses.InstanceKey> keys(LocationData d, Clock clock, List<Instance> instances,
                                             long[] lateSenderWaits, long[] lateReceiverWaits) {
        IntArrayList mine = new IntArrayList();
        for (int i = 0; i < instances.size(); i++) {
            if (instances.get(i).rank() == d.rank() && instances.get(i).thread() == d.thread()) {
                mine.add(i);
            }
        }
        return keys(d, clock, instances, mine, lateSenderWaits, lateReceiverWaits);
    }

    /** As above, for the instances {@code which} (indices into {@code instances}), all of this location. */
    private static List<RootCauses.InstanceKey> keys(LocationData d, Clock clock, List<Instance> instances,
                                                     IntArrayList which, long[] lateSenderWaits,
                                                     long[] lateReceiverWaits) {
        List<RootCauses.InstanceKey> out = new ArrayList<>();
        int l = d.location();
        int[] sendsByCompletion = null;
        for (int w = 0; w < which.size(); w++) {
            int i = which.getInt(w);
            Instance in = instances.get(i);
            long start = ticks(clock, in.start());
            long end = ticks(clock, in.end());
            int m = MetricTree.indexOf(in.metric());
            if (m == MetricTree.MPI_LATESENDER || m == MetricTree.MPI_LATESENDER_WO) {
                RecvTable r = d.receives();
                for (int row = firstAtOrAfter(r.size(), r::enter, start); row < r.size() && r.enter(row) == start;
                     row++) {
                    if (r.leave(row) == end && lateSenderWaits != null && lateSenderWaits[row] > 0) {
                        out.add(new RootCauses.InstanceKey(RootCauses.InstanceKey.LATE_SENDER,
                                CostReplay.key(l, row), i));
                        break;
                    }
                }
            } else if (m == MetricTree.MPI_LATERECEIVER) {
                SendTable s = d.sends();
                // the completing calls are not in row order (an Isend's Wait comes later): rows by completion
                // enter, made once per location, so that every instance costs a binary search and not a scan of
                // the sends (a scan made an every-instance analysis quadratic in the Late Receivers)
                if (sendsByCompletion == null) {
                    sendsByCompletion = rowsByCompletionEnter(s);
                }
                int[] byEnter = sendsByCompletion;
                for (int k = firstAtOrAfter(byEnter.length, x -> s.cmpEnter(byEnter[x]), start);
                     k < byEnter.length && s.cmpEnter(byEnter[k]) == start; k++) {
                    int row = byEnter[k];
                    if (s.cmpLeave(row) == end && lateReceiverWaits != null && lateReceiverWaits[row] > 0) {
                        out.add(new RootCauses.InstanceKey(RootCauses.InstanceKey.LATE_RECEIVER,
                                CostReplay.key(l, row), i));
                        break;
                    }
                }
            } else if (m == MetricTree.MPI_BARRIER_WAIT || m == MetricTree.MPI_WAIT_NXN
                    || m == MetricTree.MPI_LATEBROADCAST || m == MetricTree.MPI_EARLYREDUCE
                    || m == MetricTree.MPI_EARLYSCAN) {
                // the instance spans its operation (the earliest begin to the latest end of its members): the
                // waiting member's own call lies within, and calls of one location do not overlap
                CollectiveTable t = d.collectives();
                for (int row = firstAtOrAfter(t.size(), t::begin, start); row < t.size() && t.begin(row) <= end;
                     row++) {
                    if (t.end(row) <= end
                            && d.globalCallPath(t.callPath(row)) == in.callPath()) {
                        out.add(new RootCauses.InstanceKey(RootCauses.InstanceKey.COLLECTIVE,
                                CostReplay.key(l, row), i));
                        break;
                    }
                }
            }
        }
        return out;
    }

    /**
     * The first row whose time is at least {@code t}, for a column that does not decrease with the row (a record's
     * call begins no earlier than the previous record's: receives and collectives are kept in stream order).
     */
    private static int firstAtOrAfter(int size, java.util.function.IntToLongFunction time, long t) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (time.applyAsLong(mid) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The send rows ordered by the enter of their completing call, rows of one enter in row order. */
    private static int[] rowsByCompletionEnter(SendTable s) {
        int[] rows = new int[s.size()];
        for (int r = 0; r < rows.length; r++) {
            rows[r] = r;
        }
        it.unimi.dsi.fastutil.ints.IntArrays.stableSort(rows, (x, y) -> Long.compare(s.cmpEnter(x), s.cmpEnter(y)));
        return rows;
    }

    private static void add(Long2ObjectOpenHashMap<IntArrayList> map, long key, int index) {
        map.computeIfAbsent(key, k -> new IntArrayList(1)).add(index);
    }

    /** Seconds since the start of the measurement back to ticks (the instances were converted from ticks). */
    private static long ticks(Clock clock, double seconds) {
        return Math.round(seconds * (double) clock.ticksPerSecond()) + clock.globalOffset();
    }

    private double seconds(long ticks) {
        return (ticks - clock.globalOffset()) / (double) clock.ticksPerSecond();
    }

    IntArrayList lateSender(int recvLocation, int recvRow) {
        return lateSender.isEmpty() ? null : lateSender.get(CostReplay.key(recvLocation, recvRow));
    }

    IntArrayList lateReceiver(int sendLocation, int sendRow) {
        return lateReceiver.isEmpty() ? null : lateReceiver.get(CostReplay.key(sendLocation, sendRow));
    }

    IntArrayList collective(int location, int row) {
        return collective.isEmpty() ? null : collective.get(CostReplay.key(location, row));
    }

    /**
     * Records the delay of the instances {@code which} at the delaying location: the stretch from synchronisation
     * point {@code prev} (-1: the location's start) to {@code s}, and per call path the seconds charged.
     */
    void record(IntArrayList which, LocationState delaying, int prev, int s, int[] paths, double[] seconds, int n,
                double propagated) {
        double from = prev < 0 ? seconds(delaying.loc.firstTime()) : after(delaying, prev);
        long toTick = delaying.intervals.enter(delaying.sp.mark(s));
        List<DelayCause.Part> parts = new ArrayList<>();
        double sum = 0;
        for (int i = 0; i < n; i++) {
            if (seconds[i] > 0) {
                parts.add(new DelayCause.Part(paths[i], seconds[i]));
                sum += seconds[i];
            }
        }
        parts.sort((a, b) -> a.seconds() != b.seconds() ? Double.compare(b.seconds(), a.seconds())
                : Integer.compare(a.callPath(), b.callPath()));
        double prop = Math.max(propagated, 0);
        synchronized (found) {
            for (int k = 0; k < which.size(); k++) {
                int i = which.getInt(k);
                Instance in = instances.get(i);
                List<DelayCause.Part> p = parts;
                double d = sum;
                double q = prop;
                // delay and propagated waiting explain at most the wait (the scale is at most the wait over their
                // sum); where the summation's rounding leaves them a few ulps above it, they are scaled down to it,
                // so that no report shows more explained than waited
                if (d + q > in.severity() && d + q > 0) {
                    double f = in.severity() / (d + q);
                    p = new ArrayList<>(parts.size());
                    d = 0;
                    for (DelayCause.Part part : parts) {
                        double v = part.seconds() * f;
                        p.add(new DelayCause.Part(part.callPath(), v));
                        d += v;
                    }
                    d = Math.min(d, in.severity());
                    q = Math.max(0, Math.min(q * f, in.severity() - d));
                }
                found[i] = new DelayCause(in, delaying.rank, delaying.loc.thread(), from, seconds(toTick), d, q,
                        p);
            }
        }
    }

    /**
     * Where the stretch after synchronisation point {@code sp} begins, in seconds: the time of the call holding its
     * mark belongs to the stretch after it (CallPathIntervals), except MPI_Init's, whose mark is its Leave; of
     * MPI_Init the stretch holds its completion time, which the compared time map keeps on MPI_Init's call path
     * (PruneDelayTimemap), so the stretch begins that long before the Leave (within the call).
     */
    private double after(LocationState st, int sp) {
        int mark = st.sp.mark(sp);
        if (st.intervals.kind(mark) != CallPathIntervals.INIT) {
            return seconds(st.intervals.enter(mark));
        }
        double leave = seconds(st.intervals.leave(mark));
        return Math.max(seconds(st.intervals.enter(mark)), leave - Math.max(0, st.sp.completionTime(sp)));
    }

    /** Per instance, its cause if its delay was booked here, else null (a copy). */
    DelayCause[] found() {
        synchronized (found) {
            return found.clone();
        }
    }

    /** The causes found, in the order of the instances (those without a delay booked are left out). */
    List<DelayCause> causes() {
        List<DelayCause> out = new ArrayList<>();
        synchronized (found) {
            for (DelayCause c : found) {
                if (c != null) {
                    out.add(c);
                }
            }
        }
        return out;
    }
}
