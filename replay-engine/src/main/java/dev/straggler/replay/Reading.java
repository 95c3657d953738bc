package dev.straggler.replay;

/**
 * How each location's stream is read during the replay.
 *
 * <p>Measured with {@code AnalyzeBenchmark} (10^8 events, 16 ranks, 2 cores): with one replay thread the
 * pipelined reading is 27 % (store) and 31 % (OTF2) faster, because decoding moves to the idle core; with every
 * core replaying it gains nothing or loses (+6 % store, −9 % OTF2). {@link #AUTO} therefore pipelines only
 * when each replay thread can have a core of its own for decoding.
 */
public enum Reading {
    /** The replay thread reads its location itself. */
    DIRECT,
    /** A decoding thread per location hands batches to the replay thread over a Disruptor ring. */
    PIPELINED,
    /** {@link #PIPELINED} when twice the busy replay threads fit in the available cores, else {@link #DIRECT}. */
    AUTO;

    /** Whether to pipeline for this many replay threads and locations on this many cores. */
    public boolean pipelines(int threads, int locations, int cores) {
        return switch (this) {
            case DIRECT -> false;
            case PIPELINED -> true;
            case AUTO -> 2 * Math.max(1, Math.min(threads, locations)) <= cores;
        };
    }
}
