package dev.straggler.patterns.reduce;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceWriter;
import dev.straggler.trace.filter.FilteredTrace;
import dev.straggler.trace.filter.RegionFilter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongConsumer;
import java.util.stream.IntStream;

/**
 * Writes a trace without the ENTER/LEAVE events of the regions a filter excludes (the semantics of
 * {@link FilteredTrace}: MPI regions are never dropped, records inside a dropped region stay with its caller) and
 * counts events and OTF2 bytes ({@link RecordSizes}) before and after, so the estimate of a
 * {@link ReductionPlan} can be checked against what was written. Locations are written in parallel.
 */
public final class TraceReducer {

    /**
     * Events and OTF2 event-file bytes of the input and of the written trace, counted as
     * {@link TraceProfiler} counts them (records, timestamp records and file framing per location).
     *
     * @param regionsExcluded region definitions the filter excludes (defined, whether visited or not)
     */
    public record Result(long eventsBefore, long eventsAfter, long bytesBefore, long bytesAfter, int regionsExcluded) {
    }

    private TraceReducer() {
    }

    /**
     * Streams {@code source} through the filter into {@code out} and finishes it with the unchanged definitions
     * (dropped regions stay defined, never entered); does not close {@code out}.
     *
     * @param progress receives the number of input events read, from any thread (may be null)
     */
    public static Result write(TraceSource source, RegionFilter filter, TraceWriter out, LongConsumer progress)
            throws IOException {
        FilteredTrace view = new FilteredTrace(source, filter);
        TraceDefinitions defs = source.definitions();
        int n = defs.locations().size();
        int regions = defs.regions().size();
        boolean[] drop = new boolean[regions];
        for (int r = 0; r < regions; r++) {
            drop[r] = view.excluded(r);
        }
        AtomicLongArray counts = new AtomicLongArray(4);
        try {
            IntStream.range(0, n).parallel().forEach(l -> {
                try {
                    copy(source, l, drop, out, counts, progress);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        out.finish(defs);
        return new Result(counts.get(0), counts.get(1), counts.get(2), counts.get(3), view.excludedRegions());
    }

    private static void copy(TraceSource source, int location, boolean[] drop, TraceWriter out, AtomicLongArray counts,
                             LongConsumer progress) throws IOException {
        EventBatch in = new EventBatch(8192);
        EventBatch kept = new EventBatch(8192);
        long evIn = 0;
        long evOut = 0;
        long byIn = RecordSizes.FILE_FRAMING;
        long byOut = RecordSizes.FILE_FRAMING;
        long lastIn = Long.MIN_VALUE;
        long lastOut = Long.MIN_VALUE;
        try (LocationReader r = source.openLocation(location)) {
            while (r.next(in)) {
                kept.clear();
                for (int i = 0; i < in.size; i++) {
                    byte k = in.kind[i];
                    long t = in.time[i];
                    int size = RecordSizes.record(k, in.ref[i], in.comm[i], in.tag[i], in.bytes[i], in.aux[i]);
                    byIn += size + (t != lastIn ? RecordSizes.TIMESTAMP : 0);
                    lastIn = t;
                    int ref = in.ref[i];
                    if ((k == EventKind.ENTER_CODE || k == EventKind.LEAVE_CODE) && ref >= 0 && ref < drop.length && drop[ref]) {
                        continue;
                    }
                    byOut += size + (t != lastOut ? RecordSizes.TIMESTAMP : 0);
                    lastOut = t;
                    kept.add(t, k, ref, in.comm[i], in.tag[i], in.bytes[i], in.aux[i]);
                }
                evIn += in.size;
                evOut += kept.size;
                if (kept.size > 0) {
                    out.append(location, kept);
                }
                if (progress != null) {
                    progress.accept(in.size);
                }
            }
        }
        counts.addAndGet(0, evIn);
        counts.addAndGet(1, evOut);
        counts.addAndGet(2, byIn);
        counts.addAndGet(3, byOut);
    }
}
