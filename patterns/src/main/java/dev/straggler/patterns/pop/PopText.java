package dev.straggler.patterns.pop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.patterns.focus.Focus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The POP efficiency table as POP's reports lay it out: one row per metric, indented by the hierarchy, one column
 * per run, values in percent; on a terminal coloured by POP's bands (at least 80 % good, at least 60 % fair, below
 * poor). Also the one-line summary {@code analyze} prints and the JSON document (schema {@code straggler.pop/1}).
 */
public final class PopText {
    public static final String SCHEMA = "straggler.pop/1";

    private PopText() {
    }

    /**
     * A row of the table: its label (with indentation), JSON key, how to get its value, whether it compares runs, and
     * whether it is an efficiency (percent, coloured) or a plain figure.
     */
    record Row(String label, String key, ToDoubleFunction<PopMetrics> value, boolean scaling, boolean counter,
               boolean efficiency) {
    }

    static final List<Row> ROWS = List.of(
            new Row("Global efficiency", "globalEfficiency", PopMetrics::globalEfficiency, true, false, true),
            new Row("  Parallel efficiency", "parallelEfficiency", PopMetrics::parallelEfficiency, false, false, true),
            new Row("    Load balance", "loadBalance", PopMetrics::loadBalance, false, false, true),
            new Row("    Communication efficiency", "communicationEfficiency", PopMetrics::communicationEfficiency, false, false, true),
            new Row("      Serialisation efficiency", "serialisationEfficiency", PopMetrics::serialisationEfficiency, false, false, true),
            new Row("      Transfer efficiency", "transferEfficiency", PopMetrics::transferEfficiency, false, false, true),
            new Row("  Computation scaling", "computationScaling", PopMetrics::computationScaling, true, false, true),
            new Row("    Instruction scaling", "instructionScaling", PopMetrics::instructionScaling, true, true, true),
            new Row("    IPC scaling", "ipcScaling", PopMetrics::ipcScaling, true, true, true),
            new Row("    Frequency scaling", "frequencyScaling", PopMetrics::frequencyScaling, true, true, true),
            new Row("Useful IPC", "ipc", PopMetrics::ipc, false, true, false),
            new Row("Useful frequency (GHz)", "frequencyGHz", m -> m.frequency() / 1e9, false, true, false));

    /** Efficiency bands of the POP methodology. */
    public static final double GOOD = 0.8;
    public static final double FAIR = 0.6;

    /** The band of a value: "good", "fair", "poor", or "" for none. */
    public static String band(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        return v >= GOOD ? "good" : v >= FAIR ? "fair" : "poor";
    }

    /** "85.7 %", or "-" where the value does not exist (a single run has no scaling). */
    public static String percent(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f %%", 100 * v);
    }

    /**
     * @param colour ANSI colours by band (only for a terminal)
     * @param scaling how the runs scale, for the heading; null for a table without the scaling rows
     */
    public static String render(List<PopMetrics> runs, boolean colour, PopMetrics.Scaling scaling) {
        return render(runs, colour, scaling, null);
    }

    /**
     * As above, with each run's hybrid efficiencies ({@code hybrid}, parallel to {@code runs}, an entry null for a
     * run without OpenMP threads, or the list null): when any run has them, the table gains POP's multiplicative
     * hybrid rows (docs/pop.md).
     */
    public static String render(List<PopMetrics> runs, boolean colour, PopMetrics.Scaling scaling,
                                List<PopHybrid> hybrid) {
        String table = renderMpi(runs, colour, scaling);
        if (hybrid == null || hybrid.stream().allMatch(java.util.Objects::isNull)) {
            return table;
        }
        int width = 34;
        int col = 10;
        for (PopMetrics r : runs) {
            col = Math.max(col, (r.label() + " (p=" + r.processes() + ")").length() + 2);
        }
        StringBuilder sb = new StringBuilder(table);
        sb.append("Hybrid MPI+OpenMP (POP's multiplicative model, the same focus; every thread's useful computation)\n");
        String[] labels = {"Hybrid parallel efficiency", "  MPI parallel efficiency", "    Load balance",
            "    Communication efficiency", "  OpenMP parallel efficiency", "    Load balance",
            "    Communication efficiency"};
        for (int k = 0; k < labels.length; k++) {
            sb.append(String.format(Locale.ROOT, "%-" + width + "s", labels[k]));
            for (PopHybrid h : hybrid) {
                double v = h == null ? Double.NaN : switch (k) {
                    case 0 -> h.hybridParallelEfficiency();
                    case 1 -> h.mpiParallelEfficiency();
                    case 2 -> h.mpiLoadBalance();
                    case 3 -> h.mpiCommunicationEfficiency();
                    case 4 -> h.openMpParallelEfficiency();
                    case 5 -> h.openMpLoadBalance();
                    default -> h.openMpCommunicationEfficiency();
                };
                sb.append(String.format(Locale.ROOT, "%" + col + "s", percent(v)));
            }
            sb.append('\n');
        }
        sb.append("(- for a run without OpenMP threads; the OpenMP factors are quotients of two efficiencies and may "
                + "exceed 100 %)\n");
        return sb.toString();
    }

