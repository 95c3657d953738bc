package dev.straggler.trace;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A trace held in memory, one {@link EventBatch} per location. Used for hand-written and small generated traces,
 * and as the target of the text importer. Once {@link #finish} has been called it is read-only.
 */
public final class MemoryTrace implements TraceSource, TraceWriter {
    private final List<EventBatch> streams = new ArrayList<>();
    private TraceDefinitions definitions;
    private final String origin;

    public MemoryTrace(String origin) {
        this.origin = origin;
    }

    public MemoryTrace(TraceDefinitions definitions, List<EventBatch> streams, String origin) {
        this.origin = origin;
        this.streams.addAll(streams);
        finishUnchecked(definitions);
    }

    /** The stream of a location, created empty on first use. */
    public synchronized EventBatch stream(int location) {
        while (streams.size() <= location) {
            streams.add(new EventBatch(16));
        }
        return streams.get(location);
    }

    @Override
    public void append(int location, EventBatch batch) {
        if (definitions != null) {
            throw new IllegalStateException("trace already finished");
        }
        stream(location).addAll(batch, 0, batch.size);
    }

    @Override
    public void finish(TraceDefinitions defs) {
        finishUnchecked(defs);
    }

    private void finishUnchecked(TraceDefinitions defs) {
        List<Location> counted = new ArrayList<>();
        for (Location l : defs.locations()) {
            counted.add(l.withEvents(stream(l.index()).size));
        }
        if (streams.size() > defs.locations().size()) {
            throw new IllegalArgumentException("events were written for location " + (streams.size() - 1)
                    + " but only " + defs.locations().size() + " locations are defined");
        }
        definitions = defs.withLocations(counted);
    }

    @Override
    public TraceDefinitions definitions() {
        if (definitions == null) {
            throw new IllegalStateException("trace not finished");
        }
        return definitions;
    }

    @Override
    public String origin() {
        return origin;
    }

    @Override
    public LocationReader openLocation(int location) {
        EventBatch s = streams.get(location);
        return new LocationReader() {
            private boolean done;

            @Override
            public boolean next(EventBatch batch) {
                batch.clear();
                if (done || s.size == 0) {
                    return false;
                }
                done = true;
                batch.addAll(s, 0, s.size);
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public EventBatch readLocation(int location) {
        EventBatch copy = new EventBatch(Math.max(1, streams.get(location).size));
        copy.addAll(streams.get(location), 0, streams.get(location).size);
        return copy;
    }

    @Override
    public void close() throws IOException {
    }
}
