package dev.straggler.patterns.algebra;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;

import java.util.List;
import java.util.Set;

/**
 * The root-cause metrics (docs/root-causes.md) as the algebra and the scaling analyses must treat them, by
 * Scalasca's unique names, so that Straggler's cubes, Scalasca's remapped {@code trace.cubex} and its flat
 * {@code scout.cubex} are read alike.
 *
 * <ul>
 *   <li>A run analysed without the root-cause stage still defines these metrics, with zeros everywhere. Zeros there
 *       mean "not computed", not "no delay": {@link #carried} says which metrics an operand really has.</li>
 *   <li>{@code critical_path} and {@code critical_path_imbalance} hold one path through the run: summed over
 *       locations they give the path's length, a span of wall-clock time and not a resource total, so they are
 *       never divided by the number of ranks ({@link #isPath}).</li>
 *   <li>Delay costs are explained by their short-term and long-term members ({@link #SHORT_TERM},
 *       {@link #LONG_TERM}), which both Scalasca layouts store; the aggregates exist only in the remapped one.</li>
 * </ul>
 */
public final class CauseMetrics {
    /**
     * Short-term delay costs, one per kind of wait state, in Scalasca's order; with OpenMP threads also those of
     * waiting at OpenMP barriers and of idle threads (absent from cubes of runs without OpenMP: zero there).
     */
    public static final List<String> SHORT_TERM = List.of("delay_latesender", "delay_latereceiver", "delay_barrier",
            "delay_n2n", "delay_12n", "delay_n21", "delay_ompbarrier", "delay_ompidle");
    /** Long-term delay costs, position by position the kinds of {@link #SHORT_TERM}. */
    public static final List<String> LONG_TERM = List.of("delay_latesender_longterm", "delay_latereceiver_longterm",
            "delay_barrier_longterm", "delay_n2n_longterm", "delay_12n_longterm", "delay_n21_longterm",
            "delay_ompbarrier_longterm", "delay_ompidle_longterm");
    /** The first this many kinds of {@link #SHORT_TERM} are MPI wait states (the others OpenMP ones). */
    public static final int MPI_KINDS = 6;
    /** What the delay of each kind of {@link #SHORT_TERM} causes, for labels. */
    public static final List<String> KINDS = List.of("Late Sender", "Late Receiver", "Wait at Barrier",
            "Wait at N x N", "Late Broadcast", "Early Reduce", "Wait at OpenMP barrier", "Idle threads");
    /**
     * The wait states delay costs explain, position by position the kinds of {@link #SHORT_TERM} (OpenMP barriers:
     * the explicit and the implicit ones).
     */
    public static final List<List<String>> EXPLAINED_WAITS = List.of(List.of("mpi_latesender"),
            List.of("mpi_latereceiver"), List.of("mpi_barrier_wait"), List.of("mpi_wait_nxn"),
            List.of("mpi_latebroadcast"), List.of("mpi_earlyreduce"),
            List.of("omp_ebarrier_wait", "omp_ibarrier_wait"), List.of("omp_idle_threads"));

    /** The waiting that kind {@code kind}'s delays explain, summed over the cube (0 for metrics it lacks). */
    public static double explainedWaiting(SeverityCube c, int kind) {
        double w = 0;
        for (String m : EXPLAINED_WAITS.get(kind)) {
            w += c.total(m);
        }
        return w;
    }

    private static final Set<String> PATH = Set.of("critical_path", "critical_path_imbalance");

