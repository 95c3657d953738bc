package dev.straggler.patterns.reduce;

import java.util.Set;

/**
 * What an include list keeps and drops ({@link ReductionPlanner}).
 *
 * <p>MPI calls and the other non-filterable types are always kept, and so are COM functions (on a path to
 * communication) unless a byte budget forces them out. Among the USR functions (never communicate), the default
 * criterion drops the short ones that matter for the trace size: inclusive time per visit below
 * {@code shortCallMicros} and at least {@code minBufferShare} of the largest per-rank trace; given
 * {@code rules} (tau_reduce grammar) replace that criterion, as a rule file replaces tau_reduce's default rule.
 * A function that is long as a whole is kept even when its own (exclusive) time is tiny: it marks a phase.
 *
 * @param shortCallMicros inclusive microseconds per visit below which a USR function counts as short
 *                        (scorep-score's filter proposal uses 1 µs per visit)
 * @param minBufferShare  fraction of the largest per-rank byte count a short function must cause to be dropped
 *                        by default (scorep-score: 1 %); 0 drops every short function
 * @param rules           tau_reduce rules selecting the USR functions to drop instead of the default criterion;
 *                        null for the default
 * @param budgetBytes     bytes the reduced trace must fit, -1 for no budget
 * @param budgetPerRank   the budget bounds the largest rank's bytes (Score-P's max_buf, what SCOREP_TOTAL_MEMORY
 *                        must hold) instead of the whole trace
 * @param keep            region names never dropped
 */
public record ReductionOptions(double shortCallMicros, double minBufferShare, TauReduceRules rules, long budgetBytes,
                               boolean budgetPerRank, Set<String> keep) {

    public static final double DEFAULT_SHORT_CALL_MICROS = 1.0;
    public static final double DEFAULT_MIN_BUFFER_SHARE = 0.01;

    public ReductionOptions {
        if (!(shortCallMicros >= 0)) {
            throw new IllegalArgumentException("short-call threshold must be >= 0 µs: " + shortCallMicros);
        }
        if (!(minBufferShare >= 0 && minBufferShare <= 1)) {
            throw new IllegalArgumentException("minimum buffer share must be within 0..1: " + minBufferShare);
        }
        keep = Set.copyOf(keep == null ? Set.of() : keep);
    }

    public static ReductionOptions defaults() {
        return new ReductionOptions(DEFAULT_SHORT_CALL_MICROS, DEFAULT_MIN_BUFFER_SHARE, null, -1, false, Set.of());
    }

    public ReductionOptions withRules(TauReduceRules r) {
        return new ReductionOptions(shortCallMicros, minBufferShare, r, budgetBytes, budgetPerRank, keep);
    }

    public ReductionOptions withBudget(long bytes, boolean perRank) {
        return new ReductionOptions(shortCallMicros, minBufferShare, rules, bytes, perRank, keep);
    }

    public ReductionOptions withShortCall(double micros, double share) {
        return new ReductionOptions(micros, share, rules, budgetBytes, budgetPerRank, keep);
    }

    public ReductionOptions withKeep(Set<String> names) {
        return new ReductionOptions(shortCallMicros, minBufferShare, rules, budgetBytes, budgetPerRank, names);
    }
}
