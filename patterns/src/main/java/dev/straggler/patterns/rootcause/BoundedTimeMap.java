package dev.straggler.patterns.rootcause;

/**
 * The call path → seconds map as Scalasca 2.6 keeps it ({@code scout::timemap_t}, a
 * {@code fixed_priority_map<Callpath::IdType, double, 128>} in {@code scout_types.h} / {@code fixed_map.hh}): at
 * most {@value #CAPACITY} entries sorted by Scalasca's call-path id. Adding a 129th call path parks it in an
 * overflow slot; before the next access the map keeps it only if its value is strictly larger than the smallest
 * entry (the first smallest in id order), which it then replaces. So a map summed from many intervals (the
 * time-map cache's {@code getRuntimes}, the wait map) keeps the call paths that are large when they arrive, and a
 * call path evicted once starts again from zero when it comes back. This decides which call paths have a local
 * non-waiting time (the critical-path activities and the partition headroom), and it is why Scalasca books no
 * critical-path activities on hundreds of small call paths of a program with more than 128 (docs/root-causes.md).
 *
 * <p>Keys are Scalasca's call-path ids (the cube's cnode ids, {@code CallTree.creationId}), since the order of keys
 * breaks ties. A zero entry is never added here: in Scalasca it sits in a slot as the smallest value and is the
 * first to go, which gives the same result as a free slot as long as values are not negative. Reusable: one per
 * thread.
 */
final class BoundedTimeMap {
    static final int CAPACITY = 128;

    private final int[] key = new int[CAPACITY + 1];
    private final double[] value = new double[CAPACITY + 1];
    private int count;
    /** The overflow slot ({@code [CAPACITY]}) holds a call path waiting to be kept or dropped. */
    private boolean pending;

    void clear() {
        count = 0;
        pending = false;
    }

    /** {@code map[id] += seconds}. */
    void add(int id, double seconds) {
        purge();
        int p = lowerBound(id);
        if (p < count && key[p] == id) {
            value[p] += seconds;
            return;
        }
        slot(p, id, 0.0 + seconds);
    }

    /** {@code map[id] = seconds}. */
    void set(int id, double seconds) {
        purge();
        int p = lowerBound(id);
        if (p < count && key[p] == id) {
            value[p] = seconds;
            return;
        }
        slot(p, id, seconds);
    }

    /** The number of entries once a parked call path is settled. */
    int size() {
        purge();
        return count;
    }

    /** The i-th entry in id order ({@link #size} first). */
    int id(int i) {
        return key[i];
    }

    double seconds(int i) {
        return value[i];
    }

    private void slot(int p, int id, double v) {
        if (count == CAPACITY) {
            key[CAPACITY] = id;
            value[CAPACITY] = v;
            pending = true;
            return;
        }
        System.arraycopy(key, p, key, p + 1, count - p);
        System.arraycopy(value, p, value, p + 1, count - p);
        key[p] = id;
        value[p] = v;
        count++;
    }

    private void purge() {
        if (!pending) {
            return;
        }
        pending = false;
        int min = 0;
        for (int i = 1; i < count; i++) {
            if (value[i] < value[min]) {
                min = i;
            }
        }
        if (!(value[min] < value[CAPACITY])) {
            return;
        }
        int id = key[CAPACITY];
        double v = value[CAPACITY];
        System.arraycopy(key, min + 1, key, min, count - 1 - min);
        System.arraycopy(value, min + 1, value, min, count - 1 - min);
        count--;
        int p = lowerBound(id);
        System.arraycopy(key, p, key, p + 1, count - p);
        System.arraycopy(value, p, value, p + 1, count - p);
        key[p] = id;
        value[p] = v;
        count++;
    }

    private int lowerBound(int id) {
        int l = 0;
        int r = count;
        while (l < r) {
            int m = (l + r) >>> 1;
            if (key[m] < id) {
                l = m + 1;
            } else {
                r = m;
            }
        }
        return l;
    }
}
