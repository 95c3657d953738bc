package dev.straggler.replay;

/**
 * OpenMP thread-team management time (docs/openmp.md §4, Scalasca's OMP_MANAGEMENT pattern): for the k-th
 * parallel-region instance of a thread, the time from the master's k-th fork to the thread entering the region
 * ({@link #fork}) and from the thread leaving it to the master's k-th join ({@link #join}), each clipped at 0.
 * Scalasca also books this time on the region's call path in the time profile ({@code TIME} in Generic.pattern):
 * on the master it moves out of the forking call path, on a worker it adds to the master's call paths above the
 * region, which hold no time of their own there. {@link #apply} does both. Immutable once applied.
 */
public final class TeamManagement implements java.io.Serializable {
    /** Per location and parallel-region instance, ticks; null for a location without parallel regions. */
    private final long[][] forkTicks;
    private final long[][] joinTicks;
    /** Locations whose parallel regions outnumber their master's forks or joins (no management for the excess). */
    private final int unmatchedInstances;

    private TeamManagement(long[][] forkTicks, long[][] joinTicks, int unmatchedInstances) {
        this.forkTicks = forkTicks;
        this.joinTicks = joinTicks;
        this.unmatchedInstances = unmatchedInstances;
    }

    /**
     * Computes every thread's management time from its master's forks and joins and adds it to the parallel
     * regions' call paths in the profiles (on workers also to the call paths above). Locations of one process only
     * read their master's records, so this is linear in the parallel-region instances.
     */
    static TeamManagement apply(LocationData[] locations, int[] locationOfRank) {
        int n = locations.length;
        long[][] fork = new long[n][];
        long[][] join = new long[n][];
        int unmatched = 0;
        for (int l = 0; l < n; l++) {
            LocationData d = locations[l];
            ThreadRecords own = d.threads();
            int instances = own.parallels();
            if (instances == 0) {
                continue;
            }
            int rank = d.rank();
            int m = rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
            ThreadRecords master = m >= 0 ? locations[m].threads() : own;
            boolean worker = m >= 0 && m != l;
            fork[l] = new long[instances];
            join[l] = new long[instances];
            LocationProfile p = d.profile();
            for (int k = 0; k < instances; k++) {
                if (k >= master.forks() || k >= master.joins()) {
                    unmatched++;
                    continue;
                }
                long f = Math.max(0, own.parallelEnter(k) - master.forkTime(k));
                long j = Math.max(0, master.joinTime(k) - own.parallelLeave(k));
                fork[l][k] = f;
                join[l][k] = j;
                int node = own.parallelPath(k);
                p.addTime(node, f + j);
                if (worker) {
                    for (int a = p.parent(node); a >= 0; a = p.parent(a)) {
                        p.addTime(a, f + j);
                    }
                }
            }
        }
        return new TeamManagement(fork, join, unmatched);
    }

    /** Fork part of instance {@code k} of the location's parallel regions, in ticks. */
    public long fork(int location, int k) {
        return forkTicks[location] == null ? 0 : forkTicks[location][k];
    }

    /** Join part of instance {@code k}, in ticks. */
    public long join(int location, int k) {
        return joinTicks[location] == null ? 0 : joinTicks[location][k];
    }

    /** Parallel-region instances without a matching fork and join of their master (given no management time). */
    public int unmatchedInstances() {
        return unmatchedInstances;
    }
}
