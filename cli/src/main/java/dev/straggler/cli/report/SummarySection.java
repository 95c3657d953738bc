package dev.straggler.cli.report;

import dev.straggler.patterns.algebra.Format;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Static overview: the caller's key facts about the trace (as given, in order) and where the time goes.
 * Needs no script.
 *
 * <p>"Where the time goes" partitions total time over the metric tree below {@code time}: each metric's
 * own share is its total minus its sub-metrics' totals (Cube's exclusive metric value, reference §1.2), so
 * the rows add up to the total. The largest {@value #TOP} parts are listed and one more row holds the rest, saying
 * how many parts it holds, so that the shares still add up to 100 %. A flat cube (wait states as separate roots, as
 * in scout.cubex) has no such partition; it lists its time metrics by total instead, and a last row counts the ones
 * it leaves out (they overlap, so their sum would mean nothing).
 */
public final class SummarySection implements HtmlSection {
    private static final int TOP = 10;

    private final Map<String, String> facts;
    private final SeverityCube cube;
    private final boolean difference;

    /**
     * @param cube       may be null for a page without a cube
     * @param difference the cube is a difference of two experiments: shares are of the total change, growth
     *                   and reduction get their own colours
     */
    public SummarySection(Map<String, String> facts, SeverityCube cube, boolean difference) {
        this.facts = facts == null ? Map.of() : facts;
        this.cube = cube;
        this.difference = difference;
    }

    @Override
    public String id() {
        return "summary";
    }

    @Override
    public String title() {
        return "Summary";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        h.append("<div class=\"summary\">");
        if (!facts.isEmpty()) {
            h.append("<table class=\"facts\"><tbody>");
            for (Map.Entry<String, String> e : facts.entrySet()) {
                h.append("<tr><th>").append(HtmlPage.esc(e.getKey())).append("</th><td>")
                        .append(HtmlPage.esc(e.getValue())).append("</td></tr>");
            }
            h.append("</tbody></table>");
        }
        if (cube != null) {
            writeTimeBreakdown(h);
        }
        h.append("</div>");
    }

    /** One row of the time table: a metric, its value, and whether the value is the metric's own share. */
    private record Row(int metric, double value, boolean self) {
    }

    private void writeTimeBreakdown(Appendable h) throws IOException {
        int time = cube.metricIndex("time");
        if (time < 0) {
            return;
        }
        double total = cube.total(time);
        List<Row> rows = new ArrayList<>();
        boolean hierarchical = !cube.childMetrics(time).isEmpty();
        if (hierarchical) {
            collectSelf(time, rows);
        } else {
            for (int m = 0; m < cube.metrics().size(); m++) {
                if (m != time && "sec".equals(cube.metrics().get(m).unit()) && cube.total(m) != 0) {
                    rows.add(new Row(m, cube.total(m), false));
                }
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        rows.sort(Comparator.comparingDouble((Row r) -> Math.abs(r.value)).reversed());
        String caption = difference ? (hierarchical ? "Where the time changed" : "Largest time changes")
                : (hierarchical ? "Where the time goes" : "Largest time metrics");
        h.append("<table class=\"top\"><caption>").append(caption).append("</caption><thead><tr><th>Metric</th><th class=\"num\">")
                .append(difference ? "Change" : "Time").append("</th><th class=\"num\">")
                .append(difference ? "% of total change" : "% of time").append("</th><th></th></tr></thead><tbody>");
        int shown = Math.min(TOP, rows.size());
        for (Row r : rows.subList(0, shown)) {
            Metric x = cube.metrics().get(r.metric);
            // a metric whose display name other metrics share ("Wait at Barrier") goes by its own name here
            String name = dev.straggler.patterns.MetricTree.standaloneName(x.uniqueName());
            boolean ownName = !name.equals(x.displayName());
            h.append("<tr title=\"").append(HtmlPage.esc(x.description())).append("\"><td>")
                    .append(HtmlPage.esc(name));
            if (r.self) {
                // the part of the metric none of its sub-metrics holds: say which ones it leaves out
                StringBuilder without = new StringBuilder();
                for (int c : cube.childMetrics(r.metric)) {
                    without.append(without.length() == 0 ? "" : ", ").append(cube.metrics().get(c).displayName());
                }
                h.append(" <span class=\"self\">(").append(without.length() == 0 ? "itself"
                        : "excluding " + HtmlPage.esc(without.toString())).append(")</span>");
            } else if (x.parent() != null && !"time".equals(x.parent()) && !ownName) {
                h.append(" <span class=\"self\">(in ").append(HtmlPage.esc(cube.metric(x.parent()).displayName())).append(")</span>");
            }
            h.append("</td>");
            valueCells(h, r.value, total);
            h.append("</tr>");
        }
        if (shown < rows.size()) {
            List<Row> rest = rows.subList(shown, rows.size());
            StringBuilder names = new StringBuilder();
            double sum = 0;
            for (Row r : rest) {
                sum += r.value;
                names.append(names.length() == 0 ? "" : ", ").append(cube.metrics().get(r.metric).displayName())
                        .append(' ').append(seconds(r.value));
            }
            String count = rest.size() + " more " + (hierarchical ? "part" : "time metric") + (rest.size() == 1 ? "" : "s");
            h.append("<tr class=\"rest\" title=\"").append(HtmlPage.esc(names.toString())).append("\"><td>")
                    .append(count).append(" <span class=\"self\">(not listed; hover for them)</span></td>");
            if (hierarchical) {
                valueCells(h, sum, total);
            } else {
                h.append("<td></td><td></td><td></td>");
            }
            h.append("</tr>");
        }
        h.append("</tbody></table>");
    }

    /** The value, its share of the total and its bar. */
    private void valueCells(Appendable h, double value, double total) throws IOException {
        double pct = total != 0 ? 100 * value / total : 0;
        h.append("<td class=\"num\">").append(seconds(value)).append("</td><td class=\"num\">")
                .append(Format.unsignedZero(String.format(Locale.ROOT, "%.1f %%", pct))).append("</td><td class=\"barcell\"><span class=\"bar")
                .append(difference ? (value < 0 ? " negbar" : " posbar") : "").append("\" style=\"width:")
                .append(String.format(Locale.ROOT, "%.1f", Math.min(100, Math.abs(pct)))).append("%\"></span></td>");
    }

    /** Own share (total minus sub-metric totals) of every metric in the subtree of {@code m}. */
    private void collectSelf(int m, List<Row> out) {
        List<Integer> children = cube.childMetrics(m);
        double self = cube.total(m);
        for (int c : children) {
            self -= cube.total(c);
            collectSelf(c, out);
        }
        // rounding leaves tiny remainders when a metric is fully split into its children
        if (Math.abs(self) > 1e-9 * Math.max(1, Math.abs(cube.total(m)))) {
            out.add(new Row(m, self, !children.isEmpty()));
        }
    }

    /** Seconds to about three significant digits in s, ms, µs or ns, as the page's script formats them. */
    static String seconds(double v) {
        double a = Math.abs(v);
        if (a == 0) {
            return "0 s";
        }
        String[] units = {"s", "ms", "\u00b5s", "ns"};
        int u = 0;
        while (a < 1 && u < units.length - 1) {
            a *= 1e3;
            u++;
        }
        String digits = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f";
        return (v < 0 ? "\u2212" : "") + String.format(Locale.ROOT, digits, a) + " " + units[u];
    }
}
