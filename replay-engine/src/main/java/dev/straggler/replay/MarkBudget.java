package dev.straggler.replay;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the marks the replay keeps for the root causes can fit in the heap, decided while the trace is read
 * rather than after: the marks of a large trace (one per communication record, and per OpenMP fork and barrier of a
 * thread) would fill the heap before the root-cause stage could say that it does not fit, and the analysis would
 * fail with an out-of-memory error instead of giving its wait states. The number of marks is projected from the
 * share of the trace's events read so far (the events per location are declared in the definitions); once that
 * share is large enough to be representative and the projection times the heap the whole analysis needs per mark
 * exceeds the heap, the locations replayed from then on keep no marks, and the replay drops those already kept.
 * Thread-safe: every reading thread reports its batches.
 */
final class MarkBudget {
    /** The share of the trace's events read before the projection is trusted. */
    static final double TRUSTED_SHARE = 0.05;

    private final long totalEvents;
    private final long heapBytes;
    private final long bytesPerMark;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong marks = new AtomicLong();
    private volatile boolean exceeded;
    private volatile long projectedMarks = -1;
    private volatile double shareRead;

    /**
     * @param totalEvents  the trace's declared events
     * @param heapBytes    the heap the analysis may use
     * @param bytesPerMark the heap the analysis needs at least per mark kept, root-cause stage included
     */
    MarkBudget(long totalEvents, long heapBytes, long bytesPerMark) {
        if (totalEvents <= 0 || heapBytes <= 0 || bytesPerMark <= 0) {
            throw new IllegalArgumentException("events " + totalEvents + ", heap " + heapBytes + ", bytes per mark "
                    + bytesPerMark + ": all must be positive");
        }
        this.totalEvents = totalEvents;
        this.heapBytes = heapBytes;
        this.bytesPerMark = bytesPerMark;
    }

    /** Counts a batch of {@code batchEvents} events that added {@code batchMarks} marks; true once exceeded. */
    boolean note(long batchEvents, long batchMarks) {
        long m = marks.addAndGet(batchMarks);
        long e = events.addAndGet(batchEvents);
        if (!exceeded && e >= TRUSTED_SHARE * totalEvents) {
            // m and e come from two counters: another thread's batch may sit in one and not yet the other, which
            // moves the projection by at most a batch
            long projected = (long) Math.ceil((double) m * totalEvents / e);
            if ((double) projected * bytesPerMark > heapBytes) {
                projectedMarks = projected;
                shareRead = (double) e / totalEvents;
                exceeded = true;
            }
        }
        return exceeded;
    }

    boolean exceeded() {
        return exceeded;
    }

    /** The marks projected for the whole trace when the budget was exceeded, -1 while it is not. */
    long projectedMarks() {
        return projectedMarks;
    }

    /** The share of the trace's events read when the budget was exceeded. */
    double shareRead() {
        return shareRead;
    }
}
