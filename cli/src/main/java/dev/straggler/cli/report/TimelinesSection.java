package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DelayCause;
import dev.straggler.patterns.Instance;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.timeline.InstanceWindow;
import dev.straggler.patterns.timeline.PerfettoExport;
import dev.straggler.patterns.timeline.TimeProfile;
import dev.straggler.trace.Clock;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run on a time axis: an overview of every location in equal time bins (each bin's time per paradigm, as
 * Vampir's summary timeline and Pipit's time profile bin it: {@link TimeProfile}) with the most severe wait-state
 * instances marked, and, for each instance, the window that shows it ({@link InstanceWindow}: the waiting, and with
 * root causes the delay that caused it on the delaying location), drawn by the same script as the timeline page.
 * Windows show the locations the instance concerns (the waiting one, the partner rank, the delaying one); the
 * command each names shows all. The page's size is bounded: windows beyond {@link #DEFAULT_BUDGET} bytes of events
 * are left out and the section says how many.
 */
public final class TimelinesSection implements HtmlSection {
    /** Bytes of embedded trace events for all windows together. */
    public static final long DEFAULT_BUDGET = 4L << 20;
    /** Overview rows drawn; beyond, the section says how many locations are not shown. */
    static final int MAX_ROWS = 512;
    static final int BINS = 300;
    /** Rows whose bins name their largest functions (under the pointer); beyond, the paradigms only. */
    static final int FUNCTION_ROWS = 128;
    /** Functions named per row and bin, the largest first. */
    static final int FUNCTIONS_PER_BIN = 2;
    /** The paradigms of the overview, in the timeline's legend order; time outside every region is "idle". */
    static final List<String> CATEGORIES = List.of("MPI", "MPI,I/O", "OpenMP", "I/O", "Pthreads", "user",
            "measurement");

    /** One window: the instance, its cause, and its trace events (Chrome/Perfetto JSON, script-safe). */
    record Window(Instance instance, DelayCause cause, String where, boolean stretchCut, String events,
                  int locationsShown, String command, int row) {
    }

    private final String origin;
    private final double firstEventSeconds;
    private final TimeProfile profile;
    private final List<String> rowLabels;
    private final float[][] shares;
    /** Per detailed row, per bin, the largest functions as (region column << 10 | permille of the bin), 0 = none. */
    private final int[][] functions;
    private final int locationsLeftOut;
    private final List<Window> windows;
    private final int windowsLeftOut;
    private final boolean rootCauses;
    /** Whether a location is a thread other than a process's first: rows are named rank.thread. */
    private final boolean threaded;
    private final Map<Integer, String> pathNames;

    private TimelinesSection(String origin, double firstEventSeconds, TimeProfile profile, List<String> rowLabels,
                             float[][] shares, int[][] functions, int locationsLeftOut, List<Window> windows, int windowsLeftOut,
                             boolean rootCauses, boolean threaded, Map<Integer, String> pathNames) {
        this.origin = origin;
        this.firstEventSeconds = firstEventSeconds;
        this.profile = profile;
        this.rowLabels = rowLabels;
        this.shares = shares;
        this.functions = functions;
        this.locationsLeftOut = locationsLeftOut;
        this.windows = windows;
        this.windowsLeftOut = windowsLeftOut;
        this.rootCauses = rootCauses;
        this.threaded = threaded;
        this.pathNames = pathNames;
    }

