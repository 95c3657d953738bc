package dev.straggler.patterns.scaling;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Locale;

/**
 * The bandwidth-demand analysis ({@link BandwidthDemand}) as terminal text and as JSON (schema
 * {@code straggler.bandwidth/1}); CTIs and bandwidths in percent.
 */
public final class BandwidthReport {
    public static final String SCHEMA = "straggler.bandwidth/1";

    private BandwidthReport() {
    }

    public static String text(BandwidthDemand.Result r) {
        return text(r, null);
    }

    /**
     * @param remedy when no configuration reaches any CTI: what the user can change, appended to that one line
     *               (null for nothing)
     */
    public static String text(BandwidthDemand.Result r, String remedy) {
        StringBuilder sb = new StringBuilder("Bandwidth demand (Medya et al.): CTI = (T_bw - T_100) / T_100\n\n");
        sb.append("Completion-time increments per configuration\n");
        for (BandwidthDemand.Configuration c : r.configurations()) {
            sb.append(String.format(Locale.ROOT, "  p = %d (T_100 = %.6g s):", c.tasks(), c.fullBandwidthTime()));
            for (BandwidthDemand.Point pt : c.points()) {
                sb.append(String.format(Locale.ROOT, "  %s%% %.2f%%", num(pt.bandwidthPercent()), 100 * pt.cti()));
            }
            sb.append('\n');
        }
        if (r.noDemand() != null) {
            // a table of dashes says less than one line saying why there are no values and what would give some
            sb.append("\nBandwidth demand BW_CTI,p: none: ").append(r.noDemand())
                    .append(remedy == null ? "" : "; " + remedy).append('\n');
            for (String n : r.notes()) {
                sb.append("note: ").append(n).append('\n');
            }
            return sb.toString();
        }
        sb.append("\nBandwidth demand BW_CTI,p (% of full bandwidth)\n  ").append(String.format(Locale.ROOT, "%8s",
                "p \\ CTI"));
        for (double cti : r.ctis()) {
            sb.append(String.format(Locale.ROOT, " %9s", num(100 * cti) + "%"));
        }
        sb.append('\n');
        for (BandwidthDemand.Configuration c : r.configurations()) {
            sb.append(String.format(Locale.ROOT, "  %8d", c.tasks()));
            for (double cti : r.ctis()) {
                Double b = r.demands().stream().filter(d -> d.tasks() == c.tasks() && d.cti() == cti).findFirst()
                        .map(BandwidthDemand.Demand::bandwidthPercent).orElse(null);
                sb.append(String.format(Locale.ROOT, " %9s", b == null ? "-" : String.format(Locale.ROOT, "%.2f", b)));
            }
            sb.append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%nDemand constants DC = (BW_p1 / BW_p2) * sqrt(p2 / p1): %d%n",
                r.constants().size()));
        for (BandwidthDemand.PairConstant k : r.constants()) {
            sb.append(String.format(Locale.ROOT, "  p1=%d p2=%d CTI %s%%: %.4f%n", k.p1(), k.p2(), num(100 * k.cti()),
                    k.dc()));
        }
        sb.append(Double.isNaN(r.demandConstant()) ? "  mean: none\n"
                : String.format(Locale.ROOT, "  mean DC = %.4f%n", r.demandConstant()));
        if (!r.predictions().isEmpty()) {
            sb.append("\nPredicted demand BW_CTI,p' = BW_CTI,p* * DC * sqrt(p' / p*)\n");
            for (BandwidthDemand.Prediction p : r.predictions()) {
                sb.append(String.format(Locale.ROOT, "  p'=%d CTI %s%%: %.2f %% of full bandwidth%n", p.tasks(),
                        num(100 * p.cti()), p.bandwidthPercent()));
            }
        }
        for (String n : r.notes()) {
            sb.append("note: ").append(n).append('\n');
        }
        return sb.toString();
    }

    public static ObjectNode json(BandwidthDemand.Result r) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("schema", SCHEMA);
        ArrayNode cfg = o.putArray("configurations");
        for (BandwidthDemand.Configuration c : r.configurations()) {
            ObjectNode n = cfg.addObject();
            n.put("tasks", c.tasks());
            n.put("fullBandwidthTime", c.fullBandwidthTime());
            ArrayNode pts = n.putArray("curve");
            for (BandwidthDemand.Point pt : c.points()) {
                ObjectNode x = pts.addObject();
                x.put("bandwidthPercent", pt.bandwidthPercent());
                x.put("completionTime", pt.completionTime());
                x.put("cti", percent(pt.cti()));
            }
        }
        ArrayNode dem = o.putArray("demands");
        for (BandwidthDemand.Demand d : r.demands()) {
            ObjectNode n = dem.addObject();
            n.put("tasks", d.tasks());
            n.put("cti", percent(d.cti()));
            if (d.bandwidthPercent() == null) {
                n.putNull("bandwidthPercent");
            } else {
                n.put("bandwidthPercent", d.bandwidthPercent());
            }
        }
        ArrayNode dcs = o.putArray("pairConstants");
        for (BandwidthDemand.PairConstant k : r.constants()) {
            ObjectNode n = dcs.addObject();
            n.put("p1", k.p1());
            n.put("p2", k.p2());
            n.put("cti", percent(k.cti()));
            n.put("dc", k.dc());
        }
        if (Double.isNaN(r.demandConstant())) {
            o.putNull("demandConstant");
        } else {
            o.put("demandConstant", r.demandConstant());
        }
        ArrayNode pr = o.putArray("predictions");
        for (BandwidthDemand.Prediction p : r.predictions()) {
            ObjectNode n = pr.addObject();
            n.put("tasks", p.tasks());
            n.put("cti", percent(p.cti()));
            n.put("bandwidthPercent", p.bandwidthPercent());
        }
        if (r.noDemand() == null) {
            o.putNull("noDemand");
        } else {
            o.put("noDemand", r.noDemand());
        }
        ArrayNode notes = o.putArray("notes");
        r.notes().forEach(notes::add);
        return o;
    }

    /** A fraction in percent, without the binary noise of × 100 (0.14 → 14, not 14.000000000000002). */
    public static double percent(double fraction) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.12g", 100 * fraction));
    }

    /** A number without trailing zeros: 100 × 0.14 prints as 14, not 14.00. */
    public static String num(double v) {
        double r = Math.rint(v);
        if (Math.abs(v - r) <= 1e-9 * Math.max(1, Math.abs(v))) {
            return Long.toString((long) r);
        }
        return new java.math.BigDecimal(String.format(Locale.ROOT, "%.4g", v)).stripTrailingZeros().toPlainString();
    }
}
