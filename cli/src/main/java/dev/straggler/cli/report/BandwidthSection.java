package dev.straggler.cli.report;

import dev.straggler.patterns.scaling.BandwidthDemand;
import dev.straggler.patterns.scaling.BandwidthReport;

import java.io.IOException;
import java.util.Locale;

/**
 * The bandwidth-demand analysis (Medya et al.) as static HTML: each configuration's CTI per measured bandwidth,
 * the demand per configuration and CTI, the demand constants and the predictions.
 */
public final class BandwidthSection implements HtmlSection {
    private final BandwidthDemand.Result r;
    private final String remedy;

    public BandwidthSection(BandwidthDemand.Result r) {
        this(r, null);
    }

    /** @param remedy when no configuration reaches any CTI: what the user can change (null for nothing) */
    public BandwidthSection(BandwidthDemand.Result r, String remedy) {
        this.r = r;
        this.remedy = remedy;
    }

    @Override
    public String id() {
        return "bandwidth";
    }

    @Override
    public String title() {
        return "Bandwidth demand";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        h.append("<p class=\"note\">CTI = (T<sub>bw</sub> − T<sub>100</sub>) / T<sub>100</sub>; BW<sub>CTI,p</sub> "
                + "is the bandwidth at which p reaches the CTI; DC = (BW<sub>p1</sub> / BW<sub>p2</sub>) · √(p2 / p1), "
                + "averaged over all pairs and CTIs (Medya et al.).</p>");
        // one column per bandwidth level measured in any configuration, highest first
        java.util.TreeSet<Double> levels = new java.util.TreeSet<>(java.util.Comparator.reverseOrder());
        r.configurations().forEach(c -> c.points().forEach(p -> levels.add(p.bandwidthPercent())));
        h.append("<table class=\"top\"><caption>Completion-time increment CTI per measured bandwidth</caption><thead>"
                + "<tr><th class=\"num\">p</th><th class=\"num\">T<sub>100</sub></th>");
        for (double l : levels) {
            h.append("<th class=\"num\">").append(HtmlPage.esc(BandwidthReport.num(l) + " %")).append("</th>");
        }
        h.append("</tr></thead><tbody>");
        for (BandwidthDemand.Configuration c : r.configurations()) {
            h.append("<tr><td class=\"num\">").append(Integer.toString(c.tasks())).append("</td><td class=\"num\">")
                    .append(String.format(Locale.ROOT, "%.6g s", c.fullBandwidthTime())).append("</td>");
            for (double l : levels) {
                Double cti = c.points().stream().filter(p -> p.bandwidthPercent() == l).findFirst()
                        .map(BandwidthDemand.Point::cti).orElse(null);
                h.append("<td class=\"num\">").append(cti == null ? "–"
                        : HtmlPage.esc(String.format(Locale.ROOT, "%.2f %%", 100 * cti))).append("</td>");
            }
            h.append("</tr>");
        }
        h.append("</tbody></table>");
        if (r.noDemand() != null) {
            // one sentence instead of a table without values
            h.append("<p>").append(HtmlPage.esc("No bandwidth demand: " + r.noDemand()
                    + (remedy == null ? "" : "; " + remedy) + ".")).append("</p>");
            notes(h);
            return;
        }
        h.append("<table class=\"top\"><caption>Bandwidth demand BW<sub>CTI,p</sub> (% of full bandwidth)</caption>"
                + "<thead><tr><th class=\"num\">p</th>");
        for (double cti : r.ctis()) {
            h.append("<th class=\"num\">CTI ").append(HtmlPage.esc(BandwidthReport.num(100 * cti) + " %"))
                    .append("</th>");
        }
        h.append("</tr></thead><tbody>");
        for (BandwidthDemand.Configuration c : r.configurations()) {
            h.append("<tr><td class=\"num\">").append(Integer.toString(c.tasks())).append("</td>");
            for (double cti : r.ctis()) {
                Double b = r.demands().stream().filter(d -> d.tasks() == c.tasks() && d.cti() == cti).findFirst()
                        .map(BandwidthDemand.Demand::bandwidthPercent).orElse(null);
                h.append("<td class=\"num\">").append(b == null ? "–" : String.format(Locale.ROOT, "%.2f", b))
                        .append("</td>");
            }
            h.append("</tr>");
        }
        for (int q : r.predictions().stream().mapToInt(BandwidthDemand.Prediction::tasks).distinct().toArray()) {
            h.append("<tr><td class=\"num\">").append(Integer.toString(q)).append(" (predicted)</td>");
            for (double cti : r.ctis()) {
                Double b = r.predictions().stream().filter(p -> p.tasks() == q && p.cti() == cti).findFirst()
                        .map(BandwidthDemand.Prediction::bandwidthPercent).orElse(null);
                h.append("<td class=\"num\">").append(b == null ? "–" : String.format(Locale.ROOT, "%.2f", b))
                        .append("</td>");
            }
            h.append("</tr>");
        }
        h.append("</tbody></table>");
        h.append("<p>").append(HtmlPage.esc(Double.isNaN(r.demandConstant()) ? "No demand constant: fewer than two "
                + "configurations reach a CTI." : String.format(Locale.ROOT, "Demand constant DC = %.4f (mean of %d "
                + "pairwise constants).", r.demandConstant(), r.constants().size()))).append("</p>");
        notes(h);
    }

    private void notes(Appendable h) throws IOException {
        if (!r.notes().isEmpty()) {
            h.append("<ul class=\"notes\">");
            for (String n : r.notes()) {
                h.append("<li>").append(HtmlPage.esc(n)).append("</li>");
            }
            h.append("</ul>");
        }
    }
}
