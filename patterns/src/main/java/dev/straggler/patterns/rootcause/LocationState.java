package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.LocationData;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;

import java.util.Arrays;
import java.util.BitSet;

/**
 * What the backward cost-accounting replay keeps of one rank's master location: its synchronisation points, the
 * long-term costs attached to its wait states (one {@code DelayCostMap} per wait-state type in Scalasca), the
 * propagated waiting recorded for the forward classification, its place on the critical path, and the
 * severities found so far (unified call path → seconds, per {@link RootCauseMetric}).
 */
final class LocationState {
    final LocationData loc;
    /** The marks (first pass). */
    final CallPathIntervals intervals;
    /**
     * The interval times between synchronisation points (second pass, set once the points are known), their
     * entries on unified call paths.
     */
    CallPathIntervals times;
    final LocationLinks links;
    final SyncPoints sp = new SyncPoints();
    final int rank;
    final int location;

    /** Next mark to replay, going backwards. */
    int cursor;

    /**
     * Long-term costs per wait-state type ({@link WaitType}) and synchronisation point; a type's row is allocated
     * when the first cost of that type arrives (most programs have costs of one or two types only).
     */
    private double[][] cost;
    /** Indirect waiting shipped forward: at a send (Late Sender) or a receive request (Late Receiver). */
    double[] indirect;
    /** Propagating waiting per wait state, NaN where none was recorded. */
    double[] propagating;

    /** Synchronisation point index per mark, -1 where the mark is none (read on every replayed mark). */
    private int[] spAtMark;

    /**
     * The OpenMP team of this thread (docs/openmp.md §6): its id, this thread's index in it (the master is 0) and
     * its size; -1/0/1 for a location outside any analysed team.
     */
    int teamId = -1;
    int teamThread;
    int teamSize = 1;

    boolean onCriticalPath;
    int criticalPathEnd = -1;

    final Int2DoubleOpenHashMap[] severity = new Int2DoubleOpenHashMap[RootCauseMetric.values().length];

    LocationState(LocationData loc) {
        this.loc = loc;
        this.intervals = loc.intervals();
        this.links = new LocationLinks(loc);
        this.rank = loc.rank();
        this.location = loc.location();
        for (int i = 0; i < severity.length; i++) {
            severity[i] = new Int2DoubleOpenHashMap();
        }
    }

    /** Called once the synchronisation points are final. */
    void prepare() {
        if (!sp.frozen()) {
            sp.freeze();
        }
        int n = sp.size();
        cost = new double[WaitType.COUNT][];
        indirect = new double[n];
        propagating = new double[n];
        Arrays.fill(propagating, Double.NaN);
        cursor = intervals.size() - 1;
        spAtMark = new int[intervals.size()];
        Arrays.fill(spAtMark, -1);
        for (int s = 0; s < n; s++) {
            spAtMark[sp.mark(s)] = s;
        }
    }

    /** The long-term cost of wait-state type {@code type} at synchronisation point {@code s} (0 when none). */
    double cost(int type, int s) {
        double[] c = cost[type];
        return c == null ? 0 : c[s];
    }

    /** The costs of one wait-state type, per synchronisation point, for adding to. */
    double[] costRow(int type) {
        double[] c = cost[type];
        if (c == null) {
            c = new double[sp.size()];
            cost[type] = c;
        }
        return c;
    }

    /** The marks of the synchronisation points: where Scalasca's time-map cache closes an interval. */
    BitSet syncMarks() {
        BitSet b = new BitSet(intervals.size());
        for (int s = 0; s < sp.size(); s++) {
            b.set(sp.mark(s));
        }
        return b;
    }

    /** The synchronisation point at a mark, -1 when the mark is none. */
    int spAt(int mark) {
        return spAtMark[mark];
    }

    void add(RootCauseMetric m, int path, double v) {
        severity[m.ordinal()].addTo(path, v);
    }

    /** Unified call path of a mark. */
    int callPath(int mark) {
        return loc.globalCallPath(intervals.callPath(mark));
    }

    int spCallPath(int s) {
        return callPath(sp.mark(s));
    }
}
