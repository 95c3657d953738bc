package dev.straggler.testdata.sim;

import java.util.Locale;

/**
 * How much work each rank of a communicator does, after the APART Test Suite's distribution functions
 * (reference §7, {@code distribution.c}): {@code same}, {@code cyclic2}, {@code block2}, {@code linear} and
 * {@code peak}. Values are ticks; integer arithmetic keeps the closed-form expectations exact.
 *
 * @param low  value of {@code same}; low value of the others
 * @param high high value (cyclic2: odd ranks; block2: upper half; linear: last rank; peak: rank {@code peak})
 * @param peak the rank that gets {@code high} under {@code peak}
 */
public record Distribution(Kind kind, long low, long high, int peak) {

    public enum Kind {
        SAME, CYCLIC2, BLOCK2, LINEAR, PEAK;

        public static Kind parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown distribution '" + s + "' (same, cyclic2, block2, linear, peak)");
            }
        }
    }

    public Distribution {
        if (low < 0 || high < 0) {
            throw new IllegalArgumentException("work must be >= 0: low=" + low + ", high=" + high);
        }
    }

    /** Work of local rank {@code me} in a communicator of {@code size} ranks. */
    public long ticks(int me, int size) {
        return switch (kind) {
            case SAME -> low;
            case CYCLIC2 -> me % 2 == 0 ? low : high;
            case BLOCK2 -> me < size / 2 ? low : high;
            case LINEAR -> size <= 1 ? low : low + (high - low) * me / (size - 1);
            case PEAK -> me == peak ? high : low;
        };
    }
}
