package dev.straggler.cli.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.algebra.CommunicatorDiff;
import dev.straggler.patterns.algebra.DiffReport;
import dev.straggler.patterns.cube.PathNames;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.focus.Focus;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sections of {@code straggler study}'s page that only it has: the runs side by side, the growth from the
 * smallest to the largest run, the root causes per run, the waiting per communicator size per run, and the include
 * list for the next run. The scaling and model sections are the ones {@code scaling} and {@code model} draw.
 */
public final class StudyReport {
    private StudyReport() {
    }

    /** The line saying which part of the runs the page's figures cover. */
    public static HtmlSection focus(String note) {
        return new StaticSection("study-focus", "Focus of analysis", h ->
                h.append("<p>").append(HtmlPage.esc(note)).append("</p>"));
    }

    /** The runs, smallest first, one row each, with the cause of each run's largest wait state below. */
    public static HtmlSection runs(List<RunSummary> runs, Focus focus) {
        String outside = focus.outsideHeading();
        return new StaticSection("study-runs", "Runs", h -> {
            h.append("<table class=\"top\"><thead><tr><th>Run</th><th class=\"num\">Processes</th>"
                    + "<th class=\"num\">Time per process</th><th class=\"num\">Computation</th><th class=\"num\">MPI</th>"
                    + "<th class=\"num\">Waiting</th>");
            if (outside != null) {
                h.append("<th class=\"num\">").append(HtmlPage.esc(outside)).append("</th>");
            }
            h.append("<th>Largest wait state (all processes)</th></tr></thead><tbody>");
            for (RunSummary r : runs) {
                h.append("<tr><td>").append(HtmlPage.esc(r.label())).append("</td><td class=\"num\">")
                        .append(Integer.toString(r.processes())).append("</td><td class=\"num\">")
                        .append(HtmlPage.esc(RunSummary.seconds(r.timePerProcess()))).append("</td><td class=\"num\">")
                        .append(HtmlPage.esc(RunSummary.percent(r.computation()))).append("</td><td class=\"num\">")
                        .append(HtmlPage.esc(RunSummary.percent(r.mpi()))).append("</td><td class=\"num\">")
                        .append(HtmlPage.esc(RunSummary.percent(r.waiting()))).append("</td>");
                if (outside != null) {
                    h.append("<td class=\"num\">").append(HtmlPage.esc(RunSummary.percent(r.outside()))).append("</td>");
                }
                h.append("<td>").append(r.largestWait() == null ? "none" : HtmlPage.esc(r.largestWait() + " "
                        + RunSummary.seconds(r.largestSeconds()))).append("</td></tr>");
            }
            h.append("</tbody></table>");
            h.append("<p class=\"note\">Time per process is the time in the focus (").append(HtmlPage.esc(focus.description()))
                    .append("), summed over its call paths and all processes, divided by the processes; computation "
                    + "(Scalasca's Computation: outside MPI and the other parallel runtimes), MPI and waiting are shares "
                    + "of it. Waiting adds up Scalasca's wait states as the POP table does (Late Sender, Late Receiver, "
                    + "Early Reduce, Early Scan, Late Broadcast, Wait at N\u00d7N, Wait at Barrier, Wait at Finalize).");
            if (outside != null) {
                h.append(" ").append(HtmlPage.esc(outside)).append(" is the share of the whole run's time outside the "
                        + "focus").append(focus.kind() == Focus.Kind.DEFAULT ? " (in MPI_Init, MPI_Init_thread and "
                        + "MPI_Finalize)" : "").append(".");
            }
            h.append("</p>");
        });
    }

