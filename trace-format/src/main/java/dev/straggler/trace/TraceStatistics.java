package dev.straggler.trace;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Counts over a whole trace, gathered in one parallel pass over the locations: events by kind, the time span,
 * collectives by operation, point-to-point messages and bytes.
 *
 * @param eventsByKind  events per {@link EventKind} (index = kind code)
 * @param collectivesByOp collective operations completed, per {@link CollectiveOp} code, counted once per location
 * @param firstTime     earliest event time over all locations (ticks), Long.MAX_VALUE when there are no events
 * @param lastTime      latest event time over all locations (ticks), Long.MIN_VALUE when there are no events
 * @param messagesSent  MPI_SEND + MPI_ISEND records
 * @param bytesSent     their message lengths summed
 * @param eventsPerLocation events of each location, in location order
 */
public record TraceStatistics(long[] eventsByKind, long[] collectivesByOp, long firstTime, long lastTime,
                              long messagesSent, long bytesSent, long[] eventsPerLocation) {

    public long totalEvents() {
        long n = 0;
        for (long v : eventsByKind) {
            n += v;
        }
        return n;
    }

    /** Event counts by kind name, kinds without events left out. */
    public Map<String, Long> eventsByKindName() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int k = 0; k < eventsByKind.length; k++) {
            if (eventsByKind[k] > 0) {
                m.put(EventKind.of(k).name(), eventsByKind[k]);
            }
        }
        return m;
    }

    public Map<String, Long> collectivesByOpName() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int k = 0; k < collectivesByOp.length; k++) {
            if (collectivesByOp[k] > 0) {
                m.put(CollectiveOp.of(k).name(), collectivesByOp[k]);
            }
        }
        return m;
    }

    /**
     * Scans every location.
     * @param progress receives the number of events of each finished batch (may be called from several threads)
     */
    public static TraceStatistics compute(TraceSource trace, LongConsumer progress) throws IOException {
        int n = trace.definitions().locations().size();
        long[][] kinds = new long[n][EventKind.COUNT];
        long[][] ops = new long[n][CollectiveOp.values().length];
        long[] first = new long[n];
        long[] last = new long[n];
        long[] msgs = new long[n];
        long[] bytes = new long[n];
        long[] perLoc = new long[n];
        ParallelLocations.forEach(n, l -> {
                first[l] = Long.MAX_VALUE;
                last[l] = Long.MIN_VALUE;
                EventBatch b = new EventBatch(8192);
                try (LocationReader r = trace.openLocation(l)) {
                    while (r.next(b)) {
                        for (int i = 0; i < b.size; i++) {
                            byte k = b.kind[i];
                            kinds[l][k]++;
                            if (k == EventKind.MPI_COLLECTIVE_END_CODE && CollectiveOp.isValidCode(b.ref[i])) {
                                ops[l][b.ref[i]]++;
                            } else if (k == EventKind.MPI_SEND_CODE || k == EventKind.MPI_ISEND_CODE) {
                                msgs[l]++;
                                bytes[l] += b.bytes[i];
                            }
                        }
                        if (b.size > 0) {
                            first[l] = Math.min(first[l], b.time[0]);
                            last[l] = Math.max(last[l], b.time[b.size - 1]);
                        }
                        perLoc[l] += b.size;
                        progress.accept(b.size);
                    }
                }
            });
        long[] k = new long[EventKind.COUNT];
        long[] o = new long[CollectiveOp.values().length];
        long f = Long.MAX_VALUE;
        long la = Long.MIN_VALUE;
        long m = 0;
        long by = 0;
        for (int l = 0; l < n; l++) {
            for (int i = 0; i < k.length; i++) {
                k[i] += kinds[l][i];
            }
            for (int i = 0; i < o.length; i++) {
                o[i] += ops[l][i];
            }
            f = Math.min(f, first[l]);
            la = Math.max(la, last[l]);
            m += msgs[l];
            by += bytes[l];
        }
        return new TraceStatistics(k, o, f, la, m, by, perLoc);
    }
}
