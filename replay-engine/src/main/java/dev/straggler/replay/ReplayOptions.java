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
 * @param bytesPerMark with {@code intervals}: the heap the analysis needs at least per mark kept, root-cause stage
 *                  included; when the marks projected from the part of the trace read so far would need more than
 *                  {@code markHeap}, the replay keeps none ({@link Replay#marksDropped}). 0: no limit
 * @param markHeap  the heap the marks are budgeted against (the JVM's maximum heap by default)
 * @param spill     the scratch file for point-to-point records beyond {@code recordHeap} and for marks that would not
 *                  fit on the heap; null: everything stays on the heap
 * @param recordHeap bytes of point-to-point rows that may stay on the heap; once the locations replayed so far hold
 *                  that many, each location replayed from then on moves its rows to {@code spill} as soon as it is
 *                  complete ({@link LocationData#spillMessageRecords})
 * @param spilledBytesPerMark with {@code intervals} and {@code spill}: the heap the analysis needs per mark when the
 *                  marks wait in {@code spill}; when the projected marks would not fit at {@code bytesPerMark} but fit
 *                  at this, the replay keeps them and moves each location's to {@code spill} once it is complete
 *                  ({@link CallPathIntervals#spillMarks}). 0: marks stay on the heap or are dropped
 */
public record ReplayOptions(int threads, ProgressListener progress, Reading reading, int batchSize,
                            boolean intervals, long bytesPerMark, long markHeap, SpillFile spill,
                            long recordHeap, long spilledBytesPerMark) {
    public ReplayOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1: " + batchSize);
        }
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(reading, "reading");
        if (bytesPerMark < 0 || markHeap <= 0) {
            throw new IllegalArgumentException("bytesPerMark must be >= 0 and markHeap > 0: " + bytesPerMark + ", "
                    + markHeap);
        }
        if (recordHeap < 0 || spilledBytesPerMark < 0) {
            throw new IllegalArgumentException("recordHeap and spilledBytesPerMark must be >= 0: " + recordHeap + ", "
                    + spilledBytesPerMark);
        }
    }

    public static ReplayOptions defaults() {
        return new ReplayOptions(Runtime.getRuntime().availableProcessors(), ProgressListener.NONE, Reading.AUTO,
                65536, false, 0, Runtime.getRuntime().maxMemory(), null, Long.MAX_VALUE, 0);
    }

    public ReplayOptions withThreads(int n) {
        return new ReplayOptions(n, progress, reading, batchSize, intervals, bytesPerMark, markHeap, spill, recordHeap,
                spilledBytesPerMark);
    }

    public ReplayOptions withProgress(ProgressListener p) {
        return new ReplayOptions(threads, p, reading, batchSize, intervals, bytesPerMark, markHeap, spill, recordHeap,
                spilledBytesPerMark);
    }

    public ReplayOptions withReading(Reading r) {
        return new ReplayOptions(threads, progress, r, batchSize, intervals, bytesPerMark, markHeap, spill, recordHeap,
                spilledBytesPerMark);
    }

    public ReplayOptions withIntervals(boolean on) {
        return new ReplayOptions(threads, progress, reading, batchSize, on, bytesPerMark, markHeap, spill, recordHeap,
                spilledBytesPerMark);
    }

    /**
     * Budgets the marks kept for the root causes: {@code bytesPerMark} of heap each, against {@code heap} bytes
     * (see the record's parameters).
     */
    public ReplayOptions withMarkBudget(long bytesPerMark, long heap) {
        return withMarkBudget(bytesPerMark, 0, heap);
    }

    /**
     * As {@link #withMarkBudget(long, long)}, with {@code spilledBytesPerMark} of heap each for marks that wait in the
     * scratch file ({@link #withSpill}); see the record's parameters.
     */
    public ReplayOptions withMarkBudget(long bytesPerMark, long spilledBytesPerMark, long heap) {
        return new ReplayOptions(threads, progress, reading, batchSize, intervals, bytesPerMark, heap, spill,
                recordHeap, spilledBytesPerMark);
    }

    /**
     * The scratch file {@code file}: at most {@code recordHeapBytes} of point-to-point rows stay on the heap, the rest
     * and marks that would not fit there go to it (see the record's parameters).
     */
    public ReplayOptions withSpill(SpillFile file, long recordHeapBytes) {
        return new ReplayOptions(threads, progress, reading, batchSize, intervals, bytesPerMark, markHeap, file,
                recordHeapBytes, spilledBytesPerMark);
    }

    /** {@link Reading#PIPELINED} or {@link Reading#DIRECT}. */
    public ReplayOptions withPipelined(boolean p) {
        return withReading(p ? Reading.PIPELINED : Reading.DIRECT);
    }
}