    /**
     * A minus B where A is the largest run and B the smallest: the headline, the change per kind of time, the
     * (wait state or computation, call path) pairs that took the largest share of the growth, and per communicator
     * size the change of waiting.
     *
     * @param comms null when either run lacks communicators (a .cubex)
     */
    public static HtmlSection growth(DiffReport d, CommunicatorDiff comms, List<DiffReport.Entry> top) {
        String title = "Growth from " + d.subtrahend() + " to " + d.minuend();
        return new StaticSection("study-growth", title, h -> {
            h.append("<p class=\"headline\">").append(HtmlPage.escQuoted(d.headline())).append("</p>");
            for (String n : d.notes()) {
                h.append("<p class=\"note\">").append(HtmlPage.escQuoted(n)).append("</p>");
            }
            if (!d.categories().isEmpty()) {
                h.append("<table class=\"top\"><caption>Time by kind, all processes</caption><thead><tr><th>Kind</th>"
                        + "<th class=\"num\">").append(HtmlPage.esc(d.subtrahend())).append("</th><th class=\"num\">")
                        .append(HtmlPage.esc(d.minuend())).append("</th><th class=\"num\">Change</th>"
                                + "<th class=\"num\">Share</th></tr></thead><tbody>");
                for (DiffReport.CategoryChange c : d.categories()) {
                    if (c.change().a() == 0 && c.change().b() == 0) {
                        continue;
                    }
                    row(h, c.kind().description(), c.change());
                }
                h.append("</tbody></table>");
            }
            if (!top.isEmpty()) {
                h.append("<table class=\"top\"><caption>Where the time grew: wait state or computation, and call path"
                        + "</caption><thead><tr><th>What, where</th><th class=\"num\">").append(HtmlPage.esc(d.subtrahend()))
                        .append("</th><th class=\"num\">").append(HtmlPage.esc(d.minuend()))
                        .append("</th><th class=\"num\">Change</th><th class=\"num\">Share</th></tr></thead><tbody>");
                for (DiffReport.Entry e : top) {
                    String where = e.path().isEmpty() ? "" : " at " + PathNames.join(e.path());
                    row(h, e.displayName() + where, e.change());
                }
                h.append("</tbody></table>");
            }
            if (!d.categories().isEmpty() || !top.isEmpty()) {
                h.append("<p class=\"note\">Share: an increase as a part of all increases of time (")
                        .append(HtmlPage.esc(signed(d.grossGrowth()))).append(", every part of time that grew, summed), a "
                        + "decrease as a part of all decreases (").append(HtmlPage.esc(signed(-d.grossReduction())))
                        .append("); the net change is ").append(HtmlPage.esc(signed(d.totalTime().diff())))
                        .append(". So no share exceeds 100 % where parts moved in opposite directions.</p>");
            }
            if (comms != null && !comms.rows().isEmpty()) {
                double growth = 0;
                for (CommunicatorDiff.Row r : comms.rows()) {
                    growth += Math.max(0, r.change());
                }
                h.append("<table class=\"top\"><caption>Waiting by communicator size</caption><thead><tr>"
                        + "<th class=\"num\">Size</th><th class=\"num\">Communicators</th><th class=\"num\">")
                        .append(HtmlPage.esc(d.subtrahend())).append("</th><th class=\"num\">")
                        .append(HtmlPage.esc(d.minuend())).append("</th><th class=\"num\">Change</th>"
                                + "<th class=\"num\">Share of the growth of waiting</th></tr></thead><tbody>");
                for (CommunicatorDiff.Row r : comms.rows()) {
                    h.append("<tr><td class=\"num\">").append(Integer.toString(r.size())).append("</td><td class=\"num\">")
                            .append(r.countB() + " \u2192 " + r.countA()).append("</td><td class=\"num\">")
                            .append(HtmlPage.esc(RunSummary.seconds(r.b()))).append("</td><td class=\"num\">")
                            .append(HtmlPage.esc(RunSummary.seconds(r.a()))).append("</td><td class=\"num\">")
                            .append(HtmlPage.esc(signed(r.change()))).append("</td><td class=\"num\">")
                            .append(r.change() > 0 && growth > 0 ? HtmlPage.esc(RunSummary.percent(r.change() / growth)) : "")
                            .append("</td></tr>");
                }
                h.append("</tbody></table>");
            }
        });
    }

    private static void row(Appendable h, String what, DiffReport.Change c) throws IOException {
        h.append("<tr><td>").append(HtmlPage.esc(what)).append("</td><td class=\"num\">")
                .append(HtmlPage.esc(RunSummary.seconds(c.b()))).append("</td><td class=\"num\">")
                .append(HtmlPage.esc(RunSummary.seconds(c.a()))).append("</td><td class=\"num\">")
                .append(HtmlPage.esc(signed(c.diff()))).append("</td><td class=\"num\">")
                .append(Double.isNaN(c.share()) ? "" : HtmlPage.esc(shareOfGrowth(c.share()))).append("</td></tr>");
    }

