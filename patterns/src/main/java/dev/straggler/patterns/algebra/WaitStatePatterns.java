package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.Metric;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The wait-state and completion patterns of Scalasca's MPI metric tree (reference §1.2), by unique name: the
 * metrics the reports single out as "where the time is lost". Category metrics such as {@code mpi_collective} and
 * time metrics such as {@code comp} are not patterns.
 */
public final class WaitStatePatterns {
    /** In Scalasca's metric-tree order; children follow their parent. */
    public static final List<String> NAMES = List.of(
            "mpi_init_completion", "mpi_finalize_wait",
            "mpi_rma_wait_at_create", "mpi_rma_wait_at_free",
            "mpi_barrier_wait", "mpi_barrier_completion",
            "mpi_rma_sync_late_post", "mpi_rma_early_wait", "mpi_rma_late_complete", "mpi_rma_wait_at_fence",
            "mpi_rma_early_fence", "mpi_rma_sync_lock_competition", "mpi_rma_sync_wait_for_progress",
            "mpi_latesender", "mpi_latesender_wo", "mpi_lswo_different", "mpi_lswo_same", "mpi_latereceiver",
            "mpi_earlyreduce", "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn", "mpi_nxn_completion",
            "mpi_rma_comm_late_post", "mpi_rma_comm_lock_competition", "mpi_rma_comm_wait_for_progress");

    private static final Set<String> SET = Set.copyOf(NAMES);

    private WaitStatePatterns() {
    }

    public static boolean isPattern(String uniqueName) {
        return SET.contains(uniqueName);
    }

    /**
     * The patterns among {@code metrics} whose parent is not itself a pattern: Late Sender but not its Wrong Order
     * part, which Late Sender already includes (metric values are inclusive). Summing these never counts twice.
     */
    public static List<Integer> topLevel(List<Metric> metrics) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < metrics.size(); i++) {
            Metric m = metrics.get(i);
            if (isPattern(m.uniqueName()) && (m.parent() == null || !isPattern(m.parent()))) {
                out.add(i);
            }
        }
        return out;
    }

    /** Every pattern among {@code metrics}, nested ones included. */
    public static List<Integer> all(List<Metric> metrics) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < metrics.size(); i++) {
            if (isPattern(metrics.get(i).uniqueName())) {
                out.add(i);
            }
        }
        return out;
    }
}
