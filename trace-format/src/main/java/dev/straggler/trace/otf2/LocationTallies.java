package dev.straggler.trace.otf2;

import dev.straggler.trace.EventKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the readers of an archive counted, per location, once each location was read to its end: event records by
 * OTF2 type, delivered events by model kind, attribute lists, first and last timestamp. Reading a location again
 * records the same values again. Thread-safe.
 */
final class LocationTallies {
    private final long[][] records;
    private final long[][] kinds;
    private final long[] attributeLists;
    private final long[] delivered;
    private final long[] first;
    private final long[] last;
    private int complete;

    LocationTallies(int locations) {
        records = new long[locations][];
        kinds = new long[locations][];
        attributeLists = new long[locations];
        delivered = new long[locations];
        first = new long[locations];
        last = new long[locations];
    }

    synchronized void record(int location, EventDecoder d, long deliveredEvents) {
        if (records[location] == null) {
            complete++;
        }
        records[location] = d.counts.clone();
        kinds[location] = d.kinds.clone();
        attributeLists[location] = d.attributeLists;
        delivered[location] = deliveredEvents;
        first[location] = d.firstTime;
        last[location] = d.firstTime < 0 ? -1 : d.time;
    }

    /** Number of locations read to their end; grows monotonically. */
    synchronized int complete() {
        return complete;
    }

    synchronized boolean all() {
        return complete == records.length;
    }

    synchronized boolean has(int location) {
        return records[location] != null;
    }

    synchronized long delivered(int location) {
        return delivered[location];
    }

    synchronized long deliveredTotal() {
        long s = 0;
        for (long d : delivered) {
            s += d;
        }
        return s;
    }

    /** Event records by type id of a location read to its end; null before. */
    synchronized long[] records(int location) {
        return records[location] == null ? null : records[location].clone();
    }

    synchronized long attributeLists(int location) {
        return attributeLists[location];
    }

    synchronized long attributeListsTotal() {
        long s = 0;
        for (long a : attributeLists) {
            s += a;
        }
        return s;
    }

    /** Event records outside the model, by otf2-print name, most frequent first, over the locations read. */
    synchronized Map<String, Long> skipped() {
        return skipped(recordSum());
    }

    private long[] recordSum() {
        long[] sum = new long[256];
        for (long[] c : records) {
            if (c != null) {
                for (int t = 0; t < 256; t++) {
                    sum[t] += c[t];
                }
            }
        }
        return sum;
    }

    private static Map<String, Long> skipped(long[] sum) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int t : sortedByCount(sum)) {
            if (!Otf2Format.isModelEvent(t)) {
                m.put(Otf2Format.eventName(t), sum[t]);
            }
        }
        return m;
    }

    /** The statistics of a fully read archive. */
    synchronized Otf2Statistics statistics(List<Otf2Warning> warnings) {
        int n = records.length;
        long[] sum = recordSum();
        long[] perLocation = new long[n];
        long firstTime = Long.MAX_VALUE;
        long lastTime = -1;
        long[] kindSum = new long[EventKind.COUNT];
        for (int i = 0; i < n; i++) {
            for (long c : records[i]) {
                perLocation[i] += c;
            }
            for (int k = 0; k < kindSum.length; k++) {
                kindSum[k] += kinds[i][k];
            }
            if (first[i] >= 0) {
                firstTime = Math.min(firstTime, first[i]);
                lastTime = Math.max(lastTime, last[i]);
            }
        }
        Map<String, Long> byRecord = new LinkedHashMap<>();
        long total = 0;
        for (int t : sortedByCount(sum)) {
            byRecord.put(Otf2Format.eventName(t), sum[t]);
            total += sum[t];
        }
        Map<String, Long> byKind = new LinkedHashMap<>();
        for (EventKind k : EventKind.values()) {
            if (kindSum[k.code()] > 0) {
                byKind.put(k.name(), kindSum[k.code()]);
            }
        }
        return new Otf2Statistics(total, byRecord, byKind, skipped(sum), attributeListsTotal(), perLocation,
                firstTime == Long.MAX_VALUE ? -1 : firstTime, lastTime, warnings);
    }

    private static List<Integer> sortedByCount(long[] counts) {
        List<Integer> types = new ArrayList<>();
        for (int t = 0; t < counts.length; t++) {
            if (counts[t] > 0) {
                types.add(t);
            }
        }
        types.sort((a, b) -> counts[a] != counts[b] ? Long.compare(counts[b], counts[a])
                : Otf2Format.eventName(a).compareTo(Otf2Format.eventName(b)));
        return types;
    }
}
