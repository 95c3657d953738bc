package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Which call paths lengthen the run: the call tree restricted to the critical path, each call path with its time
 * on the path (exclusive and inclusive), its average time per rank outside wait states, its critical-path imbalance
 * and critical imbalance impact (named as Scalasca's metric documentation names them, {@link CriticalPathProfile}),
 * the call paths with the largest impact highlighted; beside it the selected call path per rank (its time, and the
 * part of it on the critical path). A sentence on top ({@link CriticalPathHeadline}) names the length of the path,
 * its critical-path imbalance and the call path with the largest impact.
 *
 * <p>A call path whose critical-path imbalance looks impossible next to its other values carries a note (shown as
 * the tooltip of its value): on the path but no longer than its average, so without imbalance; or below its average
 * yet with imbalance, which its callees hold ({@link #imbalanceNote}).
 *
 * <p>Per-rank values are embedded for the call paths with the most time on the path, at most
 * {@code maxRowValues} values in all (two rows per path); the page says when a path was left out.
 */
public final class CriticalPathSection implements HtmlSection {
    static final long DEFAULT_MAX_ROW_VALUES = 1_000_000;

    private final SeverityCube cube;
    private final CriticalPathProfile profile;
    private final long maxRowValues;

    private CriticalPathSection(SeverityCube cube, CriticalPathProfile profile, long maxRowValues) {
        this.cube = cube;
        this.profile = profile;
        this.maxRowValues = maxRowValues;
    }

    /** The section, or null when the cube has no critical path (root causes not analysed). */
    public static CriticalPathSection forCube(SeverityCube cube, long maxRowValues) {
        CriticalPathProfile p = CriticalPathProfile.of(cube);
        return p == null ? null : new CriticalPathSection(cube, p, maxRowValues);
    }

    @Override
    public String id() {
        return "critical-path";
    }

    @Override
    public String title() {
        return "Critical path";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        String word = PathLabels.threaded(cube) ? "location" : "rank";
        h.append("<p class=\"hint\">The critical path is the chain of activities, passed from " + word + " to "
                + word + " at each wait, that determines the run time: only shortening these shortens the run. <b>"
                + CriticalPathProfile.IMBALANCE + "</b> is the time a call path spends on the path above its average "
                + "per " + word + " outside wait states" + (word.equals("location") ? ", OpenMP management and idle "
                + "threads" : "") + " (none when it is not above that average); <b>"
                + CriticalPathProfile.IMPACT + "</b> is the waiting on other " + word + "s that Scalasca maps onto a "
                + "call path because it takes longer on the path than on them. Values include callees except "
                + "<b>excl.</b>; <span class=\"hot-mark\">\u25b2</span> marks the call paths with the largest "
                + CriticalPathHeadline.lower(profile.hotBy()) + ".</p>\n"
                + "<p class=\"cp-answer\" id=\"critical-path-answer\"></p>\n"
                + "<div class=\"explorer cp-grid\">\n"
                + "<div class=\"pane\"><div class=\"pane-head\">Call tree on the critical path</div>"
                + "<div class=\"tree\" id=\"critical-path-tree\"></div></div>\n"
                + "<div class=\"pane\"><div class=\"pane-head\">Per " + word + "</div>"
                + "<div class=\"path-title\" id=\"critical-path-name\"></div>"
                + "<div class=\"stats\" id=\"critical-path-stats\"></div>"
                + "<div class=\"chart\" id=\"critical-path-chart\"></div></div>\n</div>");
    }

    @Override
    public boolean hasData() {
        return true;
    }

    @Override
    public String scriptResource() {
        return "critical-path.js";
    }

    @Override
    public void writeData(JsonGenerator g) throws IOException {
        List<Integer> paths = profile.onPath();
        int[] index = new int[cube.callPaths().size()];
        Arrays.fill(index, -1);
        for (int i = 0; i < paths.size(); i++) {
            index[paths.get(i)] = i;
        }
        boolean threaded = PathLabels.threaded(cube);
        g.writeStartObject();
        g.writeStringField("word", threaded ? "location" : "rank");
        g.writeArrayFieldStart("locations");
        for (var l : cube.locations()) {
            g.writeString(PathLabels.location(l, threaded));
        }
        g.writeEndArray();
        g.writeNumberField("length", profile.length);
        g.writeNumberField("imbalance", profile.imbalanceTotal());
        g.writeNumberField("impact", profile.impactTotal());
        g.writeObjectFieldStart("names");
        g.writeStringField("imbalance", CriticalPathProfile.IMBALANCE);
        g.writeStringField("impact", CriticalPathProfile.IMPACT);
        g.writeStringField("hot", profile.hotBy());
        g.writeEndObject();
        CauseHeadline.write(g, CriticalPathHeadline.of(profile, cube));
        writeTree(g, paths, index);
        g.writeArrayFieldStart("hot");
        for (int p : profile.hot()) {
            g.writeNumber(index[p]);
        }
        g.writeEndArray();
        writeRows(g, paths, index);
        g.writeEndObject();
    }

    /** The call tree on the path (parents by position in {@code paths}), its names and per-path values. */
    private void writeTree(JsonGenerator g, List<Integer> paths, int[] index) throws IOException {
        g.writeArrayFieldStart("parent");
        for (int p : paths) {
            // a parent has at least its children's time on the path, so it is embedded too
            int parent = cube.callPaths().get(p).parent();
            g.writeNumber(parent < 0 ? -1 : index[parent]);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("label");
        for (int p : paths) {
            CallPath c = cube.callPaths().get(p);
            g.writeString(PathLabels.shortName(cube.regions().get(c.region()).name())
                    + (c.callsite() > 0 ? " @" + c.callsite() : ""));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("title");
        PathLabels labels = new PathLabels(cube);
        for (int p : paths) {
            g.writeString(labels.full(p));
        }
        g.writeEndArray();
        writeValues(g, "pathExcl", profile.pathExcl, paths);
        writeValues(g, "pathIncl", profile.pathIncl, paths);
        double[] average = new double[profile.busyIncl.length];
        for (int p = 0; p < average.length; p++) {
            average[p] = profile.averageIncl(p);
        }
        writeValues(g, "averageIncl", average, paths);
        writeValues(g, "imbalanceIncl", profile.imbalanceIncl, paths);
        writeValues(g, "impactIncl", profile.impactIncl, paths);
        writeValues(g, "impactExcl", profile.impactExcl, paths);
        g.writeArrayFieldStart("imbalanceNote");
        for (int p : paths) {
            g.writeString(imbalanceNote(p));
        }
        g.writeEndArray();
    }

    /**
     * Why a call path's critical-path imbalance (inclusive) is what it is, where it looks impossible next to its time
     * on the path and its average per rank; empty otherwise. Scalasca's imbalance of a call path is its time on the
     * path above its average, callees included, with nothing when it is not above (reference §1.6): a call path on
     * the path no longer than its average has none; one below its average can still hold its callees' imbalance.
     */
    String imbalanceNote(int p) {
        String word = PathLabels.threaded(cube) ? "location" : "rank";
        double on = profile.pathIncl[p];
        double avg = profile.averageIncl(p);
        double imb = profile.imbalanceIncl[p];
        String onText = SummarySection.seconds(on);
        String avgText = SummarySection.seconds(avg);
        String relation = onText.equals(avgText) ? "equal to" : "below";
        String name = CriticalPathHeadline.lower(CriticalPathProfile.IMBALANCE);
        if (on > 0 && imb == 0) {
            return "on the critical path " + onText + ", " + relation + " the average " + avgText + " per " + word
                    + ": no " + name;
        }
        if (imb > 0 && on <= avg) {
            return "on the critical path " + onText + ", " + relation + " the average " + avgText + " per " + word
                    + "; its callees add " + SummarySection.seconds(imb) + " of " + name + ", each above its own "
                    + "average";
        }
        return "";
    }

    /**
     * Per-location inclusive rows (time outside wait states, time on the path) of the call paths with the most
     * time on the path, as many as the budget allows.
     */
    private void writeRows(JsonGenerator g, List<Integer> paths, int[] index) throws IOException {
        int nl = cube.locations().size();
        int time = cube.metricIndex("time");
        int cp = cube.metricIndex("critical_path");
        List<Integer> chosen = new ArrayList<>(paths);
        chosen.sort(Comparator.comparingDouble((Integer p) -> -profile.pathIncl[p]).thenComparingInt(p -> p));
        // without a time metric there is no time outside wait states to show per rank
        int rows = time < 0 ? 0 : (int) Math.min(chosen.size(), maxRowValues / Math.max(1, 2L * nl));
        chosen = chosen.subList(0, rows);
        int[] slot = new int[cube.callPaths().size()];
        Arrays.fill(slot, -1);
        for (int i = 0; i < chosen.size(); i++) {
            slot[chosen.get(i)] = i;
        }
        double[][] busy = new double[rows][nl];
        double[][] onPath = new double[rows][nl];
        int[] waits = dev.straggler.patterns.rootcause.CriticalPathTimes.WAITING.stream().mapToInt(cube::metricIndex)
                .filter(m -> m >= 0).toArray();
        double[] own = new double[nl];
        for (int c = 0; c < cube.callPaths().size() && rows > 0; c++) {
            double[] t = cube.rowOrNull(time, c);
            double[] r = cube.rowOrNull(cp, c);
            if (t == null && r == null) {
                continue;
            }
            Arrays.fill(own, 0);
            if (t != null) {
                for (int l = 0; l < nl; l++) {
                    own[l] = t[l];
                }
                for (int w : waits) {
                    double[] wr = cube.rowOrNull(w, c);
                    for (int l = 0; wr != null && l < nl; l++) {
                        own[l] -= wr[l];
                    }
                }
            }
            for (int a = c; a >= 0; a = cube.callPaths().get(a).parent()) {
                if (slot[a] >= 0) {
                    for (int l = 0; l < nl; l++) {
                        busy[slot[a]][l] += own[l];
                        onPath[slot[a]][l] += r == null ? 0 : r[l];
                    }
                }
            }
        }
        g.writeArrayFieldStart("rowPaths");
        for (int p : chosen) {
            g.writeNumber(index[p]);
        }
        g.writeEndArray();
        writeRowArray(g, "busyRows", busy);
        writeRowArray(g, "pathRows", onPath);
    }

    private void writeRowArray(JsonGenerator g, String name, double[][] rows) throws IOException {
        g.writeArrayFieldStart(name);
        for (double[] row : rows) {
            g.writeStartArray();
            for (double v : row) {
                g.writeNumber((float) Shares.nonNegative(v, profile.length));
            }
            g.writeEndArray();
        }
        g.writeEndArray();
    }

    private static void writeValues(JsonGenerator g, String name, double[] v, List<Integer> paths) throws IOException {
        g.writeArrayFieldStart(name);
        for (int p : paths) {
            g.writeNumber(v[p]);
        }
        g.writeEndArray();
    }
}
