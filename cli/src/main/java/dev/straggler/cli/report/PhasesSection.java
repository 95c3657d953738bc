package dev.straggler.cli.report;

import dev.straggler.patterns.phases.IpmBreakdown;
import dev.straggler.patterns.phases.PhaseReport;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/** The IPM breakdown (CALC, MPI, I/O, LBST per phase and experiment) as static HTML tables. */
public final class PhasesSection implements HtmlSection {
    private final List<PhaseReport.Experiment> exps;

    public PhasesSection(List<PhaseReport.Experiment> exps) {
        this.exps = exps;
    }

    @Override
    public String id() {
        return "phases";
    }

    @Override
    public String title() {
        return "Phases: CALC, MPI, I/O, LBST";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        h.append("<p class=\"note\">As IPM splits a phase's time: computation, MPI (without file I/O), file I/O, and "
                + "LBST — the waiting in the phase's collectives because ranks do not reach them together (part of "
                + "MPI). Percentages are of the phase time.</p>");
        if (exps.isEmpty()) {
            return;
        }
        for (int k = 0; k < exps.get(0).phases().size(); k++) {
            h.append("<table class=\"top\"><caption>").append(HtmlPage.esc(exps.get(0).phases().get(k).name()))
                    .append("</caption><thead><tr><th>Experiment</th><th class=\"num\">Ranks</th>"
                            + "<th class=\"num\">Time</th><th class=\"num\">CALC</th><th class=\"num\">MPI</th>"
                            + "<th class=\"num\">I/O</th><th class=\"num\">LBST</th></tr></thead><tbody>");
            for (PhaseReport.Experiment e : exps) {
                IpmBreakdown.Phase p = e.phases().get(k);
                h.append("<tr><td>").append(HtmlPage.esc(e.label())).append("</td><td class=\"num\">")
                        .append(Integer.toString(e.ranks())).append("</td><td class=\"num\">")
                        .append(String.format(Locale.ROOT, "%.6f s", p.totalSum())).append("</td>");
                cell(h, p.calcSum(), p.totalSum());
                cell(h, p.mpiSum(), p.totalSum());
                cell(h, p.ioSum(), p.totalSum());
                cell(h, p.lbstSum(), p.totalSum());
                h.append("</tr>");
            }
            h.append("</tbody></table>");
        }
    }

    private static void cell(Appendable h, double v, double total) throws IOException {
        double pct = total > 0 ? Math.max(0, Math.min(100, 100 * v / total)) : 0;
        h.append("<td class=\"num\">").append(String.format(Locale.ROOT, "%.6f s (%.1f %%)", v, pct)).append("</td>");
    }
}
