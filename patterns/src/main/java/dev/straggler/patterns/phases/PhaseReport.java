package dev.straggler.patterns.phases;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Locale;

/**
 * The IPM breakdown of one or more experiments as terminal text and JSON (schema {@code straggler.phases/1}):
 * per phase a row per experiment (as the paper's tables per concurrency), and for a single experiment one row per
 * rank as well. Fractions are of the phase time and never outside [0, 100] %.
 */
public final class PhaseReport {
    public static final String SCHEMA = "straggler.phases/1";

    /** One experiment: its label, process count and phases. */
    public record Experiment(String label, int ranks, List<IpmBreakdown.Phase> phases) {
    }

    private PhaseReport() {
    }

    public static String text(List<Experiment> exps, int maxRankRows) {
        StringBuilder sb = new StringBuilder("Time per phase: CALC, MPI, I/O and LBST (load balance incl. "
                + "synchronisation, part of MPI), as IPM splits it\n");
        if (exps.isEmpty()) {
            return sb.toString();
        }
        for (int k = 0; k < exps.get(0).phases().size(); k++) {
            String name = exps.get(0).phases().get(k).name();
            sb.append(String.format(Locale.ROOT, "%nphase %s%n", name));
            sb.append(String.format(Locale.ROOT, "  %-22s %12s %18s %18s %18s %18s%n", "experiment / rank",
                    "time [s]", "CALC", "MPI", "I/O", "LBST"));
            for (Experiment e : exps) {
                IpmBreakdown.Phase p = e.phases().get(k);
                row(sb, e.label() + " (" + e.ranks() + ")", p.totalSum(), p.calcSum(), p.mpiSum(), p.ioSum(),
                        p.lbstSum());
                if (exps.size() == 1 && p.total().length <= maxRankRows) {
                    for (int l = 0; l < p.total().length; l++) {
                        row(sb, "  rank " + p.ranks()[l], p.total()[l], p.calc(l), p.mpi()[l], p.io()[l], p.lbst()[l]);
                    }
                }
            }
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, String label, double total, double calc, double mpi, double io,
                            double lbst) {
        sb.append(String.format(Locale.ROOT, "  %-22s %12.6f %s %s %s %s%n", label, total, part(calc, total),
                part(mpi, total), part(io, total), part(lbst, total)));
    }

    private static String part(double v, double total) {
        return String.format(Locale.ROOT, "%10.6f %6.1f%%", v, fraction(v, total));
    }

    static double fraction(double v, double total) {
        return total > 0 ? Math.max(0, Math.min(100, 100 * v / total)) : 0;
    }

    public static ObjectNode json(List<Experiment> exps) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("schema", SCHEMA);
        ArrayNode arr = o.putArray("experiments");
        for (Experiment e : exps) {
            ObjectNode x = arr.addObject();
            x.put("label", e.label());
            x.put("ranks", e.ranks());
            ArrayNode ph = x.putArray("phases");
            for (IpmBreakdown.Phase p : e.phases()) {
                ObjectNode n = ph.addObject();
                n.put("name", p.name());
                n.put("time", p.totalSum());
                part(n, "calc", p.calcSum(), p.totalSum());
                part(n, "mpi", p.mpiSum(), p.totalSum());
                part(n, "io", p.ioSum(), p.totalSum());
                part(n, "lbst", p.lbstSum(), p.totalSum());
                ArrayNode ranks = n.putArray("perRank");
                for (int l = 0; l < p.total().length; l++) {
                    ObjectNode r = ranks.addObject();
                    r.put("rank", p.ranks()[l]);
                    r.put("time", p.total()[l]);
                    r.put("calc", p.calc(l));
                    r.put("mpi", p.mpi()[l]);
                    r.put("io", p.io()[l]);
                    r.put("lbst", p.lbst()[l]);
                }
            }
        }
        return o;
    }

    private static void part(ObjectNode n, String key, double v, double total) {
        n.put(key, v);
        n.put(key + "Percent", fraction(v, total));
    }
}