    /** Everything the root-cause stage writes, in both of Scalasca's layouts (OpenMP delays included). */
    private static final Set<String> ROOT_CAUSE = Set.of(
            "delay", "delay_mpi", "delay_p2p", "delay_collective",
            "delay_latesender_aggregate", "delay_latesender", "delay_latesender_longterm",
            "delay_latereceiver_aggregate", "delay_latereceiver", "delay_latereceiver_longterm",
            "delay_barrier_aggregate", "delay_barrier", "delay_barrier_longterm",
            "delay_n21_aggregate", "delay_n21", "delay_n21_longterm",
            "delay_12n_aggregate", "delay_12n", "delay_12n_longterm",
            "delay_n2n_aggregate", "delay_n2n", "delay_n2n_longterm",
            "delay_omp", "delay_ompbarrier_aggregate", "delay_ompbarrier", "delay_ompbarrier_longterm",
            "delay_ompidle_aggregate", "delay_ompidle", "delay_ompidle_longterm",
            "waitstates_propagating_vs_terminal", "mpi_wait_propagating", "mpi_wait_propagating_ls",
            "mpi_wait_propagating_lr", "mpi_wait_terminal", "mpi_wait_terminal_ls", "mpi_wait_terminal_lr",
            "waitstates_direct_vs_indirect", "mpi_wait_direct", "mpi_wait_direct_latesender",
            "mpi_wait_direct_latereceiver", "mpi_wait_indirect", "mpi_wait_indirect_latesender",
            "mpi_wait_indirect_latereceiver",
            "critical_path", "critical_path_imbalance", "performance_impact", "performance_impact_criticalpath",
            "critical_path_activities", "critical_imbalance_impact", "intra_partition_imbalance",
            "inter_partition_imbalance", "non_critical_path_activities");

    private CauseMetrics() {
    }

    /** True for a metric the root-cause stage writes. */
    public static boolean isRootCause(String uniqueName) {
        return ROOT_CAUSE.contains(uniqueName);
    }

    /** True for {@code critical_path} and {@code critical_path_imbalance}: values that are never per-rank costs. */
    public static boolean isPath(String uniqueName) {
        return PATH.contains(uniqueName);
    }

    /** True for {@link #isPath} metrics. */
    public static boolean isPath(Metric m) {
        return isPath(m.uniqueName());
    }

    /**
     * Whether a cube holds root causes: Straggler's analysis says so in its {@code root_causes} attribute (kept in
     * .cubex and JSON); for other cubes (Scalasca's), some root-cause metric is non-zero somewhere. An analysis of an
     * MPI trace with the stage always has a critical path, so all zeros means the stage did not run.
     */
    public static boolean computed(SeverityCube c) {
        if (Analysis.rootCausesAnalysed(c)) {
            return true;
        }
        for (int m = 0; m < c.metrics().size(); m++) {
            if (!isRootCause(c.metrics().get(m).uniqueName())) {
                continue;
            }
            for (int p = 0; p < c.callPaths().size(); p++) {
                double[] row = c.rowOrNull(m, p);
                if (row == null) {
                    continue;
                }
                for (double v : row) {
                    if (v != 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Per metric of {@code c}: false for the root-cause metrics when {@code c} has not {@link #computed} them. */
    public static boolean[] carried(SeverityCube c) {
        boolean rootCauses = computed(c);
        boolean[] out = new boolean[c.metrics().size()];
        for (int m = 0; m < out.length; m++) {
            out[m] = rootCauses || !isRootCause(c.metrics().get(m).uniqueName());
        }
        return out;
    }

    /** Whether {@code c} carries delay costs: it defines short-term or long-term delay metrics and computed them. */
    public static boolean carriesDelays(SeverityCube c) {
        boolean defined = false;
        for (int k = 0; k < SHORT_TERM.size(); k++) {
            defined |= c.metricIndex(SHORT_TERM.get(k)) >= 0 || c.metricIndex(LONG_TERM.get(k)) >= 0;
        }
        return defined && computed(c);
    }

    /** "Late Sender delay" for the kind at position {@code kind} of {@link #SHORT_TERM}. */
    public static String delayLabel(int kind) {
        return KINDS.get(kind) + " delay";
    }

    /** Scalasca's name of the short-term plus long-term delay of a kind: {@code delay_latesender_aggregate}. */
    public static String aggregate(int kind) {
        return SHORT_TERM.get(kind) + "_aggregate";
    }

    /**
     * A delay kind's short-term plus long-term costs on one call path, summed over locations: the aggregate Scalasca's
     * remapping defines, computed from its members so that flat cubes without aggregates give it too.
     */
    public static double delay(SeverityCube c, int kind, int callPath) {
        int s = c.metricIndex(SHORT_TERM.get(kind));
        int l = c.metricIndex(LONG_TERM.get(kind));
        return (s < 0 ? 0 : c.sumOverLocations(s, callPath)) + (l < 0 ? 0 : c.sumOverLocations(l, callPath));
    }
}