    /**
     * Reads the trace again: once for the overview (two streaming passes per location, {@link TimeProfile}) and once
     * per window (seeking where the store allows).
     *
     * @param command    how the report names the trace in the timeline commands it gives
     * @param rootCauses whether the analysis computed root causes (else no window has a cause to mark)
     */
    public static TimelinesSection of(TraceSource src, AnalysisResult r, String command, boolean rootCauses,
                                      long budget) throws IOException {
        TraceDefinitions defs = src.definitions();
        Clock c = defs.clock();
        double first = (PerfettoExport.firstEventTick(src) - c.globalOffset()) / (double) c.ticksPerSecond();
        int n = defs.locations().size();
        int rows = Math.min(n, MAX_ROWS);
        int[] locs = new int[rows];
        for (int l = 0; l < rows; l++) {
            locs[l] = l;
        }
        TimeProfile p = TimeProfile.of(src, BINS, locs);
        int[] categoryOfColumn = new int[p.regionIds().length];
        for (int col = 0; col < categoryOfColumn.length; col++) {
            categoryOfColumn[col] = CATEGORIES.indexOf(PerfettoExport.categoryOf(defs.region(p.regionIds()[col])));
        }
        boolean threaded = defs.locations().stream().anyMatch(l -> l.thread() > 0);
        List<String> labels = new ArrayList<>();
        float[][] shares = new float[rows][];
        int[][] functions = new int[Math.min(rows, FUNCTION_ROWS)][];
        for (int k = 0; k < rows; k++) {
            TimeProfile.LocationProfile lp = p.locations().get(k);
            Location loc = defs.locations().get(lp.location());
            labels.add("rank " + loc.rank() + (threaded ? "." + loc.thread() : ""));
            float[] s = new float[BINS * CATEGORIES.size()];
            int[] cols = lp.regions();
            double[] sec = lp.seconds();
            for (int b = 0; b < BINS; b++) {
                for (int j = 0; j < cols.length; j++) {
                    int cat = categoryOfColumn[cols[j]];
                    if (cat >= 0 && p.binWidth() > 0) {
                        s[b * CATEGORIES.size() + cat] += (float) (sec[b * cols.length + j] / p.binWidth());
                    }
                }
            }
            shares[k] = s;
            if (k < functions.length) {
                functions[k] = largest(cols, sec, p.binWidth());
            }
        }
        List<Window> windows = new ArrayList<>();
        Map<Integer, String> names = new LinkedHashMap<>();
        long used = 0;
        int leftOut = 0;
        // the most severe instance of each wait state first, then the second of each, ...: a budget cut leaves out
        // the least severe of every kind rather than whole kinds
        List<Instance> order = new ArrayList<>();
        Map<String, List<Instance>> byMetric = new LinkedHashMap<>();
        for (Instance i : r.mostSevere()) {
            byMetric.computeIfAbsent(i.metric(), m -> new ArrayList<>()).add(i);
        }
        for (int k = 0; ; k++) {
            boolean any = false;
            for (List<Instance> list : byMetric.values()) {
                if (k < list.size()) {
                    order.add(list.get(k));
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
        Map<Instance, Window> made = new LinkedHashMap<>();
        for (Instance i : order) {
            InstanceWindow iw = InstanceWindow.of(defs, r.cube(), first, i, r.causeOf(i));
            List<Integer> shown = iw.concerned(defs);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PerfettoExport.write(src, iw.window(), shown, iw.marksOn(shown), out);
            if (used + out.size() > budget) {
                leftOut++;
                continue;
            }
            used += out.size();
            if (iw.cause() != null) {
                for (DelayCause.Part part : iw.cause().callPaths()) {
                    names.computeIfAbsent(part.callPath(), id -> String.join("/", r.cube().pathNames(id)));
                }
            }
            names.computeIfAbsent(i.callPath(), id -> String.join("/", r.cube().pathNames(id)));
            int k = byMetric.get(i.metric()).indexOf(i) + 1;
            made.put(i, new Window(i, iw.cause(), iw.where(), iw.stretchCut(),
                    scriptSafe(out.toString(StandardCharsets.UTF_8)), shown.size(),
                    dev.straggler.patterns.report.TextReport.timelineCommand(command, i.metric() + ":" + k),
                    iw.waitingLocation() < rows ? iw.waitingLocation() : -1));
        }
        // listed in the report's order: wait state by wait state, most severe first
        for (Instance i : r.mostSevere()) {
            Window w = made.get(i);
            if (w != null) {
                windows.add(w);
            }
        }
        return new TimelinesSection(command, first, p, labels, shares, functions, n - rows, windows, leftOut,
                rootCauses, threaded, names);
    }

    /**
     * Per bin the {@link #FUNCTIONS_PER_BIN} largest exclusive times of one location's profile columns, each as
     * column &lt;&lt; 10 | permille of the bin (at least 1), 0 where there is none.
     */
    private static int[] largest(int[] cols, double[] sec, double binWidth) {
        int[] out = new int[BINS * FUNCTIONS_PER_BIN];
        for (int b = 0; b < BINS; b++) {
            for (int slot = 0; slot < FUNCTIONS_PER_BIN; slot++) {
                int best = -1;
                for (int j = 0; j < cols.length; j++) {
                    double v = sec[b * cols.length + j];
                    if (v <= 0) {
                        continue;
                    }
                    boolean taken = false;
                    for (int q = 0; q < slot; q++) {
                        taken |= out[b * FUNCTIONS_PER_BIN + q] >>> 10 == cols[j];
                    }
                    if (!taken && (best < 0 || v > sec[b * cols.length + best])) {
                        best = j;
                    }
                }
                if (best >= 0) {
                    int permille = (int) Math.max(1, Math.min(1000, Math.round(1000 * sec[b * cols.length + best]
                            / binWidth)));
                    out[b * FUNCTIONS_PER_BIN + slot] = (cols[best] << 10) | permille;
                }
            }
        }
        return out;
    }

    /** '<', '>' and '&' occur in JSON only inside strings, where their unicode escapes mean the same. */
    private static String scriptSafe(String json) {
        return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    }

    @Override
    public String id() {
        return "timelines";
    }

    @Override
    public String title() {
        return "Timelines";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        h.append("<p class=\"hint\">The whole run, one row per " + (threaded ? "location (rank.thread)" : "rank") + ", in " + profile.bins() + " equal time bins: each bin's "
                + "time per paradigm (its height share), time outside every region left blank. The marks are the "
                + "most severe wait-state instances; click one, or pick it in the list, to see it below with its "
                + "messages" + (rootCauses ? " and the delay that caused it" : "") + ".</p>\n");
        if (locationsLeftOut > 0) {
            h.append("<p class=\"hint\">The overview shows the first " + rowLabels.size() + " locations; the other "
                    + locationsLeftOut + " are left out (`straggler timeline --overview --locations` bins any).</p>\n");
        }
        h.append("<div class=\"tls-overview\"><canvas id=\"timelines-overview\" class=\"tls-canvas\"></canvas></div>\n"
                + "<div class=\"tls-status\" id=\"timelines-over-status\">&nbsp;</div>\n"
                + "<div class=\"tls-list\" id=\"timelines-list\"></div>\n");
        if (windowsLeftOut > 0) {
            h.append("<p class=\"hint\">" + windowsLeftOut + " less severe instance" + (windowsLeftOut == 1 ? " is"
                    : "s are") + " left out of this section to keep the page small (the JSON output lists every "
                    + "instance): <code>straggler timeline TRACE --instance METRIC:K --html F</code> draws any of "
                    + "them.</p>\n");
        }
        if (!rootCauses) {
            h.append("<p class=\"hint\">Root causes were not computed, so no delay is marked.</p>\n");
        }
        h.append("<div class=\"tls-window\" id=\"timelines-window\"></div>\n");
    }

    @Override
    public boolean hasData() {
        return true;
    }

    @Override
    public void writeData(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeNumberField("origin_s", firstEventSeconds);
        g.writeObjectFieldStart("overview");
        g.writeNumberField("start", profile.start());
        g.writeNumberField("binWidth", profile.binWidth());
        g.writeNumberField("bins", profile.bins());
        g.writeArrayFieldStart("categories");
        for (String c : CATEGORIES) {
            g.writeString(c);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("functions");
        for (String name : profile.regionNames()) {
            g.writeString(name);
        }
        g.writeEndArray();
        g.writeNumberField("functionsPerBin", FUNCTIONS_PER_BIN);
        g.writeArrayFieldStart("rows");
        for (int k = 0; k < rowLabels.size(); k++) {
            g.writeStartObject();
            g.writeStringField("label", rowLabels.get(k));
            if (k < functions.length) {
                g.writeArrayFieldStart("top");
                for (int v : functions[k]) {
                    g.writeNumber(v);
                }
                g.writeEndArray();
            }
            g.writeArrayFieldStart("shares");
            for (float v : shares[k]) {
                // three decimals of a share are below a pixel of any row
                g.writeNumber(Math.round(Math.min(1f, Math.max(0f, v)) * 1000) / 1000.0);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeArrayFieldStart("instances");
        for (Window w : windows) {
            Instance i = w.instance();
            g.writeStartObject();
            g.writeStringField("metric", i.metric());
            g.writeStringField("name", MetricTree.standaloneName(i.metric()));
            g.writeNumberField("severity", i.severity());
            g.writeNumberField("rank", i.rank());
            g.writeNumberField("thread", i.thread());
            g.writeNumberField("partnerRank", i.partnerRank());
            g.writeNumberField("waitingRanks", i.waitingRanks());
            g.writeNumberField("start", i.start());
            g.writeNumberField("end", i.end());
            g.writeStringField("callpath", pathNames.get(i.callPath()));
            if (w.command() != null) {
                g.writeStringField("command", w.command());
            }
            g.writeNumberField("locationsShown", w.locationsShown());
            // the overview's rows are the locations in index order
            g.writeNumberField("row", w.row());
            DelayCause why = w.cause();
            if (why != null) {
                g.writeObjectFieldStart("cause");
                dev.straggler.patterns.report.AnalysisJson.writeCause(g, why, pathNames::get);
                g.writeBooleanField("stretchCut", w.stretchCut());
                g.writeEndObject();
            }
            g.writeFieldName("events");
            g.writeRawValue(w.events());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeNumberField("leftOut", windowsLeftOut);
        g.writeBooleanField("rootCauses", rootCauses);
        g.writeStringField("trace", origin);
        g.writeEndObject();
    }

    @Override
    public String scriptResource() {
        return "timelines.js";
    }

    /** The scripts: the timeline drawing, then this section's. */
    @Override
    public List<String> scriptResources() {
        return List.of("timeline.js", "timelines.js");
    }

    /** For tests: the windows' instances, in the order listed. */
    List<Instance> instances() {
        return windows.stream().map(Window::instance).toList();
    }
}
