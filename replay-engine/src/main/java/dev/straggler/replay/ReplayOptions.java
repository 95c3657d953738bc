package dev.straggler.replay;

import java.util.Objects;

/**
 * How to run the replay.
 *
 * @param threads   worker threads for the per-location passes (each location is read by one thread)
 * @param progress  receives progress updates
 * @param reading   direct, pipelined over a Disruptor ring ({@link PipelinedReader}), or chosen automatically
 * @param batchSize events per batch requested from the readers
 * @param intervals keep every master location's marks and call-path intervals ({@link CallPathIntervals}) for
 *                  the root-cause analysis; off, the replay keeps only communication records and profiles
 */
public record ReplayOptions(int threads, ProgressListener progress, Reading reading, int batchSize,
                            boolean intervals) {
    public ReplayOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1: " + batchSize);
        }
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(reading, "reading");
    }

    public static ReplayOptions defaults() {
        return new ReplayOptions(Runtime.getRuntime().availableProcessors(), ProgressListener.NONE, Reading.AUTO,
                65536, false);
    }

    public ReplayOptions withThreads(int n) {
        return new ReplayOptions(n, progress, reading, batchSize, intervals);
    }

    public ReplayOptions withProgress(ProgressListener p) {
        return new ReplayOptions(threads, p, reading, batchSize, intervals);
    }

    public ReplayOptions withReading(Reading r) {
        return new ReplayOptions(threads, progress, r, batchSize, intervals);
    }

    public ReplayOptions withIntervals(boolean on) {
        return new ReplayOptions(threads, progress, reading, batchSize, on);
    }

    /** {@link Reading#PIPELINED} or {@link Reading#DIRECT}. */
    public ReplayOptions withPipelined(boolean p) {
        return withReading(p ? Reading.PIPELINED : Reading.DIRECT);
    }
}
