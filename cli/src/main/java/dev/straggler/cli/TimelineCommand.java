package dev.straggler.cli;

import dev.straggler.cli.report.TimelinePage;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.timeline.InstanceWindow;
import dev.straggler.patterns.timeline.Otf2WindowExport;
import dev.straggler.patterns.timeline.PerfettoExport;
import dev.straggler.patterns.timeline.TimeProfile;
import dev.straggler.trace.Clock;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * A window of a trace on a time axis: written for Perfetto and chrome://tracing ({@link PerfettoExport}) and as a
 * self-contained page ({@link TimelinePage}, the same JSON drawn on a canvas), and the whole run's time profile in
 * equal bins ({@link TimeProfile}, Pipit's and Vampir's definition). A window is given by time, or by one of the
 * most severe instances of a wait state, which is then marked on its location.
 */
@Command(name = "timeline", mixinStandardHelpOptions = true,
        description = {"Shows a trace on a time axis: writes a window of it for Perfetto (ui.perfetto.dev) and "
                + "chrome://tracing or as an HTML page, with messages as arrows and a wait state marked, and prints "
                + "the whole run's time profile (each region's share of every time bin).",
                "Times are seconds since the start of the measurement, as `dump` and the analysis' most severe "
                        + "instances give them."})
final class TimelineCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE")
    Path trace;

    @Option(names = "--from", paramLabel = "SECONDS", description = "Start of the window (default: the first event).")
    Double from;

    @Option(names = "--to", paramLabel = "SECONDS", description = "End of the window (default: the last event).")
    Double to;

    @Option(names = "--locations", paramLabel = "LIST", description = "Only these locations, by index: e.g. 0-7,12 "
            + "(default: all).")
    String locations;

    @Option(names = "--instance", paramLabel = "METRIC:K", description = "The window around the K-th most severe "
            + "instance of a wait state (e.g. mpi_latesender:1; runs the wait-state analysis), marked on the location "
            + "that waited; --from/--to then cannot be given.")
    String instance;

    @Option(names = "--root-causes", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "With --instance: also mark the delay that caused the waiting on the location that caused "
                    + "it (runs the root-cause analysis); on by default, --no-root-causes for the wait states alone.")
    boolean rootCauses = true;

    @Option(names = "--perfetto", paramLabel = "FILE", description = "Write the window as Chrome/Perfetto "
            + "trace-event JSON.")
    Path perfetto;

    @Option(names = "--html", paramLabel = "FILE", description = "Write the window as a self-contained HTML page: "
            + "one row per location, zoom and pan in any browser (no network needed).")
    Path html;

    @Option(names = "--otf2", paramLabel = "DIR", description = "Write the window as an OTF2 archive (DIR/traces.otf2, "
            + "for Vampir, Scalasca and the OTF2 tools): the records of the chosen locations in the window, times "
            + "unchanged, regions cut at its edges entered at its start and left at its end, records of operations "
            + "lying partly outside it left out. DIR must be new or empty.")
    Path otf2;

    @Option(names = "--max-events", paramLabel = "N", defaultValue = "5000000", description = "Largest trace written "
            + "whole by --perfetto or --html without a window (default ${DEFAULT-VALUE}: a few hundred MB of JSON, "
            + "about what Perfetto's UI and chrome://tracing open); a window has no limit.")
    long maxEvents;

    @Option(names = "--overview", description = "Print the whole run's time profile: per time bin, the regions' "
            + "shares of the selected locations' time.")
    boolean overview;

    @Option(names = "--bins", paramLabel = "N", defaultValue = "20", description = "Time bins of the overview "
            + "(default ${DEFAULT-VALUE}).")
    int bins;

    @Option(names = "--top", paramLabel = "N", defaultValue = "3", description = "Regions listed per bin of the "
            + "overview (default ${DEFAULT-VALUE}; the rest is summed and said).")
    int top;

    @Override
    public Integer call() throws IOException {
        if (perfetto == null && html == null && otf2 == null && !overview) {
            throw new IllegalArgumentException("nothing to do: give --perfetto FILE (a window for Perfetto), --html "
                    + "FILE (a page to look at), --otf2 DIR (an OTF2 archive) and/or --overview (the run's time "
                    + "profile)");
        }
        if (otf2 != null) {
            checkEmptyDirectory(otf2);
        }
        Ranges.between("--bins", bins, 1, 100_000);
        Ranges.between("--top", top, 1, Integer.MAX_VALUE);
        if (maxEvents < 1) {
            throw new IllegalArgumentException("--max-events takes a whole number of at least 1, not " + maxEvents);
        }
        if (instance != null && (from != null || to != null)) {
            throw new IllegalArgumentException("--instance sets the window itself: give it without --from and --to");
        }
        try (TraceSource src = Inputs.open(trace, common)) {
            try {
                List<Integer> chosen = locationList(locations, src.definitions().locations().size());
                if (overview) {
                    printOverview(src, chosen);
                }
                if (perfetto != null || html != null || otf2 != null) {
                    writeWindow(src, chosen);
                }
            } finally {
                Inputs.reportSkipped(src);
            }
        }
        return 0;
    }

    private void writeWindow(TraceSource src, List<Integer> chosen) throws IOException {
        Clock c = src.definitions().clock();
        double tps = c.ticksPerSecond();
        // the export counts from the trace's first event; the options, from the start of the measurement
        long firstTick = PerfettoExport.firstEventTick(src);
        double origin = (firstTick - c.globalOffset()) / tps;
        List<PerfettoExport.Mark> marks = new ArrayList<>();
        double lo;
        double hi;
        String what;
        String delayNote = "";
        if (instance != null) {
            InstanceSpec spec = instanceSpec();
            AnalysisResult r = analysis(src);
            Instance i = instance(r, spec);
            InstanceWindow iw = InstanceWindow.of(src.definitions(), r.cube(), origin, i, r.causeOf(i));
            lo = iw.window().from() + origin;
            hi = iw.window().to() + origin;
            what = String.format(Locale.ROOT, "%s instance %s (%.6f s lost on rank %d%s)",
                    MetricTree.standaloneName(i.metric()), instance.substring(instance.lastIndexOf(':') + 1),
                    i.severity(), i.rank(), i.thread() > 0 ? " thread " + i.thread() : "");
            if (!chosen.contains(iw.waitingLocation())) {
                throw new IllegalArgumentException("--locations leaves out location " + iw.waitingLocation()
                        + ", where the instance waited");
            }
            marks.addAll(iw.marksOn(chosen));
            DelayCause why = iw.cause();
            if (why != null) {
                int dl = iw.delayingLocation();
                if (chosen.contains(dl)) {
                    delayNote = String.format(Locale.ROOT, "; the delay that caused it is marked on location %d "
                                    + "(rank %d%s): %.6f s in %s%s", dl, why.rank(),
                            why.thread() > 0 ? " thread " + why.thread() : "", why.delay(), iw.where(),
                            iw.stretchCut() ? String.format(Locale.ROOT, " (its stretch begins at %.6f s, before "
                                    + "the window, and is drawn from the window's start)", why.from()) : "");
                } else {
                    delayNote = String.format(Locale.ROOT, "; the delay that caused it lies on location %d (rank "
                            + "%d), which --locations leaves out: not drawn", dl, why.rank());
                }
            } else if (rootCauses) {
                delayNote = "; no delay is charged for this instance (root causes explain point-to-point and MPI "
                        + "collective instances)";
            }
        } else {
            // the trace's declared length bounds both (without one, any finite time is taken)
            double length = c.traceLength() > 0 ? (double) c.traceLength() / tps : Double.MAX_VALUE;
            lo = from == null ? origin : Ranges.between("--from", from, 0, length);
            hi = to == null ? Double.POSITIVE_INFINITY : Ranges.between("--to", to, lo, Math.max(lo, length));
            what = "window";
            if (from == null && to == null && (perfetto != null || html != null)) {
                long events = src.eventCount();
                if (events > maxEvents) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "%s has %,d events; the whole trace is "
                            + "written for Perfetto or as a page up to --max-events %,d: give a window (--from/--to, "
                            + "--instance) or a larger --max-events", trace, events, maxEvents));
                }
                what = String.format(Locale.ROOT, "the whole trace (%,d events, within --max-events %,d)", events,
                        maxEvents);
            }
        }
        if (otf2 != null) {
            // the archive keeps the trace's own times: the window in ticks of its clock
            long fromTick = instance == null && from == null ? firstTick
                    : Math.max(firstTick, c.globalOffset() + Math.round(lo * tps));
            long toTick = Double.isInfinite(hi) ? Long.MAX_VALUE : c.globalOffset() + Math.round(hi * tps);
            writeOtf2(src, chosen, fromTick, toTick, what, marks);
        }
        if (perfetto == null && html == null) {
            if (!delayNote.isEmpty()) {
                System.out.println(delayNote.substring(2));
            }
            return;
        }
        PerfettoExport.Window window = new PerfettoExport.Window(Math.max(0, lo - origin), Math.max(0, hi - origin));
        List<Integer> subset = chosen.size() == src.definitions().locations().size() ? null : chosen;
        PerfettoExport.Summary s = null;
        if (perfetto != null) {
            createParent(perfetto);
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(perfetto), 1 << 16)) {
                s = PerfettoExport.write(src, window, subset, marks, out);
            }
        }
        if (html != null) {
            // checked before the command ran, as every --html is (OutputPaths)
            PerfettoExport.Summary[] written = {null};
            Path json = perfetto;
            // with a JSON file already written the page embeds it, so that the two cannot differ
            TimelinePage.write(html, trace.toString(), String.format(Locale.ROOT, "%s, times in seconds since the "
                    + "start of the measurement", what), origin, out -> {
                if (json != null) {
                    Files.copy(json, out);
                } else {
                    written[0] = PerfettoExport.write(src, window, subset, marks, out);
                }
            });
            s = s == null ? written[0] : s;
        }
        String files = perfetto != null && html != null ? perfetto + " and " + html : perfetto != null
                ? perfetto.toString() : html.toString();
        System.out.printf(Locale.ROOT, "wrote %s: %s [%.6f, %.6f] s since the start of the measurement, %d location(s); "
                        + "%,d region slices (%,d cut at the window's edges), %,d messages drawn%s, %,d collective "
                        + "operations drawn%s%s%n", files, what,
                s.from() + origin, s.to() + origin, s.locations(), s.slices(),
                s.slicesClippedAtStart() + s.slicesClippedAtEnd(), s.messagesDrawn(),
                s.messagesOtherEndOutsideWindow() + s.messagesOtherEndOutsideLocations() > 0
                        ? String.format(Locale.ROOT, " (%,d more leave the window or the locations, not drawn)",
                        s.messagesOtherEndOutsideWindow() + s.messagesOtherEndOutsideLocations()) : "",
                s.collectivesDrawn(), s.collectivesNotDrawn() > 0 ? String.format(Locale.ROOT, " (%,d more whose "
                        + "members' calls, read from the window's start, do not overlap: not drawn)",
                        s.collectivesNotDrawn()) : "",
                s.marksDrawn() > 0 ? String.format(Locale.ROOT, ", %d mark(s) drawn", s.marksDrawn()) : "");
        if (!delayNote.isEmpty()) {
            System.out.println(delayNote.substring(2));
        }
        if (perfetto != null) {
            System.out.println("open " + perfetto + " in https://ui.perfetto.dev or chrome://tracing");
        }
        if (html != null) {
            System.out.println("open " + html + " in a web browser: wheel or +/- zoom, drag or arrow keys pan, 0 resets");
        }
    }

    /** A directory to write an archive into: new, or existing and empty (refused before anything is read). */
    private static void checkEmptyDirectory(Path dir) throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--otf2 " + dir + ": is a file; give a new or empty directory");
        }
        if (Files.isDirectory(dir)) {
            try (var entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--otf2 " + dir + ": exists and is not empty; give a new or "
                            + "empty directory (an archive is never written over)");
                }
            }
        }
        OutputPaths.directory("--otf2", dir);
    }

    private void writeOtf2(TraceSource src, List<Integer> chosen, long fromTick, long toTick, String what,
                           List<PerfettoExport.Mark> marks) throws IOException {
        Clock c = src.definitions().clock();
        double tps = c.ticksPerSecond();
        List<Integer> subset = chosen.size() == src.definitions().locations().size() ? null : chosen;
        Otf2WindowExport.Summary s = Otf2WindowExport.write(src, fromTick, toTick, subset, otf2);
        long cut = s.enterAdded() + s.leaveAddedAtEnd() + s.leaveAddedUnclosed();
        int all = src.definitions().locations().size();
        System.out.printf(Locale.ROOT, "wrote %s: %s [%.6f, %.6f] s since the start of the measurement as an OTF2 "
                        + "archive, %d location(s)%s, times unchanged; %,d events: %,d of the window's %,d records, "
                        + "%,d regions cut at the window's edges, opened at its start (%,d) and closed at its end "
                        + "(%,d)%s%s%s%n",
                otf2.resolve("traces.otf2"), what, (s.fromTick() - c.globalOffset()) / tps,
                (s.toTick() - c.globalOffset()) / tps, s.locations(),
                s.locations() < all ? String.format(Locale.ROOT, " (the other %d defined, without events)",
                        all - s.locations()) : "",
                s.eventsWritten(), s.eventsInWindow() - s.droppedTotal(), s.eventsInWindow(), cut, s.enterAdded(),
                s.leaveAddedAtEnd() + s.leaveAddedUnclosed(),
                s.leaveAddedUnclosed() > 0 ? String.format(Locale.ROOT, " (%,d of them at the last record of a "
                        + "location that ends inside the window)", s.leaveAddedUnclosed()) : "",
                s.forksAdded() + s.joinsAdded() > 0 ? String.format(Locale.ROOT, ", %,d OpenMP fork(s) opened at its "
                        + "start and %,d joined at its end", s.forksAdded(), s.joinsAdded()) : "",
                s.programRecordsAdded() > 0 ? String.format(Locale.ROOT, ", %,d PROGRAM_BEGIN/END added where the "
                        + "program begins or ends inside it", s.programRecordsAdded()) : "");
        System.out.printf(Locale.ROOT, "  kept %,d messages and %,d collective operations whole; dropped %,d "
                        + "point-to-point, %,d collective and %,d lock records of operations lying partly outside "
                        + "the window or the locations%s%n", s.messagesKept(), s.collectivesKept(),
                s.messageRecordsDropped(), s.collectiveRecordsDropped(), s.lockRecordsDropped(),
                s.seek() ? " (read from the window's start: operations under way there recognised by time)" : "");
        // marks count from the trace's first event; the command's seconds from the start of the measurement
        double origin = (PerfettoExport.firstEventTick(src) - c.globalOffset()) / tps;
        for (PerfettoExport.Mark m : marks) {
            System.out.printf(Locale.ROOT, "  the %s itself is not in the archive (this writer writes no OTF2 "
                    + "marker file): it lies on location %d from %.9f to %.9f s since the start of the measurement%n",
                    "delay".equals(m.category()) ? "delay that caused the waiting" : "wait state",
                    m.location(), m.start() + origin, m.end() + origin);
        }
        System.out.println("open " + otf2.resolve("traces.otf2") + " in Vampir, or read it with otf2-print or "
                + "straggler");
    }

    private static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
    }

    /** The analysis that finds the instances: the wait states, with root causes when the delay is to be marked. */
    private AnalysisResult analysis(TraceSource src) throws IOException {
        return AnalyzeCommand.analyse(src, 0, common.quiet, rootCauses);
    }

    /** --instance METRIC:K, checked before any analysis runs. */
    private record InstanceSpec(String metric, int k) {
    }

    private InstanceSpec instanceSpec() {
        int colon = instance.lastIndexOf(':');
        if (colon <= 0 || colon == instance.length() - 1) {
            throw new IllegalArgumentException("--instance takes METRIC:K, e.g. mpi_latesender:1, not '" + instance + "'");
        }
        String metric = instance.substring(0, colon);
        int k;
        try {
            k = Integer.parseInt(instance.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--instance takes METRIC:K with K a whole number, not '" + instance + "'");
        }
        Ranges.between("--instance's K", k, 1, Integer.MAX_VALUE);
        if (MetricTree.indexOf(metric) < 0) {
            throw new IllegalArgumentException("--instance names no metric '" + metric + "' (e.g. mpi_latesender, "
                    + "mpi_wait_nxn, omp_ibarrier_wait)");
        }
        return new InstanceSpec(metric, k);
    }

    /** The K-th most severe instance of the metric named by --instance. */
    private Instance instance(AnalysisResult r, InstanceSpec spec) {
        String metric = spec.metric();
        int k = spec.k();
        List<Instance> of = r.mostSevere().stream().filter(i -> i.metric().equals(metric)).toList();
        if (of.isEmpty()) {
            throw new IllegalArgumentException(trace + " has no instance of " + metric + " among the most severe ones "
                    + "the analysis keeps");
        }
        if (k > of.size()) {
            throw new IllegalArgumentException("--instance " + instance + ": the analysis keeps " + of.size()
                    + " instance(s) of " + metric + ", the most severe first");
        }
        return of.get(k - 1);
    }

    private void printOverview(TraceSource src, List<Integer> chosen) throws IOException {
        int[] locs = chosen.stream().mapToInt(Integer::intValue).toArray();
        TimeProfile p = chosen.size() == src.definitions().locations().size() ? TimeProfile.of(src, bins)
                : TimeProfile.of(src, bins, locs);
        System.out.printf(Locale.ROOT, "Time profile of %s: %d bins of %.6f s from %.6f to %.6f s since the start of "
                        + "the measurement, %d location(s); per bin each region's exclusive time over bin width x "
                        + "locations (the rest of a bin is time outside every region)%n", trace, p.bins(),
                p.binWidth(), p.start(), p.end(), p.locations().size());
        for (int b = 0; b < p.bins(); b++) {
            List<TimeProfile.Share> shares = p.shares(b);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%10.6f s ", p.binStart(b)));
            double rest = 0;
            for (int i = 0; i < shares.size(); i++) {
                TimeProfile.Share s = shares.get(i);
                if (i < top) {
                    line.append(String.format(Locale.ROOT, " %s %.1f%%", s.name(), 100 * s.normalized()));
                } else {
                    rest += s.normalized();
                }
            }
            if (shares.size() > top) {
                line.append(String.format(Locale.ROOT, " (+%d more regions, %.1f%%)", shares.size() - top, 100 * rest));
            }
            if (shares.isEmpty()) {
                line.append(" (no region)");
            }
            System.out.println(line);
        }
    }

    /** "0-7,12" as location indices, each checked; null: all. */
    static List<Integer> locationList(String spec, int count) {
        List<Integer> all = new ArrayList<>();
        if (spec == null) {
            for (int l = 0; l < count; l++) {
                all.add(l);
            }
            return all;
        }
        TreeSet<Integer> out = new TreeSet<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-', 1);
            try {
                int a = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
                int b = dash < 0 ? a : Integer.parseInt(p.substring(dash + 1));
                if (a > b) {
                    throw new IllegalArgumentException("--locations range " + p + " runs backwards");
                }
                for (int l = a; l <= b; l++) {
                    Ranges.between("--locations", l, 0, count - 1);
                    out.add(l);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--locations takes indices and ranges such as 0-7,12, not '" + spec + "'");
            }
        }
        all.addAll(out);
        return all;
    }
}
