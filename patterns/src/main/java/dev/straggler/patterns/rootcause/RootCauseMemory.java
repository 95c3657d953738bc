package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.Replay;

import java.util.Locale;

/**
 * Whether the root-cause stage fits in the heap that is left once the wait states are known. The stage's memory
 * grows with the marks (communication records), not with ENTER/LEAVE events: record links, partner facts and Leave
 * times, synchronisation points, interval times and long-term costs (docs/root-causes.md, "Cost"). Measured on
 * 1.2·10^8 events (32.7 M marks): 2.2 GiB live before the stage, 4.6 GiB live at its peak (after full collections),
 * about 80 bytes per mark; {@value #BYTES_PER_MARK} leaves the collector some room.
 * A run that would not fit keeps its wait states and says why its root causes are missing, instead of failing
 * with an out-of-memory error after minutes of work.
 */
public final class RootCauseMemory {
    /** Bytes the stage adds per mark at its peak, with room for the collector (measured: about 80 live). */
    static final long BYTES_PER_MARK = 100;

    private RootCauseMemory() {
    }

    /** Why the stage would not fit in this JVM's heap, or null when it fits. Collects garbage once if it is close. */
    public static String shortfall(Replay replay) {
        long marks = 0;
        for (LocationData d : replay.locations()) {
            CallPathIntervals iv = d.intervals();
            if (iv != null) {
                marks += iv.size();
            }
        }
        Runtime rt = Runtime.getRuntime();
        if (shortfall(marks, rt.maxMemory(), rt.totalMemory() - rt.freeMemory()) == null) {
            return null;
        }
        // what is in use includes garbage: count again after a collection before giving up on the stage
        System.gc();
        return shortfall(marks, rt.maxMemory(), rt.totalMemory() - rt.freeMemory());
    }

    /**
     * @param marks   the marks of all locations: MPI records, and on threads OpenMP forks and barriers
     * @param maxHeap the heap's limit in bytes
     * @param used    bytes of heap in use now
     * @return why the stage would not fit, or null when it fits
     */
    static String shortfall(long marks, long maxHeap, long used) {
        long needed = marks * BYTES_PER_MARK;
        long free = Math.max(0, maxHeap - used);
        if (needed <= free) {
            return null;
        }
        return String.format(Locale.ROOT, "they need about %s more memory for %,d marks (MPI records, and OpenMP forks and "
                + "barriers of threads; about %d bytes each), but only %s of the %s heap are free; give the analysis more heap (e.g. STRAGGLER_HEAP=%s "
                + "bin/straggler ...) or analyse with --no-root-causes", gib(needed), marks, BYTES_PER_MARK, gib(free),
                gib(maxHeap), (long) Math.ceil((used + needed) * 1.1 / (1L << 30)) + "g");
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
