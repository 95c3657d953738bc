package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.MetricTree;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keeps, per wait-state metric, the {@code limit} most severe occurrences on distinct call paths, as Scalasca's
 * statistics do (a more severe occurrence on a call path replaces the one kept for it); with
 * {@link AnalysisOptions#ALL_INSTANCES}, every occurrence (what {@code straggler sql}'s {@code wait_states} lists). Values are in ticks
 * until {@link #instances} converts them. Insertion order decides ties, so callers feed it in a fixed order.
 * Single-threaded; serializable, so that a distributed engine can bring its tasks' occurrences to the driver.
 */
public final class InstanceCollector implements java.io.Serializable {
    /** An occurrence in ticks; callPath is global. */
    record Raw(int metric, long severity, int callPath, int rank, int thread, int partnerRank, int waitingRanks,
               long start, long end) implements java.io.Serializable {
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

    /** Offers an occurrence; allocates only when it is kept. */
    void offer(int metric, long severity, int callPath, int rank, int thread, int partnerRank, int waitingRanks,
               long start, long end) {
        if (limit <= 0 || severity <= 0) {
            return;
        }
        List<Raw> list = byMetric.get(metric);
        if (limit == AnalysisOptions.ALL_INSTANCES) {
            list.add(new Raw(metric, severity, callPath, rank, thread, partnerRank, waitingRanks, start, end));
            return;
        }
        int slot = slotFor(list, severity, callPath);
        if (slot >= 0) {
            Raw r = new Raw(metric, severity, callPath, rank, thread, partnerRank, waitingRanks, start, end);
            if (slot == list.size()) {
                list.add(r);
            } else {
                list.set(slot, r);
            }
        }
    }

    void offer(Raw r) {
        if (limit <= 0 || r.severity() <= 0) {
            return;
        }
        List<Raw> list = byMetric.get(r.metric());
        if (limit == AnalysisOptions.ALL_INSTANCES) {
            list.add(r);
            return;
        }
        int slot = slotFor(list, r.severity(), r.callPath());
        if (slot == list.size()) {
            list.add(r);
        } else if (slot >= 0) {
            list.set(slot, r);
        }
    }

    /** Where an occurrence goes: the entry of its call path, a free slot, the least severe entry, or -1. */
    private int slotFor(List<Raw> list, long severity, int callPath) {
        if (list.size() == limit && severity <= list.get(minIndex(list)).severity()) {
            // not above the least severe kept: cannot replace it nor an entry of its own call path
            return -1;
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).callPath() == callPath) {
                return severity > list.get(i).severity() ? i : -1;
            }
        }
        if (list.size() < limit) {
            return list.size();
        }
        int min = minIndex(list);
        return severity > list.get(min).severity() ? min : -1;
    }

    private static int minIndex(List<Raw> list) {
        int min = 0;
        for (int i = 1; i < list.size(); i++) {
            if (list.get(i).severity() < list.get(min).severity()) {
                min = i;
            }
        }
        return min;
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
