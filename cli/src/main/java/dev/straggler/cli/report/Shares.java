package dev.straggler.cli.report;

/**
 * Cleaning of derived values before they are shown: a page must never print an impossible number. Differences of
 * sums (terminal = wait − propagating, propagated = aggregate − short-term, ...) leave rounding residue of the
 * order of 1e-18 s, sometimes negative; shares of such values must stay within [0, 100] %.
 */
final class Shares {
    /** Below this fraction of the quantity it is part of, a value is rounding residue (the terminal's rule). */
    static final double RESIDUE = 1e-9;

    private Shares() {
    }

    /** {@code 100 × part / whole} clamped to [0, 100]; 0 when the whole is not positive or not finite. */
    static double percent(double part, double whole) {
        if (!(whole > 0) || !Double.isFinite(whole) || !Double.isFinite(part)) {
            return 0;
        }
        return Math.max(0, Math.min(100, 100 * part / whole));
    }

    /**
     * A quantity that cannot be negative (a time, a cost): 0 when it is negative, not finite, or rounding residue
     * relative to {@code scale}, the total it is part of.
     */
    static double nonNegative(double v, double scale) {
        if (!Double.isFinite(v) || v <= 0 || v < RESIDUE * Math.abs(scale)) {
            return 0;
        }
        return v;
    }
}
