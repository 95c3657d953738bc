package dev.straggler.patterns.openmp;

import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.ThreadRecords;

/**
 * Wait at OpenMP barriers ({@code omp_ebarrier_wait} for explicit, {@code omp_ibarrier_wait} for implicit barriers;
 * Scalasca's OMP_EBARRIER_WAIT and OMP_IBARRIER_WAIT, docs/openmp.md §5.1): the k-th barrier of every thread of a
 * process is one instance; a thread waits from its own entry until the last thread of the team enters, booked on
 * its barrier call path when positive, less the time it executed tasks inside the barrier (Scalasca's
 * {@code mTaskExecutionTime}: a thread that runs queued tasks in a barrier is working, not waiting; here the task
 * regions entered and left inside the barrier, {@link ThreadRecords#barrierTaskTicks}).
 */
final class BarrierWait {
    private BarrierWait() {
    }

    /**
     * @param team the threads of one process, master first; every one has the same number of barriers (checked by
     *             the caller)
     */
    static void book(LocationData[] team, Severities[] out) {
        int instances = team[0].threads().barriers();
        for (int k = 0; k < instances; k++) {
            long last = Long.MIN_VALUE;
            for (LocationData d : team) {
                last = Math.max(last, d.threads().barrierEnter(k));
            }
            for (int i = 0; i < team.length; i++) {
                ThreadRecords t = team[i].threads();
                long wait = last - t.barrierEnter(k) - t.barrierTaskTicks(k);
                if (wait > 0) {
                    int metric = t.barrierKind(k) == RegionTable.BARRIER ? MetricTree.OMP_EBARRIER_WAIT
                            : MetricTree.OMP_IBARRIER_WAIT;
                    out[i].add(metric, t.barrierPath(k), wait);
                }
            }
        }
    }
}
