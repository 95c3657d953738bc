package dev.straggler.replay;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the marks the replay keeps for the root causes can fit in the heap, decided while the trace is read
 * rather than after: the marks of a large trace (one per communication record, and per OpenMP fork and barrier of a
 * thread) would fill the heap before the root-cause stage could say that it does not fit, and the analysis would
 * fail with an out-of-memory error instead of giving its wait states. The number of marks is projected from the
 * share of the trace's events read so far; once that share is large enough to be representative and the projection
 * times the heap the whole analysis needs per mark exceeds the heap, the locations replayed from then on keep no
 * marks, and the replay drops those already kept. With a scratch file, a projection that would not fit with the marks
 * on the heap but fits with them in the file ({@code spilledBytesPerMark}) keeps them: each location's marks then go
 * to the file once it is complete ({@link #spillMarks}), and later batches are judged at that figure. Thread-safe:
 * every reading thread reports its batches.
 *
 * <p>The trace's events come from its definitions where they declare them (a store). An OTF2 archive declares its
 * locations' event records instead, which also count records outside the model (metrics, for one); there the events
 * are estimated from the declared records and the ratio of events to records of the locations read whole so far, so
 * nothing is decided before the first location is complete.
 */
final class MarkBudget {
    /** The share of the trace's events read before the projection is trusted. */
    static final double TRUSTED_SHARE = 0.05;

    private final long heapBytes;
    private final long bytesPerMark;
    /** The heap per mark with the marks in the scratch file; 0: no such file. */
    private final long spilledBytesPerMark;
    private volatile boolean spillMarks;
    /** The declared events, or -1 when they are estimated from {@link #records}. */
    private final long declaredEvents;
    /** Per location, its declared records; null when the events are declared. */
    private final long[] records;
    private final long recordsTotal;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong marks = new AtomicLong();
    /** Of {@link #marks}, the OpenMP ones (they cost the stage more). */
    private final AtomicLong openMpMarks = new AtomicLong();
    private volatile long projectedOpenMpMarks = -1;
    /** Events and declared records of the locations read whole (records mode). */
    private long doneEvents;
    private long doneRecords;
    private volatile long estimatedEvents = -1;
    private volatile boolean exceeded;
    private volatile long projectedMarks = -1;
    private volatile double shareRead;

    /**
     * @param totalEvents  the trace's declared events
     * @param heapBytes    the heap the analysis may use
     * @param bytesPerMark the heap the analysis needs at least per mark kept, root-cause stage included
     */
    MarkBudget(long totalEvents, long heapBytes, long bytesPerMark) {
        this(totalEvents, heapBytes, bytesPerMark, 0);
    }

    /** @param spilledBytesPerMark the same with the marks in a scratch file (0: none) */
    MarkBudget(long totalEvents, long heapBytes, long bytesPerMark, long spilledBytesPerMark) {
        this(totalEvents, null, heapBytes, bytesPerMark, spilledBytesPerMark);
        if (totalEvents <= 0) {
            throw new IllegalArgumentException("events " + totalEvents + " must be positive");
        }
    }

    private MarkBudget(long totalEvents, long[] records, long heapBytes, long bytesPerMark, long spilledBytesPerMark) {
        if (heapBytes <= 0 || bytesPerMark <= 0 || spilledBytesPerMark < 0) {
            throw new IllegalArgumentException("heap " + heapBytes + ", bytes per mark " + bytesPerMark
                    + ", spilled " + spilledBytesPerMark + ": the first two must be positive");
        }
        this.spilledBytesPerMark = spilledBytesPerMark;
        this.declaredEvents = totalEvents;
        this.records = records;
        long sum = 0;
        if (records != null) {
            for (long r : records) {
                sum += Math.max(0, r);
            }
        }
        this.recordsTotal = sum;
        this.heapBytes = heapBytes;
        this.bytesPerMark = bytesPerMark;
    }

    /** A budget for a source that declares its locations' records, not their events (see the class comment). */
    static MarkBudget ofRecords(long[] declaredRecords, long heapBytes, long bytesPerMark) {
        return ofRecords(declaredRecords, heapBytes, bytesPerMark, 0);
    }

    static MarkBudget ofRecords(long[] declaredRecords, long heapBytes, long bytesPerMark, long spilledBytesPerMark) {
        return new MarkBudget(-1, declaredRecords.clone(), heapBytes, bytesPerMark, spilledBytesPerMark);
    }

    /** Counts the OpenMP marks of the next {@link #note}'s batch, before it. */
    void noteOpenMp(long batchOpenMpMarks) {
        openMpMarks.addAndGet(batchOpenMpMarks);
    }

    /** Counts a batch of {@code batchEvents} events that added {@code batchMarks} marks; true once exceeded. */
    boolean note(long batchEvents, long batchMarks) {
        long m = marks.addAndGet(batchMarks);
        long e = events.addAndGet(batchEvents);
        long total = declaredEvents > 0 ? declaredEvents : estimatedEvents;
        if (!exceeded && total > 0 && e >= TRUSTED_SHARE * total) {
            // m and e come from two counters: another thread's batch may sit in one and not yet the other, which
            // moves the projection by at most a batch
            long projected = (long) Math.ceil((double) m * total / e);
            if (!spillMarks && (double) projected * bytesPerMark > heapBytes && spilledBytesPerMark > 0
                    && (double) projected * spilledBytesPerMark <= heapBytes) {
                spillMarks = true;
            }
            if ((double) projected * (spillMarks ? spilledBytesPerMark : bytesPerMark) > heapBytes) {
                projectedOpenMpMarks = Math.min(projected, (long) Math.ceil((double) openMpMarks.get() * total / e));
                projectedMarks = projected;
                shareRead = Math.min(1.0, (double) e / total);
                exceeded = true;
            }
        }
        return exceeded;
    }

    /** Location {@code l} was read whole and delivered {@code locationEvents} events (refines the estimate). */
    synchronized void locationDone(int l, long locationEvents) {
        if (records == null || l >= records.length || records[l] <= 0) {
            return;
        }
        doneEvents += locationEvents;
        doneRecords += records[l];
        estimatedEvents = (long) Math.ceil((double) recordsTotal * doneEvents / doneRecords);
    }

    boolean exceeded() {
        return exceeded;
    }

    /** True once the marks fit only in the scratch file: complete locations move theirs there. */
    boolean spillMarks() {
        return spillMarks;
    }

    /** The marks projected for the whole trace when the budget was exceeded, -1 while it is not. */
    long projectedMarks() {
        return projectedMarks;
    }

    /** Of {@link #projectedMarks}, the OpenMP ones, -1 while the budget is not exceeded. */
    long projectedOpenMpMarks() {
        return projectedOpenMpMarks;
    }

    /** The share of the trace's events read when the budget was exceeded. */
    double shareRead() {
        return shareRead;
    }
}
