package dev.straggler.replay;

import java.util.Objects;

/**
 * How to run the replay.
 *
 * @param threads    worker threads for the per-location passes (each location is read by one thread)
 * @param progress   receives progress updates
 * @param pipelined  when true each worker reads its location on a second thread that hands batches over a
 *                   Disruptor ring ({@link PipelinedReader}); see the benchmark for when this pays
 * @param batchSize  events per batch requested from the readers
 */
public record ReplayOptions(int threads, ProgressListener progress, boolean pipelined, int batchSize) {
    public ReplayOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1: " + batchSize);
        }
        Objects.requireNonNull(progress, "progress");
    }

    public static ReplayOptions defaults() {
        return new ReplayOptions(Runtime.getRuntime().availableProcessors(), ProgressListener.NONE, false, 65536);
    }

    public ReplayOptions withThreads(int n) {
        return new ReplayOptions(n, progress, pipelined, batchSize);
    }

    public ReplayOptions withProgress(ProgressListener p) {
        return new ReplayOptions(threads, p, pipelined, batchSize);
    }

    public ReplayOptions withPipelined(boolean p) {
        return new ReplayOptions(threads, progress, p, batchSize);
    }
}
