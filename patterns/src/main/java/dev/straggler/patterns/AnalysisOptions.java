package dev.straggler.patterns;

import dev.straggler.replay.ProgressListener;

import java.util.Objects;

/**
 * How to run an analysis.
 *
 * @param threads      worker threads (locations are replayed and analysed in parallel); results do not depend on it
 * @param progress     receives progress updates, from worker threads
 * @param topInstances most severe occurrences kept per pattern, on distinct call paths (Scalasca keeps 5)
 * @param pipelined    read each location on a separate decoding thread ({@link dev.straggler.replay.PipelinedReader})
 */
public record AnalysisOptions(int threads, ProgressListener progress, int topInstances, boolean pipelined) {
    public AnalysisOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (topInstances < 0) {
            throw new IllegalArgumentException("topInstances must be >= 0: " + topInstances);
        }
        Objects.requireNonNull(progress, "progress");
    }

    /** All available cores, no progress output, 5 instances per pattern, direct reading. */
    public static AnalysisOptions defaults() {
        return new AnalysisOptions(Runtime.getRuntime().availableProcessors(), ProgressListener.NONE, 5, false);
    }

    public AnalysisOptions withThreads(int n) {
        return new AnalysisOptions(n, progress, topInstances, pipelined);
    }

    public AnalysisOptions withProgress(ProgressListener p) {
        return new AnalysisOptions(threads, p, topInstances, pipelined);
    }

    public AnalysisOptions withPipelined(boolean p) {
        return new AnalysisOptions(threads, progress, topInstances, p);
    }
}
