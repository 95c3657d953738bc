package dev.straggler.cli.report;

/**
 * The wait states whose causes Scalasca's delay analysis traces back (reference §1.6), each with the unique names
 * of its metrics: the waiting time, the short- and long-term delay costs charged to the delaying call paths, and
 * for point-to-point waiting the indirect (itself propagated) and propagating (causing further waiting) parts.
 * Delay costs are aggregated per wait-state kind only: Scalasca does not link an individual wait to its delays.
 * With OpenMP threads two kinds more: waiting at OpenMP barriers (explicit and implicit, one kind as Scalasca's delay
 * costs have it) and idle worker threads, whose delays are the master's serial time (docs/openmp.md §6).
 */
enum WaitKind {
    LATE_SENDER("Late Sender", "mpi_latesender", "delay_latesender", "delay_latesender_longterm",
            "mpi_wait_indirect_latesender", "mpi_wait_propagating_ls"),
    LATE_RECEIVER("Late Receiver", "mpi_latereceiver", "delay_latereceiver", "delay_latereceiver_longterm",
            "mpi_wait_indirect_latereceiver", "mpi_wait_propagating_lr"),
    BARRIER("Wait at Barrier", "mpi_barrier_wait", "delay_barrier", "delay_barrier_longterm", null, null),
    N_X_N("Wait at N\u00d7N", "mpi_wait_nxn", "delay_n2n", "delay_n2n_longterm", null, null),
    LATE_BROADCAST("Late Broadcast", "mpi_latebroadcast", "delay_12n", "delay_12n_longterm", null, null),
    EARLY_REDUCE("Early Reduce", "mpi_earlyreduce", "delay_n21", "delay_n21_longterm", null, null),
    OMP_BARRIER("Wait at OpenMP barrier", "omp_ibarrier_wait", "delay_ompbarrier", "delay_ompbarrier_longterm", null,
            null, "omp_ebarrier_wait"),
    OMP_IDLE("Idle threads", "omp_idle_threads", "delay_ompidle", "delay_ompidle_longterm", null, null);

    final String displayName;
    final String waiting;
    final String shortTerm;
    final String longTerm;
    /** Null for collective wait states, which Scalasca does not classify. */
    final String indirect;
    final String propagating;
    /** Further waiting metrics of the kind (the explicit OpenMP barriers beside the implicit ones). */
    final String[] alsoWaiting;

    WaitKind(String displayName, String waiting, String shortTerm, String longTerm, String indirect,
             String propagating, String... alsoWaiting) {
        this.displayName = displayName;
        this.waiting = waiting;
        this.alsoWaiting = alsoWaiting;
        this.shortTerm = shortTerm;
        this.longTerm = longTerm;
        this.indirect = indirect;
        this.propagating = propagating;
    }
}
