package dev.straggler.patterns.openmp;

import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.ThreadRecords;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;

/**
 * Lock contention of OpenMP and POSIX threads (Scalasca's THREAD_LOCK_CONTENTION in Thread.pattern, with
 * LockTracking; docs/openmp.md §5.2 and §8): an acquisition with order k of a lock waited from the Enter of the
 * region around it until the release of acquisition k − 1 of the same lock by whichever thread, booked on that
 * region's call path when positive. The first acquisition never waits. Lock ids and orders are per process and per
 * threading model (the record's paradigm), so a process's threads are taken together, each model's locks apart.
 * The region around the acquisition decides the metric:
 * <ul>
 *   <li>an OpenMP critical section (or its block): {@code omp_lock_contention_critical};</li>
 *   <li>any other OpenMP region (the lock API): {@code omp_lock_contention_api};</li>
 *   <li>pthread_mutex_lock or _trylock: {@code pthread_lock_contention_mutex_lock};</li>
 *   <li>pthread_cond_wait or _timedwait (the mutex taken back on waking): {@code pthread_lock_contention_conditional};</li>
 *   <li>anything else: nothing.</li>
 * </ul>
 */
final class LockContention {
    private LockContention() {
    }

    static void book(LocationData[] team, Severities[] out) {
        // per model, (lock, order) -> release time, over the whole team
        Long2LongOpenHashMap[] released = {new Long2LongOpenHashMap(), new Long2LongOpenHashMap()};
        for (Long2LongOpenHashMap m : released) {
            m.defaultReturnValue(Long.MIN_VALUE);
        }
        for (LocationData d : team) {
            ThreadRecords t = d.threads();
            for (int i = 0; i < t.releases(); i++) {
                released[t.releaseModel(i)].put(key(t.releaseLock(i), t.releaseOrder(i)), t.releaseTime(i));
            }
        }
        for (int m = 0; m < team.length; m++) {
            ThreadRecords t = team[m].threads();
            for (int i = 0; i < t.acquisitions(); i++) {
                long order = t.acquireOrder(i);
                int metric = metric(t.acquireConstruct(i));
                if (order <= 1 || metric < 0) {
                    continue;
                }
                long previous = released[t.acquireModel(i)].get(key(t.acquireLock(i), order - 1));
                if (previous == Long.MIN_VALUE) {
                    continue;
                }
                long wait = previous - t.acquireRegionEnter(i);
                if (wait > 0) {
                    out[m].add(metric, t.acquirePath(i), wait);
                }
            }
        }
    }

    private static int metric(byte construct) {
        return switch (construct) {
            case RegionTable.NO_CONSTRUCT -> -1;
            case RegionTable.CRITICAL -> MetricTree.OMP_LOCK_CONTENTION_CRITICAL;
            case RegionTable.PTHREAD_MUTEX_LOCK -> MetricTree.PTHREAD_LOCK_CONTENTION_MUTEX_LOCK;
            case RegionTable.PTHREAD_CONDITION_WAIT -> MetricTree.PTHREAD_LOCK_CONTENTION_CONDITIONAL;
            default -> MetricTree.OMP_LOCK_CONTENTION_API;
        };
    }

    private static long key(int lock, long order) {
        return ((long) lock << 32) | (order & 0xffffffffL);
    }
}
