package dev.straggler.testdata.scenario;

import java.util.List;

/**
 * Scalasca 2.6 unique names of the metrics the scenarios predict (reference §1.2): the wait states, and for the
 * root-cause scenarios the delay costs, the wait-state classes and the critical-path metrics (reference §1.6).
 */
public final class Metrics {
    public static final String LATE_SENDER = "mpi_latesender";
    public static final String LATE_SENDER_WO = "mpi_latesender_wo";
    public static final String LSWO_DIFFERENT = "mpi_lswo_different";
    public static final String LSWO_SAME = "mpi_lswo_same";
    public static final String LATE_RECEIVER = "mpi_latereceiver";
    public static final String BARRIER_WAIT = "mpi_barrier_wait";
    public static final String BARRIER_COMPLETION = "mpi_barrier_completion";
    public static final String WAIT_NXN = "mpi_wait_nxn";
    public static final String NXN_COMPLETION = "mpi_nxn_completion";
    public static final String LATE_BROADCAST = "mpi_latebroadcast";
    public static final String EARLY_REDUCE = "mpi_earlyreduce";
    public static final String EARLY_SCAN = "mpi_earlyscan";
    public static final String INIT_COMPLETION = "mpi_init_completion";
    public static final String FINALIZE_WAIT = "mpi_finalize_wait";

    /** Every wait-state metric an exact expectation covers, in the order of Scalasca's metric tree. */
    public static final List<String> WAIT_STATES = List.of(INIT_COMPLETION, FINALIZE_WAIT, BARRIER_WAIT,
            BARRIER_COMPLETION, LATE_SENDER, LATE_SENDER_WO, LSWO_DIFFERENT, LSWO_SAME, LATE_RECEIVER, EARLY_REDUCE,
            EARLY_SCAN, LATE_BROADCAST, WAIT_NXN, NXN_COMPLETION);

    public static final String DELAY_LATESENDER = "delay_latesender";
    public static final String DELAY_LATESENDER_LONGTERM = "delay_latesender_longterm";
    public static final String DELAY_LATERECEIVER = "delay_latereceiver";
    public static final String DELAY_LATERECEIVER_LONGTERM = "delay_latereceiver_longterm";
    public static final String DELAY_BARRIER = "delay_barrier";
    public static final String DELAY_BARRIER_LONGTERM = "delay_barrier_longterm";
    public static final String DELAY_N2N = "delay_n2n";
    public static final String DELAY_N2N_LONGTERM = "delay_n2n_longterm";
    public static final String DELAY_12N = "delay_12n";
    public static final String DELAY_12N_LONGTERM = "delay_12n_longterm";
    public static final String DELAY_N21 = "delay_n21";
    public static final String DELAY_N21_LONGTERM = "delay_n21_longterm";

    public static final String PROPAGATING_LS = "mpi_wait_propagating_ls";
    public static final String PROPAGATING_LR = "mpi_wait_propagating_lr";
    public static final String TERMINAL_LS = "mpi_wait_terminal_ls";
    public static final String TERMINAL_LR = "mpi_wait_terminal_lr";
    public static final String INDIRECT_LS = "mpi_wait_indirect_latesender";
    public static final String INDIRECT_LR = "mpi_wait_indirect_latereceiver";
    public static final String DIRECT_LS = "mpi_wait_direct_latesender";
    public static final String DIRECT_LR = "mpi_wait_direct_latereceiver";

    public static final String CRITICAL_PATH = "critical_path";
    public static final String CRITICAL_PATH_IMBALANCE = "critical_path_imbalance";
    public static final String CRITICAL_PATH_ACTIVITIES = "critical_path_activities";
    public static final String CRITICAL_IMBALANCE_IMPACT = "critical_imbalance_impact";
    public static final String INTRA_PARTITION_IMBALANCE = "intra_partition_imbalance";
    public static final String INTER_PARTITION_IMBALANCE = "inter_partition_imbalance";
    public static final String NON_CRITICAL_PATH_ACTIVITIES = "non_critical_path_activities";
    public static final String PERFORMANCE_IMPACT_CRITICALPATH = "performance_impact_criticalpath";
    public static final String PERFORMANCE_IMPACT = "performance_impact";

    public static final String OMP_MANAGEMENT = "omp_management";
    public static final String OMP_FORK = "omp_fork";
    public static final String OMP_EBARRIER_WAIT = "omp_ebarrier_wait";
    public static final String OMP_IBARRIER_WAIT = "omp_ibarrier_wait";
    public static final String OMP_LOCK_CONTENTION_CRITICAL = "omp_lock_contention_critical";
    public static final String OMP_LOCK_CONTENTION_API = "omp_lock_contention_api";
    public static final String OMP_IDLE_THREADS = "omp_idle_threads";
    public static final String OMP_LIMITED_PARALLELISM = "omp_limited_parallelism";

    /**
     * The OpenMP metrics of Straggler's OpenMP level (docs/openmp.md §3.2, §4, §5), which every hybrid scenario
     * predicts per call path, rank and thread. {@code omp_management} includes its child {@code omp_fork}, and
     * {@code omp_idle_threads} its child {@code omp_limited_parallelism}, as the analysis stores them.
     */
    public static final List<String> OPENMP = List.of(OMP_MANAGEMENT, OMP_FORK, OMP_EBARRIER_WAIT,
            OMP_IBARRIER_WAIT, OMP_LOCK_CONTENTION_CRITICAL, OMP_LOCK_CONTENTION_API, OMP_IDLE_THREADS,
            OMP_LIMITED_PARALLELISM);

    public static final String DELAY_OMPBARRIER = "delay_ompbarrier";
    public static final String DELAY_OMPBARRIER_LONGTERM = "delay_ompbarrier_longterm";
    public static final String DELAY_OMPIDLE = "delay_ompidle";
    public static final String DELAY_OMPIDLE_LONGTERM = "delay_ompidle_longterm";

    /** Short- and long-term delay costs of every MPI wait-state kind. */
    public static final List<String> DELAY_COSTS = List.of(DELAY_LATESENDER, DELAY_LATESENDER_LONGTERM,
            DELAY_LATERECEIVER, DELAY_LATERECEIVER_LONGTERM, DELAY_BARRIER, DELAY_BARRIER_LONGTERM, DELAY_N2N,
            DELAY_N2N_LONGTERM, DELAY_12N, DELAY_12N_LONGTERM, DELAY_N21, DELAY_N21_LONGTERM);

    /** Point-to-point waiting split into propagating/terminal and direct/indirect. */
    public static final List<String> WAIT_CLASSES = List.of(PROPAGATING_LS, PROPAGATING_LR, TERMINAL_LS,
            TERMINAL_LR, INDIRECT_LS, INDIRECT_LR, DIRECT_LS, DIRECT_LR);

    /** The critical path and the performance-impact metrics derived from it. */
    public static final List<String> CRITICAL_PATH_METRICS = List.of(CRITICAL_PATH, CRITICAL_PATH_IMBALANCE,
            CRITICAL_PATH_ACTIVITIES, CRITICAL_IMBALANCE_IMPACT, INTRA_PARTITION_IMBALANCE,
            INTER_PARTITION_IMBALANCE, NON_CRITICAL_PATH_ACTIVITIES, PERFORMANCE_IMPACT_CRITICALPATH,
            PERFORMANCE_IMPACT);

    private Metrics() {
    }
}
