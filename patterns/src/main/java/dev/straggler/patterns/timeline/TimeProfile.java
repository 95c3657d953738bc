package dev.straggler.patterns.timeline;

import dev.straggler.trace.Clock;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The whole-run overview's time profile, as Pipit's {@code Trace.time_profile} and Vampir's Function Summary over
 * time define it: the span from the first to the last event of the trace (over all its locations) cut into
 * {@code bins} equal bins; for each location and bin, each region's <em>exclusive</em> time in the bin (the time the
 * region is on top of the location's call stack, clipped to the bin); and the normalized profile, per bin and region
 * the exclusive time summed over the profiled locations divided by bin width × number of profiled locations.
 *
 * <p>Regions are the columns {@code 0 .. regionNames().size() - 1}: the trace regions entered on at least one profiled
 * location, by ascending trace id ({@link #regionIds()}). The program region is not one of them: PROGRAM_BEGIN/END
 * only delimit the run, as in Pipit and Vampir, so time outside every region of a location is idle time that no
 * region owns. Values are seconds; timestamps stay long ticks until converted.
 *
 * <p>Immutable: array components are copied in and out.
 *
 * @param bins       number of equal bins
 * @param startTick  first profiled timestamp (ticks)
 * @param endTick    last profiled timestamp (ticks)
 * @param start      {@code startTick} as seconds since the start of the measurement
 * @param end        {@code endTick} as seconds since the start of the measurement
 * @param binWidth   seconds per bin: (end − start) / bins
 * @param regionIds  the trace region id of each column
 * @param regionNames the name of each column's region
 * @param locations  per profiled location, its exclusive times
 * @param binTotals  exclusive seconds summed over the profiled locations, [bin * columns + region]
 */
public record TimeProfile(int bins, long startTick, long endTick, double start, double end, double binWidth,
                          int[] regionIds, List<String> regionNames, List<LocationProfile> locations,
                          double[] binTotals) {

    public TimeProfile {
        if (bins < 1) {
            throw new IllegalArgumentException("a time profile needs at least one bin: " + bins);
        }
        if (endTick < startTick) {
            throw new IllegalArgumentException("time profile ends (" + endTick + ") before it starts (" + startTick + ")");
        }
        regionIds = regionIds.clone();
        regionNames = List.copyOf(regionNames);
        locations = List.copyOf(locations);
        binTotals = binTotals.clone();
        if (regionIds.length != regionNames.size() || binTotals.length != bins * regionIds.length) {
            throw new IllegalArgumentException("time profile arrays do not match " + bins + " bins × "
                    + regionIds.length + " regions");
        }
    }

    /**
     * One location's exclusive times.
     *
     * @param location the location's index in the trace
     * @param regions  the profile columns this location entered, ascending
     * @param seconds  exclusive seconds, [bin * regions.length + j] for column {@code regions[j]}
     */
    public record LocationProfile(int location, int[] regions, double[] seconds) {
        public LocationProfile {
            regions = regions.clone();
            seconds = seconds.clone();
            if (regions.length > 0 && seconds.length % regions.length != 0) {
                throw new IllegalArgumentException("location " + location + ": " + seconds.length
                        + " values for " + regions.length + " regions");
            }
        }

        @Override
        public int[] regions() {
            return regions.clone();
        }

        @Override
        public double[] seconds() {
            return seconds.clone();
        }

        /** Exclusive seconds of profile column {@code region} in {@code bin} on this location; 0 if never entered. */
        public double exclusive(int bin, int region) {
            int j = Arrays.binarySearch(regions, region);
            return j < 0 ? 0.0 : seconds[bin * regions.length + j];
        }

        /** Seconds of {@code bin} during which this location is inside some region: its exclusive times summed. */
        public double busy(int bin) {
            double sum = 0;
            for (int j = 0, n = regions.length; j < n; j++) {
                sum += seconds[bin * n + j];
            }
            return sum;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LocationProfile l && l.location == location && Arrays.equals(l.regions, regions)
                    && Arrays.equals(l.seconds, seconds);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * location + Arrays.hashCode(regions)) + Arrays.hashCode(seconds);
        }

        @Override
        public String toString() {
            return "LocationProfile[location=" + location + ", regions=" + regions.length + "]";
        }

        private LocationProfile renumbered(int[] columnOfRegionId) {
            int[] columns = new int[regions.length];
            for (int j = 0; j < regions.length; j++) {
                columns[j] = columnOfRegionId[regions[j]];
            }
            return new LocationProfile(location, columns, seconds);
        }
    }

    /**
     * A region's part of one bin.
     *
     * @param region     the profile column
     * @param name       the region's name
     * @param seconds    exclusive seconds summed over the profiled locations
     * @param normalized {@code seconds} / (bin width × number of profiled locations)
     */
    public record Share(int region, String name, double seconds, double normalized) {
    }

    /** First and last timestamp (ticks) of a set of locations. */
    public record EventSpan(long first, long last) {
        public EventSpan {
            if (last < first) {
                throw new IllegalArgumentException("last event (" + last + ") before the first (" + first + ")");
            }
        }
    }

    @Override
    public int[] regionIds() {
        return regionIds.clone();
    }

    @Override
    public double[] binTotals() {
        return binTotals.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimeProfile p && p.bins == bins && p.startTick == startTick && p.endTick == endTick
                && Double.compare(p.binWidth, binWidth) == 0 && Arrays.equals(p.regionIds, regionIds)
                && p.regionNames.equals(regionNames) && p.locations.equals(locations)
                && Arrays.equals(p.binTotals, binTotals);
    }

    @Override
    public int hashCode() {
        return Objects.hash(bins, startTick, endTick, Arrays.hashCode(regionIds), locations);
    }

    @Override
    public String toString() {
        return "TimeProfile[" + bins + " bins of " + binWidth + " s from t=" + startTick + " to t=" + endTick + ", "
                + regionIds.length + " regions, " + locations.size() + " locations]";
    }

    /** Number of profile columns (regions). */
    public int regionCount() {
        return regionIds.length;
    }

    /** The column of the region with this name, or -1 when no profiled location entered it. */
    public int column(String regionName) {
        return regionNames.indexOf(regionName);
    }

    /** Start of {@code bin} in seconds since the start of the measurement. */
    public double binStart(int bin) {
        return start + (end - start) * bin / bins;
    }

    /** Exclusive seconds of column {@code region} in {@code bin}, summed over the profiled locations. */
    public double exclusive(int bin, int region) {
        return binTotals[bin * regionIds.length + region];
    }

    /**
     * Pipit's normalized profile: the region's exclusive time in the bin summed over the profiled locations, divided
     * by bin width × number of profiled locations (1 = every location spends the whole bin there). 0 for a profile of
     * zero length or without locations, where the share is undefined.
     */
    public double normalized(int bin, int region) {
        double capacity = binWidth * locations.size();
        return capacity > 0 ? exclusive(bin, region) / capacity : 0.0;
    }

    /** The regions with a non-zero share of {@code bin}, largest first (ties by column). */
    public List<Share> shares(int bin) {
        Objects.checkIndex(bin, bins);
        List<Share> out = new ArrayList<>();
        for (int r = 0; r < regionIds.length; r++) {
            double s = exclusive(bin, r);
            if (s > 0) {
                out.add(new Share(r, regionNames.get(r), s, normalized(bin, r)));
            }
        }
        out.sort(Comparator.comparingDouble(Share::seconds).reversed().thenComparingInt(Share::region));
        return List.copyOf(out);
    }

    /** The profile of all locations of the trace in {@code bins} bins between its first and last event. */
    public static TimeProfile of(TraceSource source, int bins) throws IOException {
        return of(source, bins, allLocations(source.definitions()));
    }

    /**
     * The profile of some locations, in {@code bins} bins between the first and last event of <em>all</em> the
     * trace's locations, so that profiles of different location sets share their bins (and add up). Reads every
     * location once for the span and the chosen ones once more for the bins.
     */
    public static TimeProfile of(TraceSource source, int bins, int[] locations) throws IOException {
        EventSpan span = eventSpan(source, allLocations(source.definitions()));
        return of(source, bins, locations, span);
    }

    /**
     * The profile of {@code locations} in {@code bins} equal bins of {@code span}: one streaming pass per location,
     * holding one batch and bins × (regions the location enters) values at a time. Time outside the span is left out.
     */
    public static TimeProfile of(TraceSource source, int bins, int[] locations, EventSpan span) throws IOException {
        if (bins < 1) {
            throw new IllegalArgumentException("a time profile needs at least one bin: " + bins);
        }
        TraceDefinitions defs = source.definitions();
        Clock clock = defs.clock();
        int[] chosen = checkedLocations(defs, locations);
        TimeProfileBinner binner = new TimeProfileBinner(bins, span.first(), span.last(), defs.regions().size(),
                clock.ticksPerSecond());
        EventBatch batch = new EventBatch(4096);
        List<LocationProfile> byRegionId = new ArrayList<>(chosen.length);
        boolean[] entered = new boolean[defs.regions().size()];
        for (int l : chosen) {
            LocationProfile p;
            // the binner reads timestamps, kinds and regions only: a store need not decode the message columns
            try (LocationReader reader = source.openCallStack(l)) {
                p = binner.run(l, reader, batch);
            }
            for (int id : p.regions) {
                entered[id] = true;
            }
            byRegionId.add(p);
        }
        // columns: the entered regions by ascending trace id; each location's ascending ids stay ascending columns
        int[] columnOf = new int[entered.length];
        int columns = 0;
        for (int id = 0; id < entered.length; id++) {
            columnOf[id] = entered[id] ? columns++ : -1;
        }
        int[] regionIds = new int[columns];
        List<String> names = new ArrayList<>(columns);
        for (int id = 0; id < entered.length; id++) {
            if (entered[id]) {
                regionIds[columnOf[id]] = id;
                names.add(defs.region(id).name());
            }
        }
        double[] totals = new double[bins * columns];
        List<LocationProfile> profiles = new ArrayList<>(byRegionId.size());
        for (LocationProfile p : byRegionId) {
            LocationProfile q = p.renumbered(columnOf);
            int n = q.regions.length;
            for (int k = 0; k < bins; k++) {
                for (int j = 0; j < n; j++) {
                    totals[k * columns + q.regions[j]] += q.seconds[k * n + j];
                }
            }
            profiles.add(q);
        }
        double startSeconds = clock.secondsSinceStart(span.first());
        double endSeconds = clock.secondsSinceStart(span.last());
        double width = clock.seconds(span.last() - span.first()) / bins;
        return new TimeProfile(bins, span.first(), span.last(), startSeconds, endSeconds, width, regionIds, names,
                profiles, totals);
    }

    /**
     * The first and last timestamp of any event of these locations, as Pipit takes the minimum and maximum over all
     * events (instants such as PROGRAM_BEGIN/END and message records included). One streaming pass per location.
     *
     * @throws IllegalArgumentException when the locations hold no event at all
     */
    public static EventSpan eventSpan(TraceSource source, int[] locations) throws IOException {
        int[] chosen = checkedLocations(source.definitions(), locations);
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        EventBatch batch = new EventBatch(4096);
        for (int l : chosen) {
            try (LocationReader reader = source.openCallStack(l)) {
                while (reader.next(batch)) {
                    long[] time = batch.time;
                    for (int i = 0, n = batch.size; i < n; i++) {
                        first = Math.min(first, time[i]);
                        last = Math.max(last, time[i]);
                    }
                }
            }
        }
        if (first > last) {
            throw new IllegalArgumentException(source.origin() + ": no events, so no time profile");
        }
        return new EventSpan(first, last);
    }

    private static int[] allLocations(TraceDefinitions defs) {
        int[] all = new int[defs.locations().size()];
        Arrays.setAll(all, i -> i);
        return all;
    }

    private static int[] checkedLocations(TraceDefinitions defs, int[] locations) {
        int[] chosen = locations.clone();
        Arrays.sort(chosen);
        for (int i = 0; i < chosen.length; i++) {
            if (chosen[i] < 0 || chosen[i] >= defs.locations().size()) {
                throw new IllegalArgumentException("no location " + chosen[i] + " (the trace has "
                        + defs.locations().size() + ")");
            }
            if (i > 0 && chosen[i] == chosen[i - 1]) {
                throw new IllegalArgumentException("location " + chosen[i] + " chosen twice");
            }
        }
        return chosen;
    }
}
