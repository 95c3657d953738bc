package dev.straggler.replay;

import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.util.Arrays;

/**
 * The call tree one location has walked, with its per-call-path profile: inclusive time (ticks, Leave − Enter
 * summed over visits, as Scalasca's {@code time}), visits (+1 per Enter) and the statistics of the sends issued on
 * each call path (Scalasca's Message.pattern counts them on every send record, shipped or not).
 *
 * <p>Nodes are numbered locally in creation order, so a parent always precedes its children; a node is identified
 * by (parent, region) since the trace model carries no callsites. Single-threaded.
 */
public final class LocationProfile implements java.io.Serializable {
    private int size;
    private int[] parent = new int[64];
    private int[] region = new int[64];
    private long[] inclusive = new long[64];
    private long[] visits = new long[64];
    private long[] zeroByteSends = new long[64];
    private long[] sends = new long[64];
    private long[] bytesSent = new long[64];
    private final Long2IntOpenHashMap index = new Long2IntOpenHashMap();
    // Direct-mapped cache in front of the index: a loop enters the same few (parent, region) pairs again and again.
    private static final int CACHE = 1 << 12;
    private final long[] cacheKey = new long[CACHE];
    private final int[] cacheNode = new int[CACHE];

    LocationProfile() {
        index.defaultReturnValue(-1);
        java.util.Arrays.fill(cacheKey, -1L);
    }

    /** The child of {@code parentNode} (-1: a root) for {@code regionId}, created on first use. */
    int child(int parentNode, int regionId) {
        long key = ((long) (parentNode + 1) << 32) | (regionId & 0xffffffffL);
        int slot = (int) ((parentNode * 0x9E3779B1L + regionId) & (CACHE - 1));
        if (cacheKey[slot] == key) {
            return cacheNode[slot];
        }
        int n = index.get(key);
        if (n >= 0) {
            cacheKey[slot] = key;
            cacheNode[slot] = n;
            return n;
        }
        if (size == parent.length) {
            grow();
        }
        n = size++;
        parent[n] = parentNode;
        region[n] = regionId;
        index.put(key, n);
        cacheKey[slot] = key;
        cacheNode[slot] = n;
        return n;
    }

    /** The child of {@code parentNode} (-1: a root) for {@code regionId}, -1 when none; read-only. */
    int find(int parentNode, int regionId) {
        return index.get(((long) (parentNode + 1) << 32) | (regionId & 0xffffffffL));
    }

    void addVisit(int node) {
        visits[node]++;
    }

    void addTime(int node, long ticks) {
        inclusive[node] += ticks;
    }

    void addSend(int node, long length) {
        if (length == 0) {
            zeroByteSends[node]++;
        } else {
            sends[node]++;
            bytesSent[node] += length;
        }
    }

    private void grow() {
        int cap = parent.length * 2;
        parent = Arrays.copyOf(parent, cap);
        region = Arrays.copyOf(region, cap);
        inclusive = Arrays.copyOf(inclusive, cap);
        visits = Arrays.copyOf(visits, cap);
        zeroByteSends = Arrays.copyOf(zeroByteSends, cap);
        sends = Arrays.copyOf(sends, cap);
        bytesSent = Arrays.copyOf(bytesSent, cap);
    }

    public int size() {
        return size;
    }

    public int parent(int node) {
        return parent[node];
    }

    public int region(int node) {
        return region[node];
    }

    /** Inclusive time of a call path in ticks. */
    public long inclusive(int node) {
        return inclusive[node];
    }

    /** Exclusive time of every node in ticks: inclusive minus the children's inclusive time. */
    public long[] exclusiveTimes() {
        long[] excl = Arrays.copyOf(inclusive, size);
        for (int n = 0; n < size; n++) {
            if (parent[n] >= 0) {
                excl[parent[n]] -= inclusive[n];
            }
        }
        return excl;
    }

    public long visits(int node) {
        return visits[node];
    }

    /** Send records with 0 bytes issued on this call path (Scalasca {@code syncs_send}). */
    public long zeroByteSends(int node) {
        return zeroByteSends[node];
    }

    /** Send records with a payload issued on this call path (Scalasca {@code comms_send}). */
    public long sends(int node) {
        return sends[node];
    }

    public long bytesSent(int node) {
        return bytesSent[node];
    }
}
