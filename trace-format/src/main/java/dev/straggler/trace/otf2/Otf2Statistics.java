package dev.straggler.trace.otf2;

import dev.straggler.trace.EventKind;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts from one pass over every event file of an archive ({@link Otf2Archive#scanStatistics()}).
 *
 * @param events            event records in all, counted as otf2-print counts them (every record type)
 * @param eventsByRecord    event records by otf2-print name, most frequent first
 * @param eventsByKind      the records delivered to Straggler's model, by {@link EventKind} name
 * @param skippedRecords    event records outside the model (OpenMP, threads, RMA, I/O, metrics, OTF2 3
 *                          non-blocking collectives and communicator creation, ...), by name: read past, never
 *                          delivered
 * @param attributeLists    attribute lists read past (attached to events; not event records)
 * @param eventsPerLocation event records per location, indexed like {@code definitions().locations()}
 * @param firstTimestamp    earliest (clock-corrected) timestamp, -1 without events
 * @param lastTimestamp     latest (clock-corrected) timestamp, -1 without events
 * @param warnings          what lenient reading skipped
 */
public record Otf2Statistics(long events, Map<String, Long> eventsByRecord, Map<String, Long> eventsByKind,
                             Map<String, Long> skippedRecords, long attributeLists, long[] eventsPerLocation, long firstTimestamp,
                             long lastTimestamp, List<Otf2Warning> warnings) {

    public Otf2Statistics {
        eventsByRecord = Collections.unmodifiableMap(new LinkedHashMap<>(eventsByRecord));
        eventsByKind = Collections.unmodifiableMap(new LinkedHashMap<>(eventsByKind));
        skippedRecords = Collections.unmodifiableMap(new LinkedHashMap<>(skippedRecords));
        eventsPerLocation = eventsPerLocation.clone();
        warnings = List.copyOf(warnings);
    }

    /** Event records delivered to the model. */
    public long modelEvents() {
        return eventsByKind.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Event records read past because the model does not carry them. */
    public long skippedEvents() {
        return events - modelEvents();
    }

    public long count(EventKind kind) {
        return eventsByKind.getOrDefault(kind.name(), 0L);
    }

    public long count(String otf2RecordName) {
        return eventsByRecord.getOrDefault(otf2RecordName, 0L);
    }
}
