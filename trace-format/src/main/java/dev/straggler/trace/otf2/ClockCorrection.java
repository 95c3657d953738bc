package dev.straggler.trace.otf2;

/**
 * Piecewise-linear clock correction of one location from its ClockOffset definitions (reference §6.8), as
 * {@code OTF2_EvtReader.c} applies it: consecutive offsets (t_i, o_i), (t_i+1, o_i+1) bound an interval with slope
 * (o_i+1 - o_i) / (t_i+1 - t_i); a time uses the first interval whose end it does not pass (so times before the
 * first offset extrapolate the first interval, times after the last one the last interval) and becomes
 * {@code t + o_i + rint(slope * (t - t_i))}. One offset alone defines no interval and corrects nothing.
 *
 * <p>The sum is formed in integers, so timestamps above 2^53 stay exact; only the interpolated part goes through
 * a double, as in the C library. Immutable; {@link #cursor()} gives the per-reader search state.
 */
final class ClockCorrection {
    private final long[] begin;
    private final long[] end;
    private final long[] offset;
    private final double[] slope;

    private ClockCorrection(long[] begin, long[] end, long[] offset, double[] slope) {
        this.begin = begin;
        this.end = end;
        this.offset = offset;
        this.slope = slope;
    }

    /** The correction for offsets at increasing {@code times}; null when fewer than two offsets exist. */
    static ClockCorrection of(long[] times, long[] offsets) {
        int n = times.length - 1;
        if (n < 1) {
            return null;
        }
        long[] b = new long[n];
        long[] e = new long[n];
        long[] o = new long[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            b[i] = times[i];
            e[i] = times[i + 1];
            o[i] = offsets[i];
            // the C library forms the slope from the converted operands; doing the same keeps results identical
            s[i] = ((double) offsets[i + 1] - (double) offsets[i]) / ((double) times[i + 1] - (double) times[i]);
        }
        return new ClockCorrection(b, e, o, s);
    }

    int intervals() {
        return begin.length;
    }

    Cursor cursor() {
        return new Cursor();
    }

    /** Applies the correction to non-decreasing times, searching forward from the last interval used. */
    final class Cursor {
        private int i;

        long apply(long t) {
            while (i + 1 < begin.length && Long.compareUnsigned(t, end[i]) > 0) {
                i++;
            }
            long b = begin[i];
            double diff = Long.compareUnsigned(t, b) >= 0 ? (double) (t - b) : -(double) (b - t);
            return t + offset[i] + (long) Math.rint(slope[i] * diff);
        }
    }
}
