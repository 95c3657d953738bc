package dev.straggler.testdata.sim;

import java.util.Arrays;

/**
 * Per-rank clock errors, to produce clock-condition violations on purpose. The simulator computes true times;
 * a rank with offset {@code o} and drift {@code d} records {@code t + o + floor(t × d)}. With {@code d > -1}
 * recorded times never go backwards. Immutable.
 */
public final class ClockSkew {
    private static final ClockSkew NONE = new ClockSkew(new long[0], new double[0]);

    private final long[] offset;
    private final double[] drift;

    private ClockSkew(long[] offset, double[] drift) {
        this.offset = offset;
        this.drift = drift;
    }

    public static ClockSkew none() {
        return NONE;
    }

    /** One rank's clock runs {@code offsetTicks} ahead (negative: behind) and gains {@code drift} s per s. */
    public static ClockSkew of(int rank, long offsetTicks, double drift) {
        if (rank < 0) {
            throw new IllegalArgumentException("rank must be >= 0: " + rank);
        }
        if (!(drift > -1)) {
            throw new IllegalArgumentException("drift must be > -1 so that time never runs backwards: " + drift);
        }
        long[] o = new long[rank + 1];
        double[] d = new double[rank + 1];
        o[rank] = offsetTicks;
        d[rank] = drift;
        return new ClockSkew(o, d);
    }

    /** This skew with one more rank's clock set (replacing that rank's previous setting). */
    public ClockSkew with(int rank, long offsetTicks, double drift) {
        ClockSkew one = of(rank, offsetTicks, drift);
        int n = Math.max(offset.length, rank + 1);
        long[] o = Arrays.copyOf(offset, n);
        double[] d = Arrays.copyOf(this.drift, n);
        o[rank] = one.offset[rank];
        d[rank] = one.drift[rank];
        return new ClockSkew(o, d);
    }

    public boolean isNone() {
        return offset.length == 0;
    }

    public boolean affects(int rank) {
        return rank < offset.length && (offset[rank] != 0 || drift[rank] != 0);
    }

    /** The timestamp rank {@code rank} records for true time {@code t}. */
    public long observe(int rank, long t) {
        if (rank >= offset.length) {
            return t;
        }
        return t + offset[rank] + (long) Math.floor(t * drift[rank]);
    }

    @Override
    public String toString() {
        return isNone() ? "ClockSkew[none]" : "ClockSkew[offset=" + Arrays.toString(offset) + ", drift=" + Arrays.toString(drift) + "]";
    }
}
