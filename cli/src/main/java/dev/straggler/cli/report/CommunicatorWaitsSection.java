package dev.straggler.cli.report;

import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.Metric;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * "Waiting by communicator": the waiting on the operations of communicators of each size, with the share up to that
 * size, and the communicators with the most waiting — the per-communicator view of the KOJAK paper's GYRO study
 * (reference §9.2). Static HTML; shown when waiting happens on more than one communicator.
 */
final class CommunicatorWaitsSection implements HtmlSection {
    private static final int TOP = 10;
    private final List<CommunicatorWaits> comms;

    private CommunicatorWaitsSection(List<CommunicatorWaits> comms) {
        this.comms = comms;
    }

    /** The section, or null when fewer than two communicators have waiting. */
    static CommunicatorWaitsSection of(List<CommunicatorWaits> comms) {
        return comms.stream().filter(c -> c.waiting() > 0).count() < 2 ? null : new CommunicatorWaitsSection(comms);
    }

    @Override
    public String id() {
        return "communicators";
    }

    @Override
    public String title() {
        return "Waiting by communicator";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        List<CommunicatorWaits.SizeClass> classes = CommunicatorWaits.bySize(comms);
        double all = classes.stream().mapToDouble(CommunicatorWaits.SizeClass::waiting).sum();
        h.append("<p class=\"note\">Wait states on the operations of each communicator (point-to-point waits on the "
                + "communicator of the message), grouped by communicator size.</p>");
        h.append("<table class=\"top\"><caption>By communicator size</caption><thead><tr><th class=\"num\">Size</th>"
                + "<th class=\"num\">Communicators</th><th class=\"num\">Waiting</th><th class=\"num\">Share</th>"
                + "<th class=\"num\">Up to this size</th><th>Largest wait state</th></tr></thead><tbody>");
        double cumulative = 0;
        for (CommunicatorWaits.SizeClass k : classes) {
            cumulative += k.waiting();
            String w = k.largestWaitState();
            h.append("<tr><td class=\"num\">").append(Integer.toString(k.size())).append("</td><td class=\"num\">")
                    .append(Integer.toString(k.communicators())).append("</td><td class=\"num\">")
                    .append(HtmlPage.esc(seconds(k.waiting()))).append("</td><td class=\"num\">")
                    .append(share(k.waiting(), all)).append("</td><td class=\"num\">")
                    .append(share(Math.min(cumulative, all), all)).append("</td><td>")
                    .append(w == null ? "" : HtmlPage.esc(display(w) + " " + seconds(k.metrics().get(w))))
                    .append("</td></tr>");
        }
        h.append("</tbody></table>");
        List<CommunicatorWaits> waiting = comms.stream().filter(c -> c.waiting() > 0)
                .sorted(Comparator.comparingDouble((CommunicatorWaits c) -> -c.waiting())
                        .thenComparingInt(CommunicatorWaits::id))
                .toList();
        List<CommunicatorWaits> top = waiting.subList(0, Math.min(TOP, waiting.size()));
        h.append("<table class=\"top\"><caption>Communicators with the most waiting</caption><thead><tr>"
                + "<th>Communicator</th><th class=\"num\">Size</th><th>Ranks</th><th class=\"num\">Waiting</th>"
                + "<th class=\"num\">Share</th></tr></thead><tbody>");
        for (CommunicatorWaits c : top) {
            h.append("<tr><td>").append(HtmlPage.esc(c.name().isEmpty() ? "#" + c.id() : c.name()))
                    .append("</td><td class=\"num\">").append(Integer.toString(c.size())).append("</td><td>")
                    .append(HtmlPage.esc(ranks(c.ranks()))).append("</td><td class=\"num\">")
                    .append(HtmlPage.esc(seconds(c.waiting()))).append("</td><td class=\"num\">")
                    .append(share(c.waiting(), all)).append("</td></tr>");
        }
        if (waiting.size() > top.size()) {
            // the communicators not listed, counted so that the list does not pass for all of them
            int more = waiting.size() - top.size();
            double rest = waiting.subList(top.size(), waiting.size()).stream().mapToDouble(CommunicatorWaits::waiting)
                    .sum();
            h.append("<tr><td colspan=\"3\">").append(Integer.toString(more)).append(" more communicator")
                    .append(more == 1 ? "" : "s").append("</td><td class=\"num\">").append(HtmlPage.esc(seconds(rest)))
                    .append("</td><td class=\"num\">").append(share(rest, all)).append("</td></tr>");
        }
        h.append("</tbody></table>");
    }

    private static String ranks(int[] r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.length && i < 8; i++) {
            b.append(i > 0 ? ", " : "").append(r[i]);
        }
        if (r.length > 8) {
            b.append(", … (").append(r.length).append(")");
        }
        return b.toString();
    }

    private static String display(String unique) {
        for (Metric m : MetricTree.ALL) {
            if (m.uniqueName().equals(unique)) {
                return m.displayName();
            }
        }
        return unique;
    }

    private static String seconds(double v) {
        return v >= 1e-3 ? String.format(Locale.ROOT, "%.6f s", v) : String.format(Locale.ROOT, "%.3e s", v);
    }

    private static String share(double part, double whole) {
        if (!(whole > 0)) {
            return "0 %";
        }
        return String.format(Locale.ROOT, "%.1f %%", Math.max(0, Math.min(100, 100 * part / whole)));
    }
}
