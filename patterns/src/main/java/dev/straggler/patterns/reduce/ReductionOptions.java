package dev.straggler.patterns.reduce;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What an include list keeps and drops ({@link ReductionPlanner}).
 *
 * <p>MPI calls and the other non-filterable types are always kept, and so are COM functions (on a path to
 * communication) unless a byte budget forces them out. Which USR functions (never communicate) go depends on the
 * {@link Policy}: the TAU/KOJAK paper's (the default, reference §9.2) drops them all, however long they run; the
 * short-function policy (scorep-score's proposal) drops only the short ones that matter for the trace size:
 * inclusive time per visit below {@code shortCallMicros} and at least {@code minBufferShare} of the largest
 * per-rank trace; given {@code rules} (tau_reduce grammar) replace either, as a rule file replaces tau_reduce's
 * default rule. Under the short-function policy a function that is long as a whole is kept even when its own
 * (exclusive) time is tiny: it marks a phase. Whatever the policy, the functions in {@code causes} are kept: they
 * cause wait states (their delay costs, docs/root-causes.md), so that the reduced trace still explains why.
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
 * @param policy          which USR functions are dropped without rules
 * @param causes          region name → why it is kept because it causes waiting (e.g. "12.3 % of all delay
 *                        costs"); never dropped, budget included
 */
public record ReductionOptions(double shortCallMicros, double minBufferShare, TauReduceRules rules, long budgetBytes,
                               boolean budgetPerRank, Set<String> keep, Policy policy, Map<String, String> causes) {

    /** Which user functions that never communicate an include list drops. */
    public enum Policy {
        /** The TAU/KOJAK paper's: only MPI and the functions on a path to it are instrumented (reference §9.2). */
        PAPER("MPI and every function on a path to MPI (TAU/KOJAK paper)"),
        /** scorep-score's proposal: drop user functions shorter than a threshold per visit that weigh in bytes. */
        SHORT_FUNCTIONS("short user functions dropped (scorep-score's proposal)");

        private final String description;

        Policy(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

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
        Objects.requireNonNull(policy, "policy");
        causes = Collections.unmodifiableMap(new LinkedHashMap<>(causes == null ? Map.of() : causes));
    }

    /** The paper's policy, scorep-score's thresholds for the short-function policy, no budget. */
    public static ReductionOptions defaults() {
        return new ReductionOptions(DEFAULT_SHORT_CALL_MICROS, DEFAULT_MIN_BUFFER_SHARE, null, -1, false, Set.of(),
                Policy.PAPER, Map.of());
    }

    public ReductionOptions withRules(TauReduceRules r) {
        return new ReductionOptions(shortCallMicros, minBufferShare, r, budgetBytes, budgetPerRank, keep, policy,
                causes);
    }

    public ReductionOptions withBudget(long bytes, boolean perRank) {
        return new ReductionOptions(shortCallMicros, minBufferShare, rules, bytes, perRank, keep, policy, causes);
    }

    /** Thresholds of the short-function policy (the policy itself is set by {@link #withPolicy}). */
    public ReductionOptions withShortCall(double micros, double share) {
        return new ReductionOptions(micros, share, rules, budgetBytes, budgetPerRank, keep, policy, causes);
    }

    public ReductionOptions withKeep(Set<String> names) {
        return new ReductionOptions(shortCallMicros, minBufferShare, rules, budgetBytes, budgetPerRank, names, policy,
                causes);
    }

    public ReductionOptions withPolicy(Policy p) {
        return new ReductionOptions(shortCallMicros, minBufferShare, rules, budgetBytes, budgetPerRank, keep, p,
                causes);
    }

    /** Keeps these functions because they cause waiting (name → the reason shown). */
    public ReductionOptions withCauses(Map<String, String> c) {
        return new ReductionOptions(shortCallMicros, minBufferShare, rules, budgetBytes, budgetPerRank, keep, policy,
                c);
    }

    /** What the table says about the policy applied. */
    public String describe() {
        String base = rules != null ? "tau_reduce rules: " + rules : policy.description();
        if (budgetBytes >= 0) {
            base += String.format(java.util.Locale.ROOT, ", budget %,d bytes%s", budgetBytes,
                    budgetPerRank ? " per rank" : "");
        }
        if (!causes.isEmpty()) {
            base += ", plus " + causes.size() + " function(s) that cause waiting";
        }
        return base;
    }
}
