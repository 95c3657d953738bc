package dev.straggler.trace;

import java.io.IOException;

/**
 * A trace that can be read location by location, independently and in parallel: an Arrow store, an OTF2
 * archive, a parsed text trace or an in-memory trace.
 *
 * <p>{@link #definitions()} is available at once. {@link #openLocation(int)} may be called from several threads
 * at the same time for different locations. Closing the source releases what its readers share; readers
 * must be closed first.
 */
public interface TraceSource extends AutoCloseable {

    TraceDefinitions definitions();

    /** Where the trace came from, for messages (a path, or a description). */
    String origin();

    /** @throws IndexOutOfBoundsException for a location index that does not exist */
    LocationReader openLocation(int location) throws IOException;

    /**
     * Reads a location whole for a replay of its call stack: the same events as {@link #openLocation(int)}, with
     * their time, kind, ref and aux; comm, tag and bytes may be zero. A source whose columns decode separately (the
     * store) skips those three; this default reads everything.
     */
    default LocationReader openCallStack(int location) throws IOException {
        return openLocation(location);
    }

    /**
     * Reads a location from its first event with time {@code >= fromTick} (with equal timestamps, the first of
     * them; events of a location are in time order). {@link EventBatch#firstIndex} still counts from the
     * location's start and {@link LocationReader#openRegions()} gives the regions open at that event.
     *
     * <p>This default reads the location from its start and drops the earlier events, so every source supports
     * it; a source that can do better without decoding what precedes (the store, by its per-batch time index)
     * overrides it and says so in {@link #seeksWithoutScanning()}.
     */
    default LocationReader openLocation(int location, long fromTick) throws IOException {
        return new TimeSkippingReader(openLocation(location), fromTick);
    }

    /**
     * True when {@link #openLocation(int, long)} and its {@link LocationReader#openRegions()} read only a bounded
     * part of the location before the seek point (not the events from its start); false for the default.
     */
    default boolean seeksWithoutScanning() {
        return false;
    }

    /** Reads one location whole into a single batch (replay-ready primitive arrays). */
    default EventBatch readLocation(int location) throws IOException {
        EventBatch all = new EventBatch(1024);
        EventBatch part = new EventBatch(1024);
        try (LocationReader r = openLocation(location)) {
            while (r.next(part)) {
                all.addAll(part, 0, part.size);
            }
        }
        return all;
    }

    /** Total number of events, summed from what the source declares or counts. */
    default long eventCount() throws IOException {
        long n = 0;
        for (Location l : definitions().locations()) {
            n += l.events() >= 0 ? l.events() : readLocation(l.index()).size;
        }
        return n;
    }

    /**
     * Per location, the records the source declares it holds in its own units (an OTF2 location's event records,
     * which also count records outside the model; see {@link LocationReader#recordsRead}), for estimating the events
     * of a source that does not declare them ({@link Location#events}); null when it declares none.
     */
    default long[] declaredRecords() {
        return null;
    }

    /**
     * Why an analysis of this source is partial: what a lenient read skipped or dropped, one short sentence each;
     * empty for a source read whole.
     */
    default java.util.List<String> partialReasons() {
        return java.util.List.of();
    }

    @Override
    void close() throws IOException;
}
