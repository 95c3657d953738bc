package dev.straggler.patterns.openmp;

import it.unimi.dsi.fastutil.ints.Int2LongOpenHashMap;

/** One location's OpenMP severities in ticks, per metric and local call path, before they go into the cube. */
final class Severities {
    final int location;
    private final Int2LongOpenHashMap[] byMetric;

    Severities(int location, int metrics) {
        this.location = location;
        this.byMetric = new Int2LongOpenHashMap[metrics];
    }

    void add(int metric, int localPath, long ticks) {
        Int2LongOpenHashMap m = byMetric[metric];
        if (m == null) {
            m = byMetric[metric] = new Int2LongOpenHashMap();
        }
        m.addTo(localPath, ticks);
    }

    /** Metric, local call path and ticks of every value, metrics in tree order, call paths ascending. */
    void forEach(Sink sink) {
        for (int metric = 0; metric < byMetric.length; metric++) {
            Int2LongOpenHashMap m = byMetric[metric];
            if (m == null) {
                continue;
            }
            int[] paths = m.keySet().toIntArray();
            java.util.Arrays.sort(paths);
            for (int p : paths) {
                sink.accept(metric, p, m.get(p));
            }
        }
    }

    interface Sink {
        void accept(int metric, int localPath, long ticks);
    }
}
