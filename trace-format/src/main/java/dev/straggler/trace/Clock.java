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

    /** A nanosecond clock starting at 0, what the text format and the generator use by default. */
    public static Clock nanoseconds() {
        return new Clock(1_000_000_000L, 0, 0);
    }
}
