package dev.straggler.patterns.timeline;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceFormatException;

import java.io.IOException;
import java.util.Arrays;

/**
 * Streams one location at a time and books each region's exclusive time into the bins: the region on top of the
 * location's call stack owns the time until the next ENTER or LEAVE, clipped to each bin it crosses. Only ENTER and
 * LEAVE change the stack: PROGRAM_BEGIN/END are not a region here, as in Pipit (its OTF2 reader keeps them as instant
 * events) and Vampir (the expected profile of the pipit ping-pong trace shows no program region). Reused across
 * locations by one thread; allocates only when a location enters a region it has not entered before.
 */
final class TimeProfileBinner {
    private final int bins;
    private final long firstTick;
    /** Length of the profiled span in ticks, as a double: edges are fractional ticks, as in Pipit's equal bins. */
    private final double span;
    private final long spanTicks;
    private final double ticksPerSecond;
    /** Column of a trace region id for the current location; -1 when the location has not entered it. */
    private final int[] columnOf;
    private int[] regionOfColumn = new int[16];
    private int columns;
    /** Exclusive ticks of the current location, [column * bins + bin]. */
    private double[] ticks;
    private int[] stack = new int[64];

    TimeProfileBinner(int bins, long firstTick, long lastTick, int regionCount, long ticksPerSecond) {
        this.bins = bins;
        this.firstTick = firstTick;
        this.spanTicks = lastTick - firstTick;
        this.span = spanTicks;
        this.ticksPerSecond = ticksPerSecond;
        this.columnOf = new int[regionCount];
        Arrays.fill(columnOf, -1);
        this.ticks = new double[16 * bins];
    }

    /** Reads the location whole and returns its bins, regions keyed by trace region id. */
    TimeProfile.LocationProfile run(int location, LocationReader reader, EventBatch batch) throws IOException {
        int depth = 0;
        long topSince = 0;
        long lastTime = Long.MIN_VALUE;
        while (reader.next(batch)) {
            final long[] time = batch.time;
            final byte[] kind = batch.kind;
            final int[] ref = batch.ref;
            for (int i = 0, n = batch.size; i < n; i++) {
                long t = time[i] - firstTick;
                lastTime = Math.max(lastTime, t);
                switch (kind[i]) {
                    case EventKind.ENTER_CODE -> {
                        int region = ref[i];
                        if (region < 0 || region >= columnOf.length) {
                            throw new TraceFormatException("location " + location + ", event " + (batch.firstIndex + i)
                                    + ": ENTER of undefined region " + region);
                        }
                        if (depth > 0) {
                            book(stack[depth - 1], topSince, t);
                        }
                        if (depth == stack.length) {
                            stack = Arrays.copyOf(stack, depth * 2);
                        }
                        stack[depth++] = region;
                        topSince = t;
                    }
                    case EventKind.LEAVE_CODE -> {
                        // A LEAVE closes the innermost open region (as the replay's LocationPass does); one without
                        // an open region has nothing to close.
                        if (depth > 0) {
                            book(stack[--depth], topSince, t);
                            topSince = t;
                        }
                    }
                    default -> {
                        // other records neither open nor close a region
                    }
                }
            }
        }
        // Regions still open when the location's stream ends are closed at its last event, as the replay does.
        if (depth > 0) {
            book(stack[depth - 1], topSince, lastTime);
        }
        return collect(location);
    }

    /** Adds [from, to) (ticks after the first profiled tick) to the region's bins, clipped to the profiled span. */
    private void book(int region, long from, long to) {
        long a = Math.max(from, 0);
        long b = Math.min(to, spanTicks);
        if (b <= a) {
            return;
        }
        int column = columnOf[region];
        if (column < 0) {
            column = addColumn(region);
        }
        int base = column * bins;
        int k = (int) Math.min(bins - 1, (long) (a * (double) bins / span));
        double lo = a;
        double hi = b;
        while (true) {
            double left = Math.max(lo, edge(k));
            double right = edge(k + 1);
            double end = Math.min(hi, right);
            if (end > left) {
                ticks[base + k] += end - left;
            }
            if (hi <= right || k == bins - 1) {
                return;
            }
            k++;
        }
    }

    /** Edge i of the equal bins, in ticks after the first profiled tick; the last edge is the span exactly. */
    private double edge(int i) {
        return i >= bins ? span : span * i / bins;
    }

    private int addColumn(int region) {
        int column = columns++;
        if (column == regionOfColumn.length) {
            regionOfColumn = Arrays.copyOf(regionOfColumn, column * 2);
        }
        if ((long) columns * bins > ticks.length) {
            ticks = Arrays.copyOf(ticks, Math.max(columns * bins, ticks.length * 2));
        }
        regionOfColumn[column] = region;
        columnOf[region] = column;
        return column;
    }

    /**
     * The location's bins in the profile's layout ([bin * regions + j], regions by ascending trace id, seconds),
     * then resets the state for the next location.
     */
    private TimeProfile.LocationProfile collect(int location) {
        int[] regions = Arrays.copyOf(regionOfColumn, columns);
        Arrays.sort(regions);
        double[] seconds = new double[bins * columns];
        for (int j = 0; j < regions.length; j++) {
            int base = columnOf[regions[j]] * bins;
            for (int k = 0; k < bins; k++) {
                seconds[k * columns + j] = ticks[base + k] / ticksPerSecond;
            }
        }
        for (int c = 0; c < columns; c++) {
            columnOf[regionOfColumn[c]] = -1;
        }
        Arrays.fill(ticks, 0, columns * bins, 0.0);
        columns = 0;
        return new TimeProfile.LocationProfile(location, regions, seconds);
    }
}
