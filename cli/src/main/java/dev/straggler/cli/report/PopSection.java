package dev.straggler.cli.report;

import dev.straggler.patterns.pop.PopMetrics;
import dev.straggler.patterns.pop.PopText;

import java.io.IOException;
import java.util.List;

/**
 * The POP efficiency table: one column per run, one row per metric of the hierarchy, each cell coloured by POP's
 * bands (at least 80 % good, at least 60 % fair, below poor). Static HTML.
 */
public final class PopSection implements HtmlSection {
    private final List<PopMetrics> runs;
    private final PopMetrics.Scaling scaling;

    /** @param scaling null for runs without a scaling study (no computation scaling, no global efficiency) */
    public PopSection(List<PopMetrics> runs, PopMetrics.Scaling scaling) {
        this.runs = List.copyOf(runs);
        this.scaling = scaling;
    }

    @Override
    public String id() {
        return "pop";
    }

    @Override
    public String title() {
        return "POP efficiencies";
    }

    private static final String[][] ROWS = {
            {"Global efficiency", "0", "global"}, {"Parallel efficiency", "1", "parallel"},
            {"Load balance", "2", "lb"}, {"Communication efficiency", "2", "comm"},
            {"Serialisation efficiency", "3", "ser"}, {"Transfer efficiency", "3", "transfer"},
            {"Computation scaling", "1", "compscal"}, {"Instruction scaling", "2", "ins"}, {"IPC scaling", "2", "ipcscal"},
            {"Frequency scaling", "2", "freqscal"}};

    private static double value(PopMetrics m, String key) {
        return switch (key) {
            case "global" -> m.globalEfficiency();
            case "parallel" -> m.parallelEfficiency();
            case "lb" -> m.loadBalance();
            case "comm" -> m.communicationEfficiency();
            case "ser" -> m.serialisationEfficiency();
            case "transfer" -> m.transferEfficiency();
            case "ins" -> m.instructionScaling();
            case "ipcscal" -> m.ipcScaling();
            case "freqscal" -> m.frequencyScaling();
            default -> m.computationScaling();
        };
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        // which part of the runs the table covers comes first: the numbers mean nothing without it
        h.append("<p class=\"focus\">").append(HtmlPage.esc(PopText.focusLine(runs))).append("</p>");
        h.append("<table class=\"top pop\"><thead><tr><th>Metric</th>");
        for (PopMetrics r : runs) {
            h.append("<th class=\"num\">").append(HtmlPage.esc(r.label())).append("<br><span class=\"self\">p = ")
                    .append(Integer.toString(r.processes())).append("</span></th>");
        }
        h.append("</tr></thead><tbody>");
        for (String[] row : ROWS) {
            boolean scalingRow = row[2].equals("global") || row[2].equals("compscal") || row[2].equals("ins")
                    || row[2].equals("ipcscal") || row[2].equals("freqscal");
            boolean counterRow = row[2].equals("ins") || row[2].equals("ipcscal") || row[2].equals("freqscal");
            if (scalingRow && scaling == null
                    || counterRow && runs.stream().allMatch(r -> Double.isNaN(value(r, row[2])))) {
                continue;
            }
            int depth = scaling == null ? Math.max(0, Integer.parseInt(row[1]) - 1) : Integer.parseInt(row[1]);
            h.append("<tr><td style=\"padding-left:").append(Integer.toString(8 + 18 * depth)).append("px\">")
                    .append(HtmlPage.esc(row[0])).append("</td>");
            for (PopMetrics r : runs) {
                double v = value(r, row[2]);
                String band = PopText.band(v);
                h.append("<td class=\"num").append(band.isEmpty() ? "" : " pop-" + band).append("\">")
                        .append(HtmlPage.esc(PopText.percent(v))).append("</td>");
            }
            h.append("</tr>");
        }
        h.append("</tbody></table>");
        h.append("<p class=\"note\">POP methodology, computed as Cube's Advisor computes it from Scalasca's metrics: load "
                + "balance = mean / max useful computation over processes; communication efficiency = max computation / "
                + "max runtime; serialisation efficiency = max computation / max runtime on an ideal network (runtime "
                + "minus transfer, where transfer = MPI time \u2212 waiting \u2212 MPI file I/O); transfer efficiency = the "
                + "ideal runtime / the runtime; parallel efficiency = load balance \u00d7 communication efficiency.");
        if (scaling != null) {
            h.append(" Computation scaling: total computation of the run with the fewest processes / this run's ("
                    + (scaling == PopMetrics.Scaling.WEAK ? "times p / p<sub>ref</sub>, weak scaling" : "strong scaling")
                    + "); global efficiency = parallel efficiency \u00d7 computation scaling.");
        }
        h.append(" At least 80 % is good, 60 % fair. ").append(HtmlPage.esc(PopText.counterNote(runs))).append(".</p>");
        for (PopMetrics r : runs) {
            for (String n : r.notes()) {
                h.append("<p class=\"note\">").append(HtmlPage.esc(r.label() + ": " + n)).append("</p>");
            }
        }
    }
}
