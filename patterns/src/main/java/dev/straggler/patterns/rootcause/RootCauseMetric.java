package dev.straggler.patterns.rootcause;

/**
 * The metrics the root-cause stage computes itself, with Scalasca's unique names (its {@code scout.cubex}); the
 * aggregates and the terminal/direct complements are derived from them by {@link RootCauses}.
 */
public enum RootCauseMetric {
    DELAY_LATESENDER("delay_latesender"),
    DELAY_LATESENDER_LONGTERM("delay_latesender_longterm"),
    DELAY_LATERECEIVER("delay_latereceiver"),
    DELAY_LATERECEIVER_LONGTERM("delay_latereceiver_longterm"),
    DELAY_BARRIER("delay_barrier"),
    DELAY_BARRIER_LONGTERM("delay_barrier_longterm"),
    DELAY_N2N("delay_n2n"),
    DELAY_N2N_LONGTERM("delay_n2n_longterm"),
    DELAY_12N("delay_12n"),
    DELAY_12N_LONGTERM("delay_12n_longterm"),
    DELAY_N21("delay_n21"),
    DELAY_N21_LONGTERM("delay_n21_longterm"),
    DELAY_OMPBARRIER("delay_ompbarrier"),
    DELAY_OMPBARRIER_LONGTERM("delay_ompbarrier_longterm"),
    DELAY_OMPIDLE("delay_ompidle"),
    DELAY_OMPIDLE_LONGTERM("delay_ompidle_longterm"),
    MPI_WAIT_INDIRECT_LATESENDER("mpi_wait_indirect_latesender"),
    MPI_WAIT_INDIRECT_LATERECEIVER("mpi_wait_indirect_latereceiver"),
    MPI_WAIT_PROPAGATING_LS("mpi_wait_propagating_ls"),
    MPI_WAIT_PROPAGATING_LR("mpi_wait_propagating_lr"),
    CRITICAL_PATH("critical_path"),
    CRITICAL_PATH_ACTIVITIES("critical_path_activities"),
    CRITICAL_IMBALANCE_IMPACT("critical_imbalance_impact"),
    INTER_PARTITION_IMBALANCE("inter_partition_imbalance"),
    NON_CRITICAL_PATH_ACTIVITIES("non_critical_path_activities");

    private final String uniqueName;

    RootCauseMetric(String uniqueName) {
        this.uniqueName = uniqueName;
    }

    public String uniqueName() {
        return uniqueName;
    }
}
