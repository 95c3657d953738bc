package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;

/**
 * The severities of one location, per metric and local call path, as exact integers: ticks for time metrics,
 * occurrences or bytes otherwise. Every wait is a difference of integer timestamps, so sums are exact and do not
 * depend on the order of addition. A metric's row is allocated on its first non-zero value. Single-threaded.
 */
final class LocationSeverities implements java.io.Serializable {
    private final long[][] values = new long[MetricTree.COUNT][];
    private final int paths;
    /** Per communicator (allocated on first use), wait-state ticks per metric. */
    private long[][] byComm = new long[0][];

    LocationSeverities(int localPaths) {
        this.paths = localPaths;
    }

    void add(int metric, int path, long v) {
        if (v == 0) {
            return;
        }
        long[] row = values[metric];
        if (row == null) {
            row = new long[paths];
            values[metric] = row;
        }
        row[path] += v;
    }

    /** Adds a wait-state severity to its communicator's row as well (the per-communicator view). */
    void addComm(int comm, int metric, long v) {
        if (v == 0 || comm < 0) {
            return;
        }
        if (comm >= byComm.length) {
            byComm = java.util.Arrays.copyOf(byComm, Math.max(comm + 1, byComm.length * 2));
        }
        long[] row = byComm[comm];
        if (row == null) {
            row = new long[MetricTree.COUNT];
            byComm[comm] = row;
        }
        row[metric] += v;
    }

    /** Per communicator, ticks per metric; rows are null for communicators without waiting here. */
    long[][] byCommunicator() {
        return byComm;
    }

    /** Severities without call-path rows: only the per-communicator waits. */
    LocationSeverities communicatorsOnly() {
        LocationSeverities s = new LocationSeverities(0);
        s.byComm = byComm;
        return s;
    }

    long get(int metric, int path) {
        long[] row = values[metric];
        return row == null ? 0 : row[path];
    }

    /** The row of a metric, null when all zero. */
    long[] row(int metric) {
        return values[metric];
    }

    int paths() {
        return paths;
    }

    /** Sets {@code target = Σ parts} per call path (a metric whose value is its children's sum). */
    void sum(int target, int... parts) {
        for (int p : parts) {
            long[] row = values[p];
            if (row != null) {
                for (int c = 0; c < paths; c++) {
                    add(target, c, row[c]);
                }
            }
        }
    }
}
