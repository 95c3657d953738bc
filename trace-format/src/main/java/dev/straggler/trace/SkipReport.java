package dev.straggler.trace;

import dev.straggler.trace.otf2.Otf2Warning;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The lines that list what a lenient read left out, printed once a command has its result: implausible records
 * dropped ({@link PlausibleTrace}) and damaged parts of an OTF2 archive skipped ({@link Otf2Warning}). One format
 * whether the trace was read by this process or by the workers of a distributed engine, whose lists are merged here.
 * Locations are read in parallel, so the lists are sorted (the order of discovery varies from run to run).
 */
public final class SkipReport {
    private SkipReport() {
    }

    /**
     * @param droppedCount every record dropped, also those not listed
     * @param dropped      the listed dropped records ({@link PlausibleTrace.Dropped} as text), possibly from several
     *                     readers; at most {@link PlausibleTrace#LISTED} of them are shown
     * @param warnings     the archive's warnings, possibly repeated by several readers
     */
    public static List<String> lines(String origin, long droppedCount, List<String> dropped,
                                     List<Otf2Warning> warnings) {
        List<String> out = new ArrayList<>();
        if (droppedCount > 0) {
            List<String> listed = new ArrayList<>(new TreeSet<>(dropped));
            if (listed.size() > PlausibleTrace.LISTED) {
                listed = listed.subList(0, PlausibleTrace.LISTED);
            }
            out.add(String.format(Locale.ROOT, "straggler: --lenient dropped %,d implausible or unreadable part(s) of "
                    + "%s%s:", droppedCount, origin, droppedCount > listed.size()
                    ? " (the first " + listed.size() + " listed)" : ""));
            listed.forEach(d -> out.add("  " + d));
        }
        List<Otf2Warning> skipped = distinct(warnings);
        if (!skipped.isEmpty()) {
            out.add("straggler: " + skipped.size() + " part(s) of " + origin + " were skipped:");
            skipped.forEach(w -> out.add("  " + w));
        }
        return out;
    }

    /** The warnings without repeats, by location and byte offset. */
    public static List<Otf2Warning> distinct(List<Otf2Warning> warnings) {
        List<Otf2Warning> w = new ArrayList<>(new LinkedHashSet<>(warnings));
        w.sort(Comparator.comparingLong(Otf2Warning::location).thenComparingLong(Otf2Warning::byteOffset));
        return w;
    }
}