    /** A share of the gross growth (positive) or of the gross reduction (negative), as a signed percentage. */
    public static String shareOfGrowth(double share) {
        String s = String.format(Locale.ROOT, "%+.1f %%", 100 * share);
        return s.matches("[+-]0\\.0 %") ? "0.0 %" : s;
    }

    static String signed(double seconds) {
        return (seconds > 0 ? "+" : seconds < 0 ? "\u2212" : "") + RunSummary.seconds(Math.abs(seconds));
    }

    /**
     * Per run with root causes, one sentence per wait-state kind with waiting: what causes it.
     *
     * @param missing which runs lack root causes and why, in one line; null when every run has them
     */
    public static HtmlSection causes(List<String> labels, List<SeverityCube> cubes, String missing) {
        return new StaticSection("study-causes", "Root causes per run", h -> {
            boolean any = false;
            for (int i = 0; i < cubes.size(); i++) {
                SeverityCube c = cubes.get(i);
                if (!Analysis.rootCausesAnalysed(c)) {
                    continue;
                }
                List<WaitCauses.View> views = WaitCauses.of(c);
                if (views.isEmpty()) {
                    continue;
                }
                any = true;
                h.append("<h3>").append(HtmlPage.esc(labels.get(i))).append("</h3><ul class=\"causes\">");
                for (WaitCauses.View v : views.subList(0, Math.min(3, views.size()))) {
                    h.append("<li>");
                    for (CauseHeadline.Segment s : CauseHeadline.of(v, c)) {
                        if (s.path()) {
                            h.append("<code title=\"").append(HtmlPage.esc(s.title())).append("\">")
                                    .append(HtmlPage.esc(s.text())).append("</code>");
                        } else {
                            h.append(HtmlPage.esc(s.text()));
                        }
                    }
                    h.append("</li>");
                }
                h.append("</ul>");
            }
            if (missing != null) {
                h.append("<p class=\"note\">").append(HtmlPage.esc(missing)).append("</p>");
            } else if (!any) {
                h.append("<p class=\"note\">No run has waiting to explain.</p>");
            }
        });
    }

    /**
     * Waiting per communicator size (rows) and run (columns), with its share of the run's waiting.
     *
     * @param perRun  per run its wait states per communicator, null where it has none
     * @param missing which runs have none and why, in one line; null when every run has them
     */
    public static HtmlSection communicators(List<String> labels, List<List<CommunicatorWaits>> perRun,
                                            String missing) {
        return new StaticSection("study-communicators", "Waiting by communicator size", h -> {
            TreeMap<Integer, double[]> bySize = new TreeMap<>();
            double[] all = new double[perRun.size()];
            for (int i = 0; i < perRun.size(); i++) {
                if (perRun.get(i) == null) {
                    continue;
                }
                for (CommunicatorWaits.SizeClass k : CommunicatorWaits.bySize(perRun.get(i))) {
                    bySize.computeIfAbsent(k.size(), s -> new double[perRun.size()])[i] += k.waiting();
                    all[i] += k.waiting();
                }
            }
            String note = missing == null ? "" : "<p class=\"note\">" + HtmlPage.esc(missing) + "</p>";
            if (bySize.isEmpty()) {
                boolean someHave = perRun.stream().anyMatch(java.util.Objects::nonNull);
                h.append(note);
                if (someHave) {
                    h.append("<p class=\"note\">").append(missing == null ? "No run" : "No other run")
                            .append(" waits in any communicator.</p>");
                }
                return;
            }
            h.append("<table class=\"top\"><thead><tr><th class=\"num\">Communicator size</th>");
            for (String l : labels) {
                h.append("<th class=\"num\">").append(HtmlPage.esc(l)).append("</th>");
            }
            h.append("</tr></thead><tbody>");
            for (Map.Entry<Integer, double[]> e : bySize.entrySet()) {
                h.append("<tr><td class=\"num\">").append(Integer.toString(e.getKey())).append("</td>");
                for (int i = 0; i < perRun.size(); i++) {
                    double v = e.getValue()[i];
                    h.append("<td class=\"num\">").append(perRun.get(i) == null ? "n/a" : v == 0 ? "" :
                            HtmlPage.esc(RunSummary.seconds(v) + " (" + RunSummary.percent(v / all[i]) + ")")).append("</td>");
                }
                h.append("</tr>");
            }
            h.append("</tbody></table><p class=\"note\">Wait states on the operations of communicators of each size, "
                    + "as seconds over all processes and as a share of the run's waiting.</p>").append(note);
        });
    }

