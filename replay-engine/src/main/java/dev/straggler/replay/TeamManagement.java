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
        TeamManagement m = compute(locations, locationOfRank);
        for (int l = 0; l < locations.length; l++) {
            if (m.forkTicks[l] != null) {
                addToProfile(locations[l], m.forkTicks[l], m.joinTicks[l], isWorker(locations[l], l, locationOfRank));
            }
        }
        return m;
    }

    /**
     * As {@link #apply}, without touching the profiles: for locations whose management time an engine already added
     * where it read them ({@link #applyTo}). {@code locations[i]} must be location {@code i} of {@code locationOfRank}'s
     * numbering.
     */
    static TeamManagement compute(LocationData[] locations, int[] locationOfRank) {
        int n = locations.length;
        long[][] fork = new long[n][];
        long[][] join = new long[n][];
        int unmatched = 0;
        for (int l = 0; l < n; l++) {
            LocationData d = locations[l];
            ThreadRecords own = d.threads();
            if (own.parallels() == 0) {
                continue;
            }
            int rank = d.rank();
            int m = rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
            fork[l] = new long[own.parallels()];
            join[l] = new long[own.parallels()];
            unmatched += ticks(own, m >= 0 ? locations[m].threads() : own, fork[l], join[l]);
        }
        return new TeamManagement(fork, join, unmatched);
    }

    /**
     * Adds one location's management time to its profile, as {@link #apply} does for a whole replay, for an engine
     * that reads locations apart (a Spark task): {@code master} holds the records of the master thread of the
     * location's process (the location's own when it is that master or its process has none), {@code worker} says
     * whether the location is not that master (its call paths above the regions then get the time too).
     */
    public static void applyTo(LocationData d, ThreadRecords master, boolean worker) {
        ThreadRecords own = d.threads();
        if (own.parallels() == 0) {
            return;
        }
        long[] fork = new long[own.parallels()];
        long[] join = new long[own.parallels()];
        ticks(own, master, fork, join);
        addToProfile(d, fork, join, worker);
    }

    private static boolean isWorker(LocationData d, int l, int[] locationOfRank) {
        int rank = d.rank();
        int m = rank >= 0 && rank < locationOfRank.length ? locationOfRank[rank] : -1;
        return m >= 0 && m != l;
    }

    /**
     * Fills each parallel-region instance's fork and join parts against the master's k-th fork and join; returns the
     * instances without both (left at 0).
     */
    private static int ticks(ThreadRecords own, ThreadRecords master, long[] fork, long[] join) {
        int unmatched = 0;
        for (int k = 0; k < fork.length; k++) {
            if (k >= master.forks() || k >= master.joins()) {
                unmatched++;
                continue;
            }
            fork[k] = Math.max(0, own.parallelEnter(k) - master.forkTime(k));
            join[k] = Math.max(0, master.joinTime(k) - own.parallelLeave(k));
        }
        return unmatched;
    }

    private static void addToProfile(LocationData d, long[] fork, long[] join, boolean worker) {
        LocationProfile p = d.profile();
        ThreadRecords own = d.threads();
        for (int k = 0; k < fork.length; k++) {
            long t = fork[k] + join[k];
            if (t == 0) {
                continue;
            }
            int node = own.parallelPath(k);
            p.addTime(node, t);
            if (worker) {
                for (int a = p.parent(node); a >= 0; a = p.parent(a)) {
                    p.addTime(a, t);
                }
            }
        }
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
