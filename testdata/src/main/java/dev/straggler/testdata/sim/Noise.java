package dev.straggler.testdata.sim;

/**
 * Seeded, stateless noise: the perturbation of a duration is a hash of (seed, rank, stream, index), so the
 * simulator and a scenario's closed-form expectations draw the same value without sharing a random generator,
 * and the result does not depend on the order in which ranks are simulated.
 */
public final class Noise {
    private Noise() {
    }

    /** A uniform value in [0, 1) determined by its arguments (SplitMix64 finalisers). */
    public static double uniform(long seed, int rank, int stream, long index) {
        long z = mix(seed ^ 0x9E3779B97F4A7C15L);
        z = mix(z ^ rank * 0xBF58476D1CE4E5B9L);
        z = mix(z ^ stream * 0x94D049BB133111EBL);
        z = mix(z ^ index);
        return (z >>> 11) * 0x1.0p-53;
    }

    /**
     * {@code ticks} scaled by a factor uniform in [1 - amplitude, 1 + amplitude), rounded down; 0 amplitude
     * returns {@code ticks} unchanged.
     */
    public static long jitter(long ticks, double amplitude, long seed, int rank, int stream, long index) {
        if (amplitude == 0 || ticks == 0) {
            return ticks;
        }
        double f = 1 + amplitude * (2 * uniform(seed, rank, stream, index) - 1);
        return Math.max(0, (long) Math.floor(ticks * f));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
