package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.straggler.patterns.algebra.CauseMetrics;
import dev.straggler.patterns.algebra.CubeAttributes;
import dev.straggler.patterns.algebra.DiffReport;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Region;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The interactive view of a severity cube, modelled on the Cube browser: metric tree with totals and share
 * of time, call tree of the selected metric (exclusive and inclusive, expandable), and the per-location bar
 * chart of the selected (metric, call path).
 *
 * <p>Embedded data: definitions, for every metric its non-zero per-call-path sums and its per-location
 * totals, and per-location rows of (metric, call path). Rows are the bulk (call paths × locations per
 * metric), so at most {@code maxRowValues} row values are embedded, each metric's largest rows first
 * (see {@link #chooseRows}), in single precision; the chart says when a row was left out. With the
 * default budget of 2 million values a cube of 100 metrics × 10^4 call paths × 10^3 ranks gives a page
 * of about 25 MB that a browser opens in about a second.
 *
 * <p>In a difference cube ({@code difference = true}) values may be negative; the page then colours
 * increases and decreases differently and sorts by magnitude.
 *
 * <p>A cube whose system dimension was collapsed (the algebra's sum over ranks or mean per rank, e.g. the difference
 * of runs on 16 and 8 processes) has one value per (metric, call path) and no processes: the lower pane then says
 * so in one sentence and gives the selected call path's whole-run value, and, when given the same difference of
 * per-process means, that one beside it, labelled as such; it draws no per-process bars.
 */
public final class CubeExplorerSection implements HtmlSection {
    public static final long DEFAULT_MAX_ROW_VALUES = 2_000_000;

    private final SeverityCube cube;
    private final boolean difference;
    private final long maxRowValues;
    private final SeverityCube means;

    public CubeExplorerSection(SeverityCube cube, boolean difference, long maxRowValues) {
        this(cube, difference, maxRowValues, null);
    }

    /**
     * @param means for a collapsed difference: the same difference of per-process means (the algebra's
     *              {@code SystemMode.MEAN}, same metrics and call paths as {@code cube}); null for none
     */
    public CubeExplorerSection(SeverityCube cube, boolean difference, long maxRowValues, SeverityCube means) {
        this.cube = cube;
        this.difference = difference;
        this.maxRowValues = maxRowValues;
        boolean fits = means != null && collapsed(cube) && means.metrics().size() == cube.metrics().size()
                && means.callPaths().size() == cube.callPaths().size();
        for (int m = 0; fits && m < cube.metrics().size(); m++) {
            fits = means.metrics().get(m).uniqueName().equals(cube.metrics().get(m).uniqueName());
        }
        this.means = fits ? means : null;
    }

    /** True when the cube's system dimension was collapsed by the algebra: its one location is no process. */
    static boolean collapsed(SeverityCube cube) {
        return !CubeAttributes.SYSTEM_LOCATIONS.equals(CubeAttributes.system(cube));
    }

    /**
     * What a collapsed cube holds instead of processes, as one sentence: for a difference of runs with different
     * numbers of processes the diff report's sentence, else what the system dimension became and why.
     */
    static String collapsedSentence(SeverityCube cube) {
        int[] ranks = CubeAttributes.operandRanks(cube);
        String s;
        if ("diff".equals(cube.attributes().get(CubeAttributes.OPERATION)) && ranks != null && ranks.length == 2
                && CubeAttributes.SYSTEM_SUM.equals(CubeAttributes.system(cube))) {
            s = DiffReport.collapsedNote(ranks, cube.attributes().getOrDefault(CubeAttributes.SYSTEM_NOTE,
                    "system: " + CubeAttributes.system(cube)));
        } else {
            String note = cube.attributes().get(CubeAttributes.SYSTEM_NOTE);
            s = "values are " + (CubeAttributes.SYSTEM_MEAN.equals(CubeAttributes.system(cube))
                    ? "means per process" : "summed over processes") + ", one per call path, with no per-process "
                    + "breakdown" + (note == null || note.isBlank() ? "" : " (" + note + ")");
        }
        return Character.toUpperCase(s.charAt(0)) + s.substring(1) + ".";
    }

    @Override
    public String id() {
        return "explorer";
    }

    @Override
    public String title() {
        return difference ? "Difference explorer" : "Performance explorer";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        boolean collapsed = collapsed(cube);
        h.append("<p class=\"hint\">Click a metric to see where in the program it occurs; click a call path to see "
                + (collapsed ? "its value for the whole run" : "how it is distributed over the processes")
                + ". Values of a metric include its sub-metrics; "
                + "<b>excl.</b> is the time in the call path itself, <b>incl.</b> includes its callees.");
        if (difference) {
            h.append(" This is a <b>difference</b> of two experiments: <span class=\"pos\">red</span> values grew, "
                    + "<span class=\"neg\">blue</span> values shrank.");
        }
        h.append("</p>\n<div class=\"explorer\">\n"
                + "<div class=\"pane\"><div class=\"pane-head\">Metrics</div><div class=\"tree\" id=\"explorer-metrics\"></div></div>\n"
                + "<div class=\"pane\"><div class=\"pane-head\">Call tree: <span id=\"explorer-metric-name\"></span>"
                + "<label class=\"opt\"><input type=\"checkbox\" id=\"explorer-zero\"> show zero paths</label></div>"
                + "<div class=\"tree\" id=\"explorer-calltree\"></div></div>\n"
                + "</div>\n<div class=\"pane wide\"><div class=\"pane-head\">" + (collapsed ? "Whole run"
                        : cube.hasThreads() ? "Per thread, by process" : "Per process")
                + "<span class=\"opt\"><label><input type=\"radio\" name=\"explorer-mode\" value=\"excl\" checked> exclusive</label>"
                + "<label><input type=\"radio\" name=\"explorer-mode\" value=\"incl\"> inclusive</label>"
                + "<button type=\"button\" id=\"explorer-all\">All call paths</button></span></div>"
                + (collapsed ? "<div class=\"stats\" id=\"explorer-system\">" + HtmlPage.esc(collapsedSentence(cube)) + "</div>" : "")
                + "<div class=\"path-title\" id=\"explorer-path-name\"></div>"
                + "<div id=\"explorer-stats\" class=\"stats\"></div><div id=\"explorer-chart\" class=\"chart\"></div></div>\n");
    }

    @Override
    public boolean hasData() {
        return true;
    }

    @Override
    public String scriptResource() {
        return "explorer.js";
    }

    @Override
    public void writeData(JsonGenerator g) throws IOException {
        List<Metric> metrics = cube.metrics();
        int nm = metrics.size();
        int np = cube.callPaths().size();
        int nl = cube.locations().size();
        boolean[][] embed = chooseRows();

        g.writeStartObject();
        g.writeBooleanField("difference", difference);
        // a collapsed cube's one location stands for all processes: the page draws no per-process bars for it
        g.writeBooleanField("collapsed", collapsed(cube));
        if (means != null) {
            int[] ranks = CubeAttributes.operandRanks(cube);
            g.writeStringField("meanLabel", ranks != null && ranks.length == 2 && ranks[0] > 0 && ranks[1] > 0
                    ? "difference of per-process means (A / " + ranks[0] + " \u2212 B / " + ranks[1] + ")"
                    : "difference of per-process means");
        }
        g.writeNumberField("timeMetric", timeMetric());
        g.writeArrayFieldStart("metrics");
        for (int m = 0; m < nm; m++) {
            Metric x = metrics.get(m);
            g.writeStartObject();
            g.writeStringField("id", x.uniqueName());
            g.writeStringField("name", x.displayName());
            g.writeStringField("unit", x.unit());
            g.writeBooleanField("integer", x.integer());
            g.writeNumberField("parent", x.parent() == null ? -1 : cube.metricIndex(x.parent()));
            g.writeStringField("descr", x.description());
            g.writeNumberField("total", cube.total(m));
            g.writeEndObject();
        }
        g.writeEndArray();

        g.writeArrayFieldStart("regions");
        for (Region r : cube.regions()) {
            g.writeStartArray();
            g.writeString(r.name());
            g.writeString(r.sourceFile());
            g.writeNumber(r.beginLine());
            g.writeEndArray();
        }
        g.writeEndArray();

        int[] parent = new int[np];
        int[] region = new int[np];
        int[] callsite = new int[np];
        for (CallPath c : cube.callPaths()) {
            parent[c.id()] = c.parent();
            region[c.id()] = c.region();
            callsite[c.id()] = c.callsite();
        }
        g.writeObjectFieldStart("paths");
        writeInts(g, "parent", parent, np);
        writeInts(g, "region", region, np);
        writeInts(g, "callsite", callsite, np);
        g.writeEndObject();

        g.writeArrayFieldStart("locations");
        for (SystemLocation l : cube.locations()) {
            g.writeStartArray();
            g.writeNumber(l.rank());
            g.writeNumber(l.thread());
            g.writeString(l.name() == null ? "" : l.name());
            g.writeEndArray();
        }
        g.writeEndArray();

        // per metric: non-zero call-path sums, per-location totals, embedded rows
        g.writeArrayFieldStart("data");
        int[] ids = new int[np];
        double[] sums = new double[np];
        for (int m = 0; m < nm; m++) {
            int k = 0;
            for (int p = 0; p < np; p++) {
                double s = cube.sumOverLocations(m, p);
                if (s != 0) {
                    ids[k] = p;
                    sums[k++] = s;
                }
            }
            g.writeStartObject();
            writeInts(g, "paths", ids, k);
            g.writeArrayFieldStart("sums");
            for (int i = 0; i < k; i++) {
                g.writeNumber(sums[i]);
            }
            g.writeEndArray();
            double[] perLoc = cube.perLocation(m);
            g.writeArrayFieldStart("perLocation");
            for (int l = 0; l < nl; l++) {
                g.writeNumber(perLoc[l]);
            }
            g.writeEndArray();
            int omitted = 0;
            g.writeArrayFieldStart("rowPaths");
            for (int i = 0; i < k; i++) {
                if (embed[m][ids[i]]) {
                    g.writeNumber(ids[i]);
                } else {
                    omitted++;
                }
            }
            g.writeEndArray();
            g.writeArrayFieldStart("rows");
            for (int i = 0; i < k; i++) {
                if (embed[m][ids[i]]) {
                    double[] row = cube.rowOrNull(m, ids[i]);
                    g.writeStartArray();
                    for (int l = 0; l < nl; l++) {
                        // drawn as bars: single precision halves the page size and is exact for small counts
                        g.writeNumber((float) row[l]);
                    }
                    g.writeEndArray();
                }
            }
            g.writeEndArray();
            g.writeNumberField("omittedRows", omitted);
            // a critical path's length has no per-process mean (the algebra leaves it as it is)
            if (means != null && !CauseMetrics.isPath(metrics.get(m))) {
                g.writeArrayFieldStart("meanPaths");
                for (int p = 0; p < np; p++) {
                    if (means.sumOverLocations(m, p) != 0) {
                        g.writeNumber(p);
                    }
                }
                g.writeEndArray();
                g.writeArrayFieldStart("meanSums");
                for (int p = 0; p < np; p++) {
                    double v = means.sumOverLocations(m, p);
                    if (v != 0) {
                        g.writeNumber(v);
                    }
                }
                g.writeEndArray();
                g.writeNumberField("meanTotal", means.total(m));
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * Which (metric, call path) rows to embed. Within each metric rows are ranked by their absolute sum;
     * then the budget is filled rank by rank across metrics (every metric's largest row, then every
     * metric's second largest, ...), so each metric keeps its hot spots even when one dense metric (time,
     * visits) alone would exceed the budget. Rows that are zero everywhere are never needed.
     */
    private boolean[][] chooseRows() {
        int nm = cube.metrics().size();
        int np = cube.callPaths().size();
        int nl = cube.locations().size();
        boolean[][] embed = new boolean[nm][np];
        int[][] ranked = new int[nm][];
        long nonZeroRows = 0;
        for (int m = 0; m < nm; m++) {
            double[] weight = new double[np];
            int k = 0;
            for (int p = 0; p < np; p++) {
                weight[p] = absSum(cube.rowOrNull(m, p));
                if (weight[p] > 0) {
                    k++;
                }
            }
            Integer[] order = new Integer[k];
            k = 0;
            for (int p = 0; p < np; p++) {
                if (weight[p] > 0) {
                    order[k++] = p;
                }
            }
            Arrays.sort(order, (x, y) -> Double.compare(weight[y], weight[x]));
            ranked[m] = Arrays.stream(order).mapToInt(Integer::intValue).toArray();
            nonZeroRows += k;
        }
        long budget = nonZeroRows * nl <= maxRowValues ? Long.MAX_VALUE : maxRowValues;
        for (int rank = 0; budget >= nl; rank++) {
            boolean any = false;
            for (int m = 0; m < nm && budget >= nl; m++) {
                if (rank < ranked[m].length) {
                    embed[m][ranked[m][rank]] = true;
                    budget -= nl;
                    any = true;
                }
            }
            if (!any) {
                break;
            }
        }
        return embed;
    }

    private static double absSum(double[] row) {
        if (row == null) {
            return 0;
        }
        double s = 0;
        for (double v : row) {
            s += Math.abs(v);
        }
        return s;
    }

    /** The metric percentages refer to: "time" when present, else the first metric measured in seconds. */
    private int timeMetric() {
        int t = cube.metricIndex("time");
        if (t >= 0) {
            return t;
        }
        for (int m = 0; m < cube.metrics().size(); m++) {
            if (cube.metrics().get(m).parent() == null && "sec".equals(cube.metrics().get(m).unit())) {
                return m;
            }
        }
        return -1;
    }

    private static void writeInts(JsonGenerator g, String name, int[] v, int n) throws IOException {
        g.writeFieldName(name);
        g.writeArray(v, 0, n);
    }
}