    private static String renderMpi(List<PopMetrics> runs, boolean colour, PopMetrics.Scaling scaling) {
        int width = 34;
        List<String> heads = new ArrayList<>();
        int col = 10;
        for (PopMetrics r : runs) {
            String h = r.label() + " (p=" + r.processes() + ")";
            heads.add(h);
            col = Math.max(col, h.length() + 2);
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "POP efficiencies%s%n", scaling == null ? ""
                : " (" + scaling.name().toLowerCase(Locale.ROOT) + " scaling, reference: the run with the fewest processes)"));
        sb.append(focusLine(runs)).append('\n');
        sb.append(String.format(Locale.ROOT, "%-" + width + "s", "Metric"));
        for (String h : heads) {
            sb.append(String.format(Locale.ROOT, "%" + col + "s", h));
        }
        sb.append('\n');
        for (Row row : ROWS) {
            if (row.scaling() && scaling == null || row.counter() && runs.stream().allMatch(r -> Double.isNaN(row.value().applyAsDouble(r)))) {
                continue;
            }
            // without the scaling rows the table starts one level down: its top is parallel efficiency
            String label = scaling == null && row.label().startsWith("  ") ? row.label().substring(2) : row.label();
            sb.append(String.format(Locale.ROOT, "%-" + width + "s", label));
            for (PopMetrics r : runs) {
                double v = row.value().applyAsDouble(r);
                String cell = String.format(Locale.ROOT, "%" + col + "s", row.efficiency() ? percent(v)
                        : Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v));
                if (colour && row.efficiency() && !Double.isNaN(v)) {
                    String c = v >= GOOD ? "\u001b[32m" : v >= FAIR ? "\u001b[33m" : "\u001b[31m";
                    cell = c + cell + "\u001b[0m";
                }
                sb.append(cell);
            }
            sb.append('\n');
        }
        sb.append(counterNote(runs)).append('\n');
        for (PopMetrics r : runs) {
            for (String n : r.notes()) {
                sb.append(r.label()).append(": ").append(n).append('\n');
            }
        }
        return sb.toString();
    }

    /** What the counters allowed: which of instruction, IPC and frequency scaling are missing, and why. */
    public static String counterNote(List<PopMetrics> runs) {
        boolean ins = runs.stream().allMatch(r -> !Double.isNaN(r.instructions()));
        boolean cyc = runs.stream().allMatch(r -> !Double.isNaN(r.cycles()));
        if (ins && cyc) {
            return "Counters: " + PopCounters.INSTRUCTIONS + " and " + PopCounters.CYCLES + " in useful computation";
        }
        if (runs.stream().anyMatch(r -> r.focus().kind() == Focus.Kind.PATH)) {
            return "Instruction, IPC and frequency scaling: not available for a call-path focus (the trace's counters "
                    + "are totals per region, not per call path)";
        }
        StringBuilder sb = new StringBuilder();
        if (!ins) {
            sb.append("Instruction and IPC scaling: not available (not every run is an OTF2 trace with ")
                    .append(PopCounters.INSTRUCTIONS).append(")");
        }
        if (!cyc) {
            sb.append(sb.length() > 0 ? "; frequency" : "Frequency").append(" scaling: not available (not every run is an "
                    + "OTF2 trace with ").append(PopCounters.CYCLES).append(")");
        }
        return sb.toString();
    }

    /**
     * Which part of the runs the efficiencies cover: the focus, and for each run how much of its time (summed over
     * processes) lies outside it.
     */
    public static String focusLine(List<PopMetrics> runs) {
        if (runs.isEmpty()) {
            return "";
        }
        String focus = runs.get(0).focus().description();
        boolean same = runs.stream().allMatch(r -> r.focus().description().equals(focus));
        StringBuilder sb = new StringBuilder("Focus: ");
        if (!same) {
            for (PopMetrics r : runs) {
                sb.append(r == runs.get(0) ? "" : "; ").append(r.label()).append(": ").append(r.focus().description());
            }
            return sb.toString();
        }
        sb.append(focus);
        if (runs.stream().anyMatch(r -> r.leftOut() > 0)) {
            sb.append(runs.size() == 1 ? " (left out: " : " (left out per run: ");
            for (PopMetrics r : runs) {
                sb.append(r == runs.get(0) ? "" : ", ").append(runs.size() == 1 ? "" : r.label() + " ")
                        .append(percent(r.leftOut()));
            }
            sb.append(" of the time summed over processes; --focus all for the whole run)");
        }
        return sb.toString();
    }

    /**
     * The hybrid line {@code analyze} prints under the POP line for a run with OpenMP threads: the multiplicative
     * model's efficiencies over the same part of the run ({@link PopHybrid}).
     */
    public static String hybridLine(PopHybrid h) {
        return String.format(Locale.ROOT, "POP hybrid (the same part of the run, %d processes, %d threads): hybrid "
                        + "parallel efficiency %s = MPI parallel efficiency %s (load balance %s x communication %s) x "
                        + "OpenMP parallel efficiency %s (load balance %s x communication %s)", h.processes(),
                h.threads(), percent(h.hybridParallelEfficiency()), percent(h.mpiParallelEfficiency()),
                percent(h.mpiLoadBalance()), percent(h.mpiCommunicationEfficiency()),
                percent(h.openMpParallelEfficiency()), percent(h.openMpLoadBalance()),
                percent(h.openMpCommunicationEfficiency()))
                // the model's OpenMP factors are quotients of two efficiencies, not shares: they may exceed 100 %
                + (h.openMpLoadBalance() > 1 || h.openMpCommunicationEfficiency() > 1
                ? "; an OpenMP factor above 100 % means the threads are better balanced or communicate less than"
                + " the processes" : "");
    }

    /** The line {@code analyze} prints: the efficiencies, and the part of the run they cover. */
    public static String line(PopMetrics m) {
        if (!m.mpiApplies()) {
            return "POP: the MPI efficiencies do not apply (no MPI time in " + m.focus().description() + ")";
        }
        String left = m.leftOut() > 0 ? String.format(Locale.ROOT, ", %s of the time left out", percent(m.leftOut())) : "";
        // a hybrid run's efficiencies are MPI's only: the line says so, as the pop table's note does
        String mpiOnly = m.mpiOnly() ? "; MPI only: OpenMP and other runtime time and idle threads count as neither "
                + "computation nor transfer" : "";
        return String.format(Locale.ROOT, "POP (%s%s%s): parallel efficiency %s = load balance %s x communication "
                        + "efficiency %s (serialisation %s, transfer %s)", m.focus().description(), left, mpiOnly, percent(m.parallelEfficiency()),
                percent(m.loadBalance()), percent(m.communicationEfficiency()), percent(m.serialisationEfficiency()),
                percent(m.transferEfficiency()));
    }

    public static ObjectNode toJson(List<PopMetrics> runs, PopMetrics.Scaling scaling) {
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("schema", SCHEMA);
        if (scaling != null) {
            doc.put("scaling", scaling.name().toLowerCase(Locale.ROOT));
        }
        ArrayNode arr = doc.putArray("runs");
        for (PopMetrics r : runs) {
            ObjectNode j = arr.addObject();
            j.put("label", r.label());
            j.put("processes", r.processes());
            j.put("focus", r.focus().description());
            j.put("leftOutShare", r.leftOut());
            j.put("mpiApplies", r.mpiApplies());
            for (Row row : ROWS) {
                double v = row.value().applyAsDouble(r);
                if (!Double.isNaN(v)) {
                    j.put(row.key(), v);
                }
            }
            j.put("meanComputation", r.meanComputation());
            j.put("maxComputation", r.maxComputation());
            j.put("maxRuntime", r.maxRuntime());
            j.put("maxIdealRuntime", r.maxIdealRuntime());
            j.put("totalComputation", r.totalComputation());
            ArrayNode notes = j.putArray("notes");
            r.notes().forEach(notes::add);
        }
        return doc;
    }
}
