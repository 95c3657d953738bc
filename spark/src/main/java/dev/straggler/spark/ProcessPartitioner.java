package dev.straggler.spark;

import dev.straggler.trace.TraceDefinitions;
import org.apache.spark.Partitioner;

import java.util.Arrays;

/**
 * Locations by process: every location of a process in one partition, processes in contiguous rank ranges (rank
 * order), locations of no MPI process after them in location order. The root-cause stage holds the threads of an
 * OpenMP team in one task this way, because they meet at every fork and barrier of the backward replay
 * (docs/spark.md "OpenMP threads"); {@link LocationPartitioner}'s location ranges would split a process whose
 * threads are numbered master, master, ..., worker, worker.
 */
final class ProcessPartitioner extends Partitioner {
    private final int[] group;
    private final int groups;
    private final int partitions;

    private ProcessPartitioner(int[] group, int groups, int partitions) {
        this.group = group;
        this.groups = Math.max(1, groups);
        this.partitions = Math.max(1, partitions);
    }

    static ProcessPartitioner of(TraceDefinitions defs, int partitions) {
        int ranks = defs.masterLocationByRank().length;
        int n = defs.locations().size();
        int[] group = new int[n];
        int next = ranks;
        for (int l = 0; l < n; l++) {
            int rank = defs.location(l).rank();
            group[l] = rank >= 0 && rank < ranks ? rank : next++;
        }
        return new ProcessPartitioner(group, next, partitions);
    }

    @Override
    public int numPartitions() {
        return partitions;
    }

    @Override
    public int getPartition(Object key) {
        return (int) ((long) group[(Integer) key] * partitions / groups);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProcessPartitioner p && p.partitions == partitions && Arrays.equals(p.group, group);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(group) + partitions;
    }
}
