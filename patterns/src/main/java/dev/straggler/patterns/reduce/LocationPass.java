package dev.straggler.patterns.reduce;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One location's share of {@link TraceProfiler}: its own call tree with visits, exclusive ticks, records and bytes
 * per node, built from primitive arrays with no allocation per event. Not thread-safe; one per location.
 */
final class LocationPass {
    private static final int LISTED = 5;
    private static final int NO_STAMP = -2;
    private static final int OUTSIDE = -1;

    private final TraceDefinitions defs;
    private final int location;
    private final int rank;
    private final int programRegion;
    private final int offRegion;
    private final int flushRegion;
    private final int regionCount;

    // local call tree, node-indexed
    private int nodes;
    private int[] parent = new int[64];
    private int[] region = new int[64];
    private long[] visits = new long[64];
    private long[] ticks = new long[64];
    private long[] events = new long[64];
    private long[] bytes = new long[64];
    private final Long2IntOpenHashMap children = new Long2IntOpenHashMap();

    // open frames: node, enter time, time spent in children
    private int depth;
    private int[] stackNode = new int[64];
    private long[] stackEnter = new long[64];
    private long[] stackChildren = new long[64];

    private long outsideEvents;
    private long outsideBytes = RecordSizes.FILE_FRAMING;
    private long lastTime = Long.MIN_VALUE;
    // the timestamp record of a run of events at one time, charged to the run's shallowest event
    private int stampNode = NO_STAMP;
    private int stampDepth;
    private long index;
    long anomalyCount;
    final List<String> anomalies = new ArrayList<>();

    LocationPass(TraceDefinitions defs, int location, int programRegion, int offRegion, int flushRegion) {
        this.defs = defs;
        this.location = location;
        this.rank = defs.location(location).rank();
        this.programRegion = programRegion;
        this.offRegion = offRegion;
        this.flushRegion = flushRegion;
        this.regionCount = defs.regions().size();
        children.defaultReturnValue(-1);
    }

    void run(LocationReader r) throws IOException {
        EventBatch b = new EventBatch(8192);
        while (r.next(b)) {
            for (int i = 0; i < b.size; i++) {
                event(b.time[i], b.kind[i], b.ref[i], b.comm[i], b.tag[i], b.bytes[i], b.aux[i]);
                index++;
            }
        }
        chargeStamp();
        if (depth > 0) {
            anomaly("end of stream", depth + " region(s) still open, closed at the last timestamp");
            while (depth > 0) {
                pop(lastTime);
            }
        }
    }

    /**
     * A timestamp record precedes an event whose time differs from the previous one (reference §6.2), so a run of
     * events at one time shares one. It is charged to the run's shallowest event: when a filter drops some events of
     * the run, the one left to need the timestamp is usually the caller's (a callee's LEAVE and its caller's LEAVE
     * at the same tick), which keeps the estimate of the reduced trace additive over regions.
     */
    private void event(long t, byte kind, int ref, int comm, int tag, long len, long aux) {
        int size = RecordSizes.record(kind, ref, comm, tag, len, aux);
        if (t != lastTime) {
            chargeStamp();
            lastTime = t;
        }
        switch (kind) {
            case EventKind.ENTER_CODE -> {
                if (ref < 0 || ref >= regionCount) {
                    anomaly("ENTER", "undefined region " + ref + " ignored");
                    attribute(size);
                    return;
                }
                push(ref, t);
                attribute(size);
            }
            case EventKind.LEAVE_CODE -> leave(ref, t, size);
            case EventKind.PROGRAM_BEGIN_CODE -> {
                if (programRegion >= 0 && depth == 0) {
                    push(programRegion, t);
                }
                attribute(size);
            }
            case EventKind.PROGRAM_END_CODE -> {
                attribute(size);
                if (programRegion >= 0 && depth > 0 && region[stackNode[depth - 1]] == programRegion) {
                    pop(t);
                }
            }
            case EventKind.MEASUREMENT_ON_OFF_CODE -> {
                // mode 2 = OFF opens Score-P's "MEASUREMENT OFF" region, 1 = ON closes it
                if (offRegion >= 0 && ref == 2) {
                    push(offRegion, t);
                    attribute(size);
                } else if (offRegion >= 0 && ref == 1 && depth > 0 && region[stackNode[depth - 1]] == offRegion) {
                    attribute(size);
                    pop(t);
                } else {
                    attribute(size);
                }
            }
            case EventKind.BUFFER_FLUSH_CODE -> {
                if (flushRegion >= 0) {
                    push(flushRegion, t);
                    attribute(size);
                    pop(Math.max(t, aux));
                } else {
                    attribute(size);
                }
            }
            default -> attribute(size);
        }
    }

