package dev.straggler.patterns.timeline;

import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceDefinitions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The window that shows one wait-state instance and, with root causes, the delay that caused it: the waiting call (a
 * collective: its operation) with as much again on both sides, reaching back over the delaying location's stretch
 * (at most {@link #DELAY_REACH} instance lengths, so that the instance stays visible), with the wait marked on the
 * waiting location and the delay on the delaying one. One definition for `straggler timeline --instance` and the
 * analysis report's timelines.
 *
 * @param window           seconds since the trace's first event, as {@link PerfettoExport} counts
 * @param marks            the wait state, then the delay when there is one
 * @param waitingLocation  the location that waited
 * @param delayingLocation the location that caused the waiting, -1 without a cause
 * @param stretchCut       whether the delay's stretch begins before the window (its mark is drawn from the start)
 * @param where            the delay's call paths, largest first ("a/b (0.1 s), c (0.05 s) +2 more (0.01 s)"), or ""
 */
public record InstanceWindow(Instance instance, DelayCause cause, PerfettoExport.Window window,
                             List<PerfettoExport.Mark> marks, int waitingLocation, int delayingLocation,
                             boolean stretchCut, String where) {
    /** How far before the instance the window reaches back for the delay's stretch, in instance lengths. */
    public static final double DELAY_REACH = 20;

    public InstanceWindow {
        marks = List.copyOf(marks);
    }

    /**
     * @param origin the trace's first event in seconds since the start of the measurement
     *               ({@link PerfettoExport#firstEventTick})
     * @param cube   names the delay's call paths
     * @param cause  the delay behind the instance, or null
     */
    public static InstanceWindow of(TraceDefinitions defs, SeverityCube cube, double origin, Instance i,
                                    DelayCause cause) {
        double pad = Math.max(i.duration(), 1e-6);
        double lo = Math.max(origin, i.start() - pad);
        double hi = i.end() + pad;
        int loc = defs.locationOf(i.rank(), i.thread());
        List<PerfettoExport.Mark> marks = new ArrayList<>();
        marks.add(new PerfettoExport.Mark(loc, i.start() - origin, i.end() - origin,
                MetricTree.standaloneName(i.metric()), "wait state",
                Map.of("metric", i.metric(), "severity_s", i.severity(), "partner_rank", i.partnerRank(),
                        "waiting_ranks", i.waitingRanks())));
        int dl = -1;
        boolean cut = false;
        String where = "";
        if (cause != null) {
            dl = defs.locationOf(cause.rank(), cause.thread());
            // the window reaches back over the delay's stretch, but not without bound: a stretch since the start of
            // the run would make the instance a sliver of the window
            double reach = Math.max(origin, i.start() - DELAY_REACH * pad);
            double from = Math.max(cause.from(), reach);
            cut = from > cause.from();
            lo = Math.min(lo, from);
            where = where(cube, cause);
            marks.add(new PerfettoExport.Mark(dl, from - origin, Math.max(from, cause.to()) - origin,
                    "delay behind " + MetricTree.standaloneName(i.metric()), "delay",
                    Map.of("delay_s", cause.delay(), "propagated_s", cause.propagated(), "where", where,
                            "stretch_from_s", cause.from(), "stretch_to_s", cause.to(), "waiting_rank", i.rank())));
        }
        return new InstanceWindow(i, cause, new PerfettoExport.Window(Math.max(0, lo - origin),
                Math.max(0, hi - origin)), marks, loc, dl, cut, where);
    }

    /** The window's marks on the given locations only (null: all). */
    public List<PerfettoExport.Mark> marksOn(java.util.Collection<Integer> locations) {
        return locations == null ? marks : marks.stream().filter(m -> locations.contains(m.location())).toList();
    }

    /** At most this many locations in a window of {@link #concerned} locations. */
    public static final int MAX_CONCERNED = 16;

    /**
     * The locations that the instance concerns, in location order: the waiting one, the partner rank's first, the
     * delaying one, then the other threads of the waiting and the delaying process (what their threads did meanwhile),
     * at most {@link #MAX_CONCERNED} in all.
     */
    public List<Integer> concerned(TraceDefinitions defs) {
        java.util.LinkedHashSet<Integer> pick = new java.util.LinkedHashSet<>();
        pick.add(waitingLocation);
        if (instance.partnerRank() >= 0) {
            int p = defs.locationOf(instance.partnerRank(), 0);
            if (p >= 0) {
                pick.add(p);
            }
        }
        if (delayingLocation >= 0) {
            pick.add(delayingLocation);
        }
        int delayingRank = cause == null ? -1 : cause.rank();
        for (Location l : defs.locations()) {
            if (pick.size() >= MAX_CONCERNED) {
                break;
            }
            if (l.rank() == instance.rank() || l.rank() == delayingRank) {
                pick.add(l.index());
            }
        }
        List<Integer> out = new ArrayList<>(pick);
        java.util.Collections.sort(out);
        return out;
    }

    /** The delay's call paths, largest first, the first three by name and the rest summed. */
    static String where(SeverityCube cube, DelayCause why) {
        StringBuilder b = new StringBuilder();
        int shown = Math.min(3, why.callPaths().size());
        for (int k = 0; k < shown; k++) {
            DelayCause.Part p = why.callPaths().get(k);
            b.append(k > 0 ? ", " : "").append(String.join("/", cube.pathNames(p.callPath())))
                    .append(String.format(Locale.ROOT, " (%.6f s)", p.seconds()));
        }
        if (why.callPaths().size() > shown) {
            double rest = why.callPaths().subList(shown, why.callPaths().size()).stream()
                    .mapToDouble(DelayCause.Part::seconds).sum();
            b.append(String.format(Locale.ROOT, " +%d more (%.6f s)", why.callPaths().size() - shown, rest));
        }
        return b.length() == 0 ? "no call path" : b.toString();
    }
}
