package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.List;

/**
 * Per call path, summed over all locations and call-path inclusive: the time on the critical path, and the time
 * outside the wait states that Scalasca's CubePL definition of the critical-path imbalance subtracts (reference §1.6).
 * The critical-path imbalance of a call path is its time on the path above {@code busy / locations}; the metric and
 * the reports that explain it take both from here.
 *
 * @param onPath per call path: {@code critical_path}, its subtree included
 * @param busy   per call path: {@code time} minus {@link #WAITING}, its subtree included
 */
public record CriticalPathTimes(double[] onPath, double[] busy) {

    /**
     * What the CubePL definition subtracts from {@code time}, by unique name (Scalasca 2.6's remapping.spec): the MPI
     * wait states (the one-sided ones are never analysed here and count as zero) and, for threads, OpenMP management,
     * barrier and lock waiting, ordered time and idle threads. Metrics a cube lacks count as zero.
     */
    public static final List<String> WAITING = List.of("mpi_finalize_wait", "mpi_rma_wait_at_create",
            "mpi_rma_wait_at_free", "mpi_barrier_wait", "mpi_rma_sync_late_post", "mpi_rma_early_wait",
            "mpi_rma_wait_at_fence", "mpi_rma_sync_lock_competition", "mpi_rma_sync_wait_for_progress",
            "mpi_latesender", "mpi_latereceiver", "mpi_earlyreduce", "mpi_earlyscan", "mpi_latebroadcast",
            "mpi_wait_nxn", "mpi_rma_comm_late_post", "mpi_rma_comm_lock_competition",
            "mpi_rma_comm_wait_for_progress", "omp_management", "omp_ebarrier_wait", "omp_ibarrier_wait",
            "omp_lock_contention_critical", "omp_lock_contention_api", "omp_ordered", "omp_idle_threads");

    /** Both sums of a cube; a metric the cube lacks counts as zero. */
    public static CriticalPathTimes of(SeverityCube cube) {
        int paths = cube.callPaths().size();
        int cpm = cube.metricIndex("critical_path");
        int time = cube.metricIndex("time");
        int[] waits = WAITING.stream().mapToInt(cube::metricIndex).filter(m -> m >= 0).toArray();
        double[] cpIncl = new double[paths];
        double[] busyIncl = new double[paths];
        for (int c = 0; c < paths; c++) {
            double cp = cpm < 0 ? 0 : cube.sumOverLocations(cpm, c);
            double busy = time < 0 ? 0 : cube.sumOverLocations(time, c);
            for (int w : waits) {
                busy -= cube.sumOverLocations(w, c);
            }
            // parents come before their children: add each node to itself and its ancestors
            for (int p = c; p >= 0; p = cube.callPaths().get(p).parent()) {
                cpIncl[p] += cp;
                busyIncl[p] += busy;
            }
        }
        return new CriticalPathTimes(cpIncl, busyIncl);
    }
}
