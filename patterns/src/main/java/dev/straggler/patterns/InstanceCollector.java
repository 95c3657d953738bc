package dev.straggler.patterns;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps, per wait-state metric, the {@code limit} most severe occurrences on distinct call paths, as Scalasca's
 * statistics do (a more severe occurrence on a call path replaces the one kept for it). Values are in ticks
 * until {@link #instances} converts them. Insertion order decides ties, so callers feed it in a fixed order.
 * Single-threaded.
 */
final class InstanceCollector {
    /** An occurrence in ticks; callPath is global. */
    record Raw(int metric, long severity, int callPath, int rank, int thread, int partnerRank, int waitingRanks,
               long start, long end) {
    }

    private final int limit;
    private final List<List<Raw>> byMetric = new ArrayList<>();
    private final long[] counts = new long[MetricTree.COUNT];

    InstanceCollector(int limit) {
        this.limit = limit;
        for (int m = 0; m < MetricTree.COUNT; m++) {
            byMetric.add(new ArrayList<>(0));
        }
    }

    /** Counts an occurrence without offering it for the ranking (used for per-rank collective waits). */
    void count(int metric) {
        counts[metric]++;
    }

    void offer(Raw r) {
        if (limit <= 0 || r.severity() <= 0) {
            return;
        }
        List<Raw> list = byMetric.get(r.metric());
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).callPath() == r.callPath()) {
                if (r.severity() > list.get(i).severity()) {
                    list.set(i, r);
                }
                return;
            }
        }
        if (list.size() < limit) {
            list.add(r);
            return;
        }
        int min = 0;
        for (int i = 1; i < list.size(); i++) {
            if (list.get(i).severity() < list.get(min).severity()) {
                min = i;
            }
        }
        if (r.severity() > list.get(min).severity()) {
            list.set(min, r);
        }
    }

    void addAll(InstanceCollector other) {
        for (int m = 0; m < MetricTree.COUNT; m++) {
            counts[m] += other.counts[m];
            for (Raw r : other.byMetric.get(m)) {
                offer(r);
            }
        }
    }

    long[] counts() {
        return counts;
    }

    /** The kept occurrences, most severe first within each metric, metrics in tree order. */
    List<Instance> instances(double ticksPerSecond, long origin) {
        List<Instance> out = new ArrayList<>();
        for (int m = 0; m < MetricTree.COUNT; m++) {
            List<Raw> list = new ArrayList<>(byMetric.get(m));
            list.sort(Comparator.comparingLong(Raw::severity).reversed()
                    .thenComparingInt(Raw::rank).thenComparingLong(Raw::start));
            for (Raw r : list) {
                out.add(new Instance(MetricTree.ALL.get(m).uniqueName(), r.severity() / ticksPerSecond, r.callPath(),
                        r.rank(), r.thread(), r.partnerRank(), r.waitingRanks(),
                        (r.start() - origin) / ticksPerSecond, (r.end() - origin) / ticksPerSecond));
            }
        }
        return out;
    }
}
