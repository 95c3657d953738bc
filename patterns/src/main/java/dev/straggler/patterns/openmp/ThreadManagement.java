package dev.straggler.patterns.openmp;

import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.TeamManagement;
import dev.straggler.replay.ThreadRecords;

/**
 * OpenMP thread management ({@code omp_management}, child {@code omp_fork}; Scalasca's OMP_MANAGEMENT and OMP_FORK
 * patterns, docs/openmp.md §4): on every thread, for the k-th parallel-region instance of its process,
 * {@code max(0, enter − fork) + max(0, join − leave)} with the master's k-th fork and join, booked on the parallel
 * region's call path; the fork part alone is {@code omp_fork}. The same time was added to the call-path profile by
 * the replay ({@link TeamManagement}), so it is part of {@code time} and {@code execution}; it counts towards
 * {@code omp_time} and not towards computation.
 */
final class ThreadManagement {
    private ThreadManagement() {
    }

    static void book(LocationData d, TeamManagement m, Severities out) {
        ThreadRecords t = d.threads();
        int l = d.location();
        for (int k = 0; k < t.parallels(); k++) {
            long fork = m.fork(l, k);
            long total = fork + m.join(l, k);
            if (total == 0) {
                continue;
            }
            int path = t.parallelPath(k);
            out.add(MetricTree.OMP_MANAGEMENT, path, total);
            out.add(MetricTree.OMP_TIME, path, total);
            out.add(MetricTree.COMP, path, -total);
            if (fork > 0) {
                out.add(MetricTree.OMP_FORK, path, fork);
            }
        }
    }
}
