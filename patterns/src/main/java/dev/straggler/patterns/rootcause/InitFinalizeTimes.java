package dev.straggler.patterns.rootcause;

/**
 * The all-rank reductions of MPI_Init or MPI_Finalize (latest Enter, earliest Leave) and the wait and completion
 * times Scalasca derives from them (MPI.pattern PRE_INIT / PRE_FINALIZE). Valid only when {@code complete}.
 *
 * @param latestRank the rank that entered last (ties: the lowest rank); the critical path starts there
 */
public record InitFinalizeTimes(boolean complete, long lastEnter, long firstLeave, int latestRank) {
    long completion(long leave) {
        long latestBegin = Math.min(lastEnter, leave);
        long earliestEnd = Math.max(firstLeave, latestBegin);
        return Math.max(0, leave - earliestEnd);
    }

    long wait(long enter, long leave) {
        return Math.max(0, Math.min(lastEnter, leave) - enter);
    }
}
