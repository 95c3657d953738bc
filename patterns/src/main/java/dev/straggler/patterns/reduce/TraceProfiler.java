package dev.straggler.patterns.reduce;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Builds a {@link CallTreeProfile} from a trace in one pass per location (locations in parallel): an ENTER/LEAVE
 * stack gives each node its visits and exclusive time, and every event record is attributed, with its exact OTF2
 * size ({@link RecordSizes}), to the node it belongs to: ENTER and LEAVE to the region they open and close, every
 * other record to the innermost open region (so an MpiIsend counts for MPI_Isend), as {@code scorep-score} does.
 *
 * <p>Score-P's measurement regions are entered the way its profile enters them: PROGRAM_BEGIN/END open and close
 * the program region (paradigm MEASUREMENT_SYSTEM, named after the application), MEASUREMENT_ON_OFF the
 * "MEASUREMENT OFF" region, and BUFFER_FLUSH is one visit of "TRACE BUFFER FLUSH" lasting until its stop time.
 *
 * <p>Malformed nesting is skipped and counted, never fatal: a LEAVE that closes no open region is ignored, a LEAVE
 * of a region deeper in the stack closes the regions above it, and regions still open at the end close at the last
 * timestamp. Each skip is reported ({@link CallTreeProfile#anomalies()}).
 */
public final class TraceProfiler {
    private static final int LISTED_ANOMALIES = 20;
    static final String MEASUREMENT_OFF = "MEASUREMENT OFF";
    static final String BUFFER_FLUSH = "TRACE BUFFER FLUSH";

    private TraceProfiler() {
    }

    /** @throws IOException when the trace cannot be read (the message names the location) */
    public static CallTreeProfile profile(TraceSource source) throws IOException {
        TraceDefinitions defs = source.definitions();
        List<Region> regions = defs.regions();
        int program = programRegion(defs);
        int off = regionNamed(regions, MEASUREMENT_OFF);
        int flush = regionNamed(regions, BUFFER_FLUSH);
        int n = defs.locations().size();
        int ranks = defs.locations().stream().mapToInt(Location::rank).max().orElse(-1) + 1;
        LocationPass[] passes = new LocationPass[n];
        try {
            IntStream.range(0, n).parallel().forEach(l -> {
                LocationPass p = new LocationPass(defs, l, program, off, flush);
                try (LocationReader r = source.openLocation(l)) {
                    p.run(r);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                passes[l] = p;
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        CallTreeProfile.Builder b = CallTreeProfile.builder(regions, Math.max(ranks, 0), program, true, source.origin());
        List<String> anomalies = new ArrayList<>();
        long anomalyCount = 0;
        // merged in location order, so node ids are the same for any thread count
        for (LocationPass p : passes) {
            p.mergeInto(b);
            anomalyCount += p.anomalyCount;
            for (String a : p.anomalies) {
                if (anomalies.size() < LISTED_ANOMALIES) {
                    anomalies.add(a);
                }
            }
        }
        return b.build(anomalies, anomalyCount);
    }

    /**
     * The region standing for the whole program: the measurement-system region Score-P names after the
     * application (its canonical name is the executable's path), else -1.
     */
    static int programRegion(TraceDefinitions defs) {
        String app = defs.experiment().application();
        for (Region r : defs.regions()) {
            if (r.paradigm() == Paradigm.MEASUREMENT_SYSTEM && r.role() == RegionRole.ARTIFICIAL && r.name().equals(app)) {
                return r.id();
            }
        }
        return -1;
    }

    private static int regionNamed(List<Region> regions, String name) {
        for (Region r : regions) {
            if (r.name().equals(name)) {
                return r.id();
            }
        }
        return -1;
    }
}
