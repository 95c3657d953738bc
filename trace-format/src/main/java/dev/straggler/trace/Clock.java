package dev.straggler.trace;

/**
 * Timer properties (OTF2 ClockProperties). Timestamps are {@code long} ticks: real traces exceed 2^53 ticks,
 * so they are never held as {@code double} until converted to a duration.
 *
 * @param ticksPerSecond timer resolution
 * @param globalOffset   tick value of the start of the measurement
 * @param traceLength    ticks from {@code globalOffset} to the end of the measurement
 */
public record Clock(long ticksPerSecond, long globalOffset, long traceLength) {

    public Clock {
        if (ticksPerSecond <= 0) {
            throw new IllegalArgumentException("timer resolution must be positive: " + ticksPerSecond);
        }
    }

    /** A duration in ticks as seconds. */
    public double seconds(long ticks) {
        return ticks / (double) ticksPerSecond;
    }

    /** A timestamp as seconds since the start of the measurement. */
    public double secondsSinceStart(long timestamp) {
        return (timestamp - globalOffset) / (double) ticksPerSecond;
    }

    /**
     * A timestamp for people: seconds since the start of the measurement and, in parentheses, the tick value that
     * {@code dump} prints, e.g. {@code 0.003004 s (t=3004)}. A timestamp before the start says so instead of
     * printing a negative time: {@code 0.5 s before the start (t=...)}.
     */
    public String describe(long timestamp) {
        long since = timestamp - globalOffset;
        // a corrupt timestamp far from the offset can overflow the difference: then only the tick value is honest
        if (((timestamp ^ globalOffset) & (timestamp ^ since)) < 0) {
            return "t=" + timestamp;
        }
        return since < 0 ? duration(-since) + " before the start (t=" + timestamp + ")"
                : duration(since) + " (t=" + timestamp + ")";
    }

    /**
     * A duration in seconds, to the timer's resolution: as many decimals as a tick needs (six for a microsecond
     * timer, nine for a nanosecond one), e.g. {@code 0.000000386 s}.
     */
    public String duration(long ticks) {
        int decimals = (int) Math.min(12, Math.ceil(Math.log10(ticksPerSecond) - 1e-9));
        return new java.math.BigDecimal(ticks).divide(java.math.BigDecimal.valueOf(ticksPerSecond), Math.max(0, decimals),
                java.math.RoundingMode.HALF_EVEN).toPlainString() + " s";
    }

    /** A nanosecond clock starting at 0, what the text format and the generator use by default. */
    public static Clock nanoseconds() {
        return new Clock(1_000_000_000L, 0, 0);
    }
}
