package dev.straggler.trace.filter;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;

/**
 * A view of a trace without the ENTER/LEAVE events of the regions a filter excludes, as if the program had been
 * recorded with that filter: the events inside a filtered region stay and are attributed to its caller.
 * Definitions are unchanged (filtered regions stay defined, just never entered), except that the locations' event
 * counts are unknown (-1) until read, since filtering changes them. Streams batch by batch.
 */
public final class FilteredTrace implements TraceSource {
    private final TraceSource inner;
    private final boolean[] drop;
    private final TraceDefinitions defs;

    public FilteredTrace(TraceSource inner, RegionFilter filter) {
        this.inner = inner;
        TraceDefinitions d = inner.definitions();
        this.defs = d.withLocations(d.locations().stream().map(l -> l.withEvents(-1)).toList());
        var regions = inner.definitions().regions();
        this.drop = new boolean[regions.size()];
        for (Region r : regions) {
            drop[r.id()] = filter.excludes(r);
        }
    }

    /** Number of regions the filter removes. */
    public int excludedRegions() {
        int n = 0;
        for (boolean d : drop) {
            n += d ? 1 : 0;
        }
        return n;
    }

    public boolean excluded(int region) {
        return region >= 0 && region < drop.length && drop[region];
    }

    @Override
    public TraceDefinitions definitions() {
        return defs;
    }

    @Override
    public String origin() {
        return inner.origin() + " (filtered)";
    }

    @Override
    public long eventCount() throws IOException {
        long n = 0;
        for (var l : definitions().locations()) {
            n += readLocation(l.index()).size;
        }
        return n;
    }

    /** The inner source's: the filter delivers fewer events from the same records. */
    @Override
    public long[] declaredRecords() {
        return inner.declaredRecords();
    }

    @Override
    public LocationReader openLocation(int location) throws IOException {
        return filtered(inner.openLocation(location));
    }

    /** The inner source's call-stack read, filtered alike: the filter reads kinds and regions only. */
    @Override
    public LocationReader openCallStack(int location) throws IOException {
        return filtered(inner.openCallStack(location));
    }

    private LocationReader filtered(LocationReader r) {
        EventBatch in = new EventBatch(8192);
        return new LocationReader() {
            private long delivered;

            @Override
            public long recordsRead() {
                return r.recordsRead();
            }

            @Override
            public boolean next(EventBatch out) throws IOException {
                out.clear();
                while (out.size == 0) {
                    if (!r.next(in)) {
                        return false;
                    }
                    for (int i = 0; i < in.size; i++) {
                        byte k = in.kind[i];
                        if ((k == EventKind.ENTER_CODE || k == EventKind.LEAVE_CODE) && excluded(in.ref[i])) {
                            continue;
                        }
                        out.add(in.time[i], k, in.ref[i], in.comm[i], in.tag[i], in.bytes[i], in.aux[i]);
                    }
                }
                out.firstIndex = delivered;
                delivered += out.size;
                return true;
            }

            @Override
            public void close() throws IOException {
                r.close();
            }
        };
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
