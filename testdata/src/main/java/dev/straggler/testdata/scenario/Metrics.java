package dev.straggler.testdata.scenario;

import java.util.List;

/** Scalasca 2.6 unique names of the wait-state metrics the scenarios predict (reference §1.2). */
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

    private Metrics() {
    }
}
