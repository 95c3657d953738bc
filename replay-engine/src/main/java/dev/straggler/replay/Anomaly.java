package dev.straggler.replay;

/**
 * Malformed or unsupported input the replay skipped or repaired. Each is counted per location and reported;
 * nothing is dropped silently.
 */
public enum Anomaly {
    LEAVE_WITHOUT_ENTER("LEAVE with no open region (skipped)"),
    LEAVE_REGION_MISMATCH("LEAVE of a region other than the innermost open one (closed the innermost)"),
    UNCLOSED_REGION("region still open at the end of the stream (closed at the last timestamp)"),
    TIME_REVERSAL("timestamp earlier than the previous event's"),
    UNKNOWN_REQUEST("request completion, test or cancellation for a request never posted (ignored)"),
    COLLECTIVE_END_WITHOUT_BEGIN("MPI_COLLECTIVE_END without MPI_COLLECTIVE_BEGIN (used the enclosing Enter)"),
    MEASUREMENT_ON_WITHOUT_OFF("measurement switched on while not off (ignored)"),
    BAD_COMMUNICATOR("MPI record naming an undefined communicator or a peer outside it (skipped)"),
    MPI_OFF_MASTER_THREAD("MPI communication record on a location that is not its rank's master thread (skipped)"),
    PARALLEL_WITHOUT_FORK("parallel region on a worker thread with no matching fork of its master (placed at the"
            + " top of the call tree)"),
    LOCK_OUTSIDE_REGION("lock acquisition outside any region (not analysed for contention)"),
    OTHER_MODEL_LOCK("lock acquisition of a threading model other than OpenMP and POSIX threads (not analysed for"
            + " contention)");

    private final String description;

    Anomaly(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