    private void leave(int ref, long t, int size) {
        int at = depth - 1;
        while (at >= 0 && region[stackNode[at]] != ref) {
            at--;
        }
        if (at < 0) {
            anomaly("LEAVE", "of region " + ref + " which is not open; ignored");
            attribute(size);
            return;
        }
        if (at < depth - 1) {
            anomaly("LEAVE", "of region " + ref + " closes " + (depth - 1 - at) + " region(s) left open inside it");
            while (depth - 1 > at) {
                pop(t);
            }
        }
        attribute(size);
        pop(t);
    }

    private void attribute(int size) {
        int owner;
        if (depth == 0) {
            outsideEvents++;
            outsideBytes += size;
            owner = OUTSIDE;
        } else {
            owner = stackNode[depth - 1];
            events[owner]++;
            bytes[owner] += size;
        }
        if (stampNode == NO_STAMP || depth < stampDepth) {
            stampNode = owner;
            stampDepth = depth;
        }
    }

    private void chargeStamp() {
        if (stampNode == OUTSIDE) {
            outsideBytes += RecordSizes.TIMESTAMP;
        } else if (stampNode >= 0) {
            bytes[stampNode] += RecordSizes.TIMESTAMP;
        }
        stampNode = NO_STAMP;
    }

    private void push(int r, long t) {
        int p = depth == 0 ? -1 : stackNode[depth - 1];
        int n = child(p, r);
        visits[n]++;
        if (depth == stackNode.length) {
            stackNode = Arrays.copyOf(stackNode, depth * 2);
            stackEnter = Arrays.copyOf(stackEnter, depth * 2);
            stackChildren = Arrays.copyOf(stackChildren, depth * 2);
        }
        stackNode[depth] = n;
        stackEnter[depth] = t;
        stackChildren[depth] = 0;
        depth++;
    }

    private void pop(long t) {
        depth--;
        long duration = Math.max(0, t - stackEnter[depth]);
        ticks[stackNode[depth]] += duration - stackChildren[depth];
        if (depth > 0) {
            stackChildren[depth - 1] += duration;
        }
    }

    private int child(int p, int r) {
        long key = ((long) p << 32) | (r & 0xFFFF_FFFFL);
        int n = children.get(key);
        if (n >= 0) {
            return n;
        }
        if (nodes == parent.length) {
            int cap = nodes * 2;
            parent = Arrays.copyOf(parent, cap);
            region = Arrays.copyOf(region, cap);
            visits = Arrays.copyOf(visits, cap);
            ticks = Arrays.copyOf(ticks, cap);
            events = Arrays.copyOf(events, cap);
            bytes = Arrays.copyOf(bytes, cap);
        }
        n = nodes++;
        parent[n] = p;
        region[n] = r;
        children.put(key, n);
        return n;
    }

    private void anomaly(String what, String message) {
        anomalyCount++;
        if (anomalies.size() < LISTED) {
            anomalies.add("location " + location + " (rank " + rank + "), event " + index + " (" + what + "): " + message);
        }
    }

    /** Adds this location's nodes to the merged tree; local parents precede their children. */
    void mergeInto(CallTreeProfile.Builder b) {
        double tps = defs.clock().ticksPerSecond();
        int[] global = new int[nodes];
        for (int n = 0; n < nodes; n++) {
            global[n] = b.node(parent[n] < 0 ? -1 : global[parent[n]], region[n]);
            b.add(global[n], rank, visits[n], ticks[n] / tps, events[n], bytes[n]);
        }
        b.addOutside(rank, outsideEvents, outsideBytes);
    }
}
