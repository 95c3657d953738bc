package dev.straggler.patterns.reduce;

import dev.straggler.trace.Region;
import it.unimi.dsi.fastutil.doubles.DoubleArrayList;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A call-path profile per rank: the call tree (node = parent node + region) with, per node and rank, the visits,
 * the exclusive time and, when it comes from a trace, the event records and OTF2 bytes attributed to the node. This
 * is what include lists and size estimates are computed from ({@link RegionStatistics}); it is built from a trace by
 * {@link TraceProfiler} or from a call-path profile such as a Score-P or Straggler {@code .cubex} by
 * {@link CubeProfiles}.
 *
 * <p>Node ids are dense and a parent's id is always smaller than its children's. Immutable once built.
 */
public final class CallTreeProfile {
    private final List<Region> regions;
    private final int ranks;
    private final int[] parent;
    private final int[] region;
    private final long[] visits;
    private final double[] time;
    private final long[] events;
    private final long[] bytes;
    private final long[] outsideEvents;
    private final long[] outsideBytes;
    private final int programRegion;
    private final String origin;
    private final List<String> anomalies;
    private final long anomalyCount;

    private CallTreeProfile(Builder b, List<String> anomalies, long anomalyCount) {
        this.regions = List.copyOf(b.regions);
        this.ranks = b.ranks;
        this.parent = b.parent.toIntArray();
        this.region = b.region.toIntArray();
        this.visits = b.visits.toLongArray();
        this.time = b.time.toDoubleArray();
        this.events = b.recordsKnown ? b.events.toLongArray() : null;
        this.bytes = b.recordsKnown ? b.bytes.toLongArray() : null;
        this.outsideEvents = b.outsideEvents.clone();
        this.outsideBytes = b.outsideBytes.clone();
        this.programRegion = b.programRegion;
        this.origin = b.origin;
        this.anomalies = List.copyOf(anomalies);
        this.anomalyCount = anomalyCount;
    }

    public List<Region> regions() {
        return regions;
    }

    public int ranks() {
        return ranks;
    }

    public int nodeCount() {
        return parent.length;
    }

    /** Parent node, -1 for a root. */
    public int parent(int node) {
        return parent[node];
    }

    public int region(int node) {
        return region[node];
    }

    /** Times the node's call path was entered on a rank. */
    public long visits(int node, int rank) {
        return visits[node * ranks + rank];
    }

    /** Exclusive time of the node on a rank, seconds. */
    public double time(int node, int rank) {
        return time[node * ranks + rank];
    }

    /**
     * True when every event record of the source was attributed to a node (trace input); false for a profile,
     * which knows visits and times only.
     */
    public boolean knowsRecords() {
        return events != null;
    }

    /** Event records attributed to the node on a rank: its ENTER/LEAVE and the records issued inside it directly. */
    public long events(int node, int rank) {
        requireRecords();
        return events[node * ranks + rank];
    }

    /** OTF2 bytes of those records as Straggler's writer encodes them, timestamp records included. */
    public long bytes(int node, int rank) {
        requireRecords();
        return bytes[node * ranks + rank];
    }

    /** Records outside every region (PROGRAM_BEGIN/END without a program region, ...), per rank. */
    public long outsideEvents(int rank) {
        return outsideEvents[rank];
    }

    public long outsideBytes(int rank) {
        return outsideBytes[rank];
    }

    /** The region standing for the whole program (Score-P's root region entered by PROGRAM_BEGIN), or -1. */
    public int programRegion() {
        return programRegion;
    }

    public String origin() {
        return origin;
    }

    /** Malformed nesting the profiler skipped (first few described, each naming location and event index). */
    public List<String> anomalies() {
        return anomalies;
    }

    public long anomalyCount() {
        return anomalyCount;
    }

    /** The region names from the root to a node. */
    public List<String> pathNames(int node) {
        ArrayList<String> names = new ArrayList<>();
        for (int n = node; n >= 0; n = parent[n]) {
            names.add(regions.get(region[n]).name());
        }
        Collections.reverse(names);
        return names;
    }

    private void requireRecords() {
        if (events == null) {
            throw new IllegalStateException(origin + ": a profile carries no event records; use the size estimator");
        }
    }

    static Builder builder(List<Region> regions, int ranks, int programRegion, boolean recordsKnown, String origin) {
        return new Builder(regions, ranks, programRegion, recordsKnown, origin);
    }

    /** Accumulates nodes and values; not thread-safe. */
    static final class Builder {
        private final List<Region> regions;
        private final int ranks;
        private final int programRegion;
        private final boolean recordsKnown;
        private final String origin;
        private final IntArrayList parent = new IntArrayList();
        private final IntArrayList region = new IntArrayList();
        private final LongArrayList visits = new LongArrayList();
        private final DoubleArrayList time = new DoubleArrayList();
        private final LongArrayList events = new LongArrayList();
        private final LongArrayList bytes = new LongArrayList();
        private final long[] outsideEvents;
        private final long[] outsideBytes;
        private final Long2IntOpenHashMap children = new Long2IntOpenHashMap();

        private Builder(List<Region> regions, int ranks, int programRegion, boolean recordsKnown, String origin) {
            this.regions = Objects.requireNonNull(regions);
            this.ranks = ranks;
            this.programRegion = programRegion;
            this.recordsKnown = recordsKnown;
            this.origin = origin;
            this.outsideEvents = new long[ranks];
            this.outsideBytes = new long[ranks];
            children.defaultReturnValue(-1);
        }

        /** The node for region {@code r} called from {@code parentNode} (-1: a root), created when new. */
        int node(int parentNode, int r) {
            long key = ((long) parentNode << 32) | (r & 0xFFFF_FFFFL);
            int n = children.get(key);
            if (n >= 0) {
                return n;
            }
            n = appendNode(parentNode, r);
            children.put(key, n);
            return n;
        }

        /** Appends a node without merging equal call paths (profiles whose nodes differ by call site). */
        int appendNode(int parentNode, int r) {
            int n = parent.size();
            parent.add(parentNode);
            region.add(r);
            for (int k = 0; k < ranks; k++) {
                visits.add(0);
                time.add(0);
                events.add(0);
                bytes.add(0);
            }
            return n;
        }

        void add(int node, int rank, long v, double seconds, long ev, long by) {
            int i = node * ranks + rank;
            visits.set(i, visits.getLong(i) + v);
            time.set(i, time.getDouble(i) + seconds);
            events.set(i, events.getLong(i) + ev);
            bytes.set(i, bytes.getLong(i) + by);
        }

        void addOutside(int rank, long ev, long by) {
            outsideEvents[rank] += ev;
            outsideBytes[rank] += by;
        }

        CallTreeProfile build(List<String> anomalies, long anomalyCount) {
            return new CallTreeProfile(this, anomalies, anomalyCount);
        }
    }
}
