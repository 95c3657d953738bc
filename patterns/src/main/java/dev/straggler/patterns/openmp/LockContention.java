package dev.straggler.patterns.openmp;

import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.ThreadRecords;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;

/**
 * Lock contention ({@code omp_lock_contention_critical}, {@code omp_lock_contention_api}; Scalasca's
 * OMP_LOCK_CONTENTION_CRITICAL and OMP_LOCK_CONTENTION_API, docs/openmp.md §5.2): an acquisition with order k of
 * a lock waited from the Enter of the region around it (the critical section, the lock routine) until the release
 * of acquisition k − 1 of the same lock by whichever thread, booked on that region's call path when positive. The
 * first acquisition never waits. A critical section (or its block) books critical contention, any other OpenMP
 * region lock-API contention. Lock ids and orders are per process, so a process's threads are taken together.
 */
final class LockContention {
    private LockContention() {
    }

    static void book(LocationData[] team, Severities[] out) {
        // (lock, order) -> release time, over the whole team
        Long2LongOpenHashMap released = new Long2LongOpenHashMap();
        released.defaultReturnValue(Long.MIN_VALUE);
        for (LocationData d : team) {
            ThreadRecords t = d.threads();
            for (int i = 0; i < t.releases(); i++) {
                released.put(key(t.releaseLock(i), t.releaseOrder(i)), t.releaseTime(i));
            }
        }
        for (int m = 0; m < team.length; m++) {
            ThreadRecords t = team[m].threads();
            for (int i = 0; i < t.acquisitions(); i++) {
                long order = t.acquireOrder(i);
                if (order <= 1) {
                    continue;
                }
                long previous = released.get(key(t.acquireLock(i), order - 1));
                if (previous == Long.MIN_VALUE) {
                    continue;
                }
                long wait = previous - t.acquireRegionEnter(i);
                byte construct = t.acquireConstruct(i);
                if (wait > 0 && construct != RegionTable.NO_CONSTRUCT) {
                    int metric = construct == RegionTable.CRITICAL ? MetricTree.OMP_LOCK_CONTENTION_CRITICAL
                            : MetricTree.OMP_LOCK_CONTENTION_API;
                    out[m].add(metric, t.acquirePath(i), wait);
                }
            }
        }
    }

    private static long key(int lock, long order) {
        return ((long) lock << 32) | (order & 0xffffffffL);
    }
}
