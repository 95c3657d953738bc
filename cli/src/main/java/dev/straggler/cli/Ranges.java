package dev.straggler.cli;

import java.util.Locale;

/**
 * Range checks of numeric options, done before any work: a value outside its range is a one-line error naming the
 * option, the range and the value (exit 1), never a silent default, a NaN row or a stack trace later on.
 */
final class Ranges {
    private Ranges() {
    }

    static int between(String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(option + " takes " + (max == Integer.MAX_VALUE
                    ? "a whole number of at least " + min : "a whole number from " + min + " to " + max)
                    + ", not " + value);
        }
        return value;
    }

    /** A finite number in {@code [min, max]}. */
    static double between(String option, double value, double min, double max) {
        if (!Double.isFinite(value) || value < min || value > max) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s takes a number from %s to %s, not %s",
                    option, fmt(min), fmt(max), fmt(value)));
        }
        return value;
    }

    /** Every entry a positive process count. */
    static int[] processCounts(String option, int[] values) {
        for (int p : values) {
            if (p < 1) {
                throw new IllegalArgumentException(option + " takes positive process counts, not " + p);
            }
        }
        return values;
    }

    /** A thread count: null means one per core; otherwise 1 .. 4096. */
    static int threads(Integer value) {
        if (value == null) {
            return 0;
        }
        return between("--threads", value, 1, 4096);
    }

    private static String fmt(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "infinity" : "-infinity";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