    /**
     * The include list for the next run.
     *
     * @param rows one per run: label, processes, bytes before, bytes after
     * @param projection sentence on the next run's trace size
     * @param dropped names of the functions the list drops
     */
    public static HtmlSection includeList(String policy, String file, List<Object[]> rows, String projection,
                                          List<String> dropped, List<String> kept) {
        return new StaticSection("study-include-list", "Include list for the next run", h -> {
            h.append("<p>").append(HtmlPage.esc(projection)).append("</p>");
            if (file != null) {
                h.append("<p>Filter file: <code>").append(HtmlPage.esc(file)).append("</code> (")
                        .append(HtmlPage.esc(policy)).append(")</p>");
            }
            h.append("<table class=\"top\"><caption>Estimated trace size</caption><thead><tr><th>Run</th>"
                    + "<th class=\"num\">Processes</th><th class=\"num\">Recorded as run</th>"
                    + "<th class=\"num\">With the include list</th><th class=\"num\">Reduction</th></tr></thead><tbody>");
            for (Object[] r : rows) {
                long before = (Long) r[2];
                long after = (Long) r[3];
                h.append("<tr><td>").append(HtmlPage.esc((String) r[0])).append("</td><td class=\"num\">")
                        .append(r[1].toString()).append("</td><td class=\"num\">").append(HtmlPage.esc(bytes(before)))
                        .append("</td><td class=\"num\">").append(HtmlPage.esc(bytes(after))).append("</td><td class=\"num\">")
                        .append(before > 0 ? HtmlPage.esc(RunSummary.percent(1 - (double) after / before)) : "")
                        .append("</td></tr>");
            }
            h.append("</tbody></table>");
            if (!dropped.isEmpty()) {
                h.append("<p class=\"note\">Dropped (").append(Integer.toString(dropped.size())).append("): ")
                        .append(HtmlPage.esc(String.join(", ", dropped.subList(0, Math.min(40, dropped.size())))))
                        .append(dropped.size() > 40 ? HtmlPage.esc(" and " + (dropped.size() - 40) + " more, listed in the file") : "")
                        .append("</p>");
            }
            if (!kept.isEmpty()) {
                h.append("<p class=\"note\">Kept user functions (").append(Integer.toString(kept.size())).append("): ")
                        .append(HtmlPage.esc(String.join(", ", kept.subList(0, Math.min(40, kept.size())))))
                        .append(kept.size() > 40 ? HtmlPage.esc(" and " + (kept.size() - 40) + " more") : "")
                        .append("</p>");
            }
        });
    }

    /** Bytes with a binary unit. */
    public static String bytes(double b) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        int u = 0;
        while (Math.abs(b) >= 1024 && u < units.length - 1) {
            b /= 1024;
            u++;
        }
        return u == 0 ? String.format(Locale.ROOT, "%.0f B", b) : String.format(Locale.ROOT, "%.1f %s", b, units[u]);
    }

    /** A section of static HTML. */
    private record StaticSection(String id, String title, Body body) implements HtmlSection {
        @Override
        public void writeBody(Appendable html) throws IOException {
            body.write(html);
        }
    }

    @FunctionalInterface
    private interface Body {
        void write(Appendable h) throws IOException;
    }

    /** The first {@code n} entries of a list, as a new list. */
    static <T> List<T> first(List<T> l, int n) {
        return new ArrayList<>(l.subList(0, Math.min(n, l.size())));
    }
}
