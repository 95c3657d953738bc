package dev.straggler.patterns;

import dev.straggler.replay.ProgressListener;
import dev.straggler.replay.Reading;

import java.util.Objects;

/**
 * How to run an analysis.
 *
 * @param threads      worker threads (locations are replayed and analysed in parallel); results do not depend on it
 * @param progress     receives progress updates, from worker threads
 * @param topInstances most severe occurrences kept per pattern, on distinct call paths (Scalasca keeps 5)
 * @param reading      how locations are read: directly, or pipelined through a decoding thread
 *                     ({@link dev.straggler.replay.PipelinedReader}); {@link Reading#AUTO} pipelines when cores are
 *                     left over
 * @param rootCauses   whether the root-cause stage runs (delay costs, wait-state propagation, critical path);
 *                     off in {@link #defaults()}, on in the command line's {@code analyze}; it takes about three
 *                     times the time of the wait-state analysis and several times its memory (docs/root-causes.md,
 *                     "Cost")
 * @param heapBudget   the heap the root-cause stage's memory is budgeted against, in bytes: a trace whose marks
 *                     would not fit keeps its wait states and says why its root causes are missing (the JVM's
 *                     maximum heap by default; smaller to leave room for other work in the same JVM)
 * @param recordHeap   bytes of point-to-point records kept on the heap; the records beyond go to a scratch file as
 *                     their locations complete, and read the same ({@code ReplayOptions.recordHeap}).
 *                     {@link #DEFAULT_RECORD_HEAP}: an eighth of {@code heapBudget} ({@link #recordHeapBytes})
 */
public record AnalysisOptions(int threads, ProgressListener progress, int topInstances, Reading reading,
                              boolean rootCauses, long heapBudget, long recordHeap) {
    /**
     * {@code recordHeap} for an eighth of the heap budget: on a machine of 24 GiB (a heap of 17.7) the records of
     * about 1.5·10^8 events stay on the heap, and the 11 GB of records of 10^9 events mostly go to the scratch file.
     */
    public static final long DEFAULT_RECORD_HEAP = -1;

    /**
     * {@code topInstances} that keeps every occurrence of every pattern instead of the most severe per call path
     * (one record each: memory grows with the number of wait states found).
     */
    public static final int ALL_INSTANCES = Integer.MAX_VALUE;

    public AnalysisOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (topInstances < 0) {
            throw new IllegalArgumentException("topInstances must be >= 0: " + topInstances);
        }
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(reading, "reading");
        if (heapBudget <= 0) {
            throw new IllegalArgumentException("heapBudget must be > 0: " + heapBudget);
        }
        if (recordHeap < 0 && recordHeap != DEFAULT_RECORD_HEAP) {
            throw new IllegalArgumentException("recordHeap must be >= 0: " + recordHeap);
        }
    }

    /** The bytes of point-to-point records kept on the heap ({@code recordHeap} resolved). */
    public long recordHeapBytes() {
        return recordHeap == DEFAULT_RECORD_HEAP ? heapBudget / 8 : recordHeap;
    }

    /** All available cores, no progress output, 5 instances per pattern, automatic reading, no root causes. */
    public static AnalysisOptions defaults() {
        return new AnalysisOptions(Runtime.getRuntime().availableProcessors(), ProgressListener.NONE, 5,
                Reading.AUTO, false, Runtime.getRuntime().maxMemory(),
                DEFAULT_RECORD_HEAP);
    }

    public AnalysisOptions withThreads(int n) {
        return new AnalysisOptions(n, progress, topInstances, reading, rootCauses, heapBudget, recordHeap);
    }

    public AnalysisOptions withProgress(ProgressListener p) {
        return new AnalysisOptions(threads, p, topInstances, reading, rootCauses, heapBudget, recordHeap);
    }

    public AnalysisOptions withReading(Reading r) {
        return new AnalysisOptions(threads, progress, topInstances, r, rootCauses, heapBudget, recordHeap);
    }

    public AnalysisOptions withTopInstances(int n) {
        return new AnalysisOptions(threads, progress, n, reading, rootCauses, heapBudget, recordHeap);
    }

    public AnalysisOptions withRootCauses(boolean on) {
        return new AnalysisOptions(threads, progress, topInstances, reading, on, heapBudget, recordHeap);
    }

    public AnalysisOptions withHeapBudget(long bytes) {
        return new AnalysisOptions(threads, progress, topInstances, reading, rootCauses, bytes, recordHeap);
    }

    /** Keeps at most {@code bytes} of point-to-point records on the heap (0: every full unit to the scratch file). */
    public AnalysisOptions withRecordHeap(long bytes) {
        return new AnalysisOptions(threads, progress, topInstances, reading, rootCauses, heapBudget, bytes);
    }

    /** {@link Reading#PIPELINED} or {@link Reading#DIRECT}. */
    public AnalysisOptions withPipelined(boolean p) {
        return withReading(p ? Reading.PIPELINED : Reading.DIRECT);
    }
}
