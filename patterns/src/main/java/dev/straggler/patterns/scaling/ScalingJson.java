package dev.straggler.patterns.scaling;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.patterns.algebra.DiffJson;

import java.util.List;

/**
 * JSON for the scaling analyses: {@code straggler.scaling/1} (rank correlation, with the rank-scatter and
 * share-versus-p data an HTML plot needs) and {@code straggler.model/1} (Medya fits, normal-form models with
 * curves and confidence bands). Non-finite numbers are null.
 */
public final class ScalingJson {
    public static final String SCALING_SCHEMA = "straggler.scaling/1";
    public static final String MODEL_SCHEMA = "straggler.model/1";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ScalingJson() {
    }

    public static ObjectNode toJson(RankCorrelation.Result r, String what) {
        ObjectNode o = F.objectNode();
        o.put("schema", SCALING_SCHEMA);
        o.put("method", "Spearman rank correlation of task count and share of MPI time, MPI_Init and MPI_Finalize left out (Vetter & McCracken 2001)");
        o.put("subject", what);
        o.put("measure", r.measure().name());
        ArrayNode exps = o.putArray("experiments");
        for (int i = 0; i < r.experiments().size(); i++) {
            ObjectNode e = exps.addObject();
            e.put("label", r.experiments().get(i));
            e.put("tasks", r.tasks()[i]);
        }
        o.put("distinctTasks", r.distinctTasks());
        o.put("shareThreshold", r.shareThreshold());
        o.put("belowThreshold", r.belowThreshold());
        ArrayNode notes = o.putArray("notes");
        r.notes().forEach(notes::add);
        ArrayNode rows = o.putArray("rows");
        for (RankCorrelation.Row row : r.rows()) {
            ObjectNode n = rows.addObject();
            n.put("key", row.key());
            DiffJson.num(n, "rs", row.rs());
            DiffJson.num(n, "pValue", row.pValue());
            n.put("maxShare", row.maxShare());
            ArrayNode series = n.putArray("series");
            for (RankCorrelation.Point p : row.series()) {
                ObjectNode s = series.addObject();
                s.put("experiment", p.experiment());
                s.put("tasks", p.tasks());
                s.put("time", p.time());
                s.put("share", p.share());
            }
            array(n.putArray("taskRanks"), row.taskRanks());
            array(n.putArray("shareRanks"), row.shareRanks());
        }
        return o;
    }

    public static ObjectNode toJson(WaitStateScaling.Result r) {
        ObjectNode o = toJson(r.analysis(), "wait state");
        ArrayNode d = o.putArray("denominators");
        r.denominators().forEach(d::add);
        for (var row : o.withArray("rows")) {
            WaitStateScaling.Key k = r.keys().get(row.get("key").asText());
            if (k != null) {
                ObjectNode n = (ObjectNode) row;
                n.put("metric", k.metric());
                n.put("displayName", k.displayName());
                ArrayNode path = n.putArray("path");
                k.path().forEach(path::add);
            }
        }
        return o;
    }

    /**
     * The model report: any part may be null and is then left out.
     *
     * @param curveTo largest p of the plotted curves (the predictions' largest p, say)
     */
    public static ObjectNode toJson(MedyaModel.Report medya, List<ModelSearch.SeriesModel> models, double curveTo,
                                    double level) {
        ObjectNode o = F.objectNode();
        o.put("schema", MODEL_SCHEMA);
        if (medya != null) {
            ObjectNode m = o.putObject("medya");
            m.put("formula", "c0 + c1/p + c2/sqrt(p)");
            ArrayNode pts = m.putArray("points");
            for (ModelPoint p : medya.points()) {
                ObjectNode n = pts.addObject();
                n.put("label", p.label());
                n.put("tasks", p.tasks());
                n.put("total", p.total());
                n.put("computation", p.computation());
                n.put("communication", p.communication());
            }
            m.set("total", fit(medya.total()));
            m.set("computation", fit(medya.computation()));
            m.set("communication", fit(medya.communication()));
            ArrayNode pr = m.putArray("predictions");
            for (MedyaModel.Prediction p : medya.predictions()) {
                ObjectNode n = pr.addObject();
                n.put("tasks", p.tasks());
                n.put("total", p.total());
                n.put("computation", p.computation());
                n.put("communication", p.communication());
                // a negative predicted time means the fitted model is not valid at this p
                n.put("valid", p.total() >= 0 && p.computation() >= 0 && p.communication() >= 0);
            }
            ObjectNode c = m.putObject("crossover");
            c.put("kind", medya.crossover().kind().name());
            DiffJson.num(c, "p", medya.crossover().p());
            c.put("text", ScalingText.crossover(medya.crossover()));
        }
        if (models != null) {
            ArrayNode arr = o.putArray("models");
            o.put("bandLevel", level);
            for (ModelSearch.SeriesModel sm : models) {
                ObjectNode n = arr.addObject();
                n.put("metric", sm.series().metric());
                ArrayNode path = n.putArray("callPath");
                sm.series().callPath().forEach(path::add);
                array(n.putArray("p"), sm.series().p());
                array(n.putArray("values"), sm.series().values());
                if (sm.model() == null) {
                    n.put("reason", sm.reason());
                    continue;
                }
                PmnfModel pm = sm.model();
                n.put("formula", pm.formula());
                DiffJson.num(n, "c0", pm.c0());
                DiffJson.num(n, "c1", pm.c1());
                if (pm.term() != null) {
                    n.put("exponent", pm.term().exponent());
                    n.put("logExponent", pm.term().logExponent());
                }
                DiffJson.num(n, "r2", pm.r2());
                DiffJson.num(n, "adjustedR2", pm.adjustedR2());
                DiffJson.num(n, "smape", pm.smape());
                DiffJson.num(n, "cvSmape", pm.cvSmape());
                DiffJson.num(n, "rss", pm.rss());
                DiffJson.num(n, "termPValue", pm.termPValue());
                PmnfModel.TurnOver turn = pm.turnOver(sm.series().p());
                if (turn == null) {
                    n.putNull("turnOver");
                } else {
                    ObjectNode t = n.putObject("turnOver");
                    t.put("p", turn.p());
                    t.put("kind", turn.peak() ? "peak" : "minimum");
                    t.put("text", turn.text());
                }
                ArrayNode notes = n.putArray("notes");
                pm.notes().forEach(notes::add);
                n.set("curve", curve(pm, sm.series().p(), curveTo, level));
            }
        }
        return o;
    }

    /** The fitted curve with its confidence band on 40 geometrically spaced points from the smallest p to {@code to}. */
    static ObjectNode curve(PmnfModel m, double[] p, double to, double level) {
        double from = Double.POSITIVE_INFINITY;
        double max = 0;
        for (double v : p) {
            from = Math.min(from, v);
            max = Math.max(max, v);
        }
        double hi = Math.max(to, max);
        ObjectNode c = F.objectNode();
        ArrayNode ps = c.putArray("p");
        ArrayNode fit = c.putArray("fit");
        ArrayNode lo = c.putArray("lower");
        ArrayNode up = c.putArray("upper");
        int n = 40;
        for (int i = 0; i < n; i++) {
            double x = from * Math.pow(hi / from, i / (double) (n - 1));
            double[] band = m.interval(x, level, false);
            ps.add(x);
            fit.add(m.predict(x));
            if (Double.isFinite(band[0])) {
                lo.add(band[0]);
                up.add(band[1]);
            } else {
                lo.addNull();
                up.addNull();
            }
        }
        return c;
    }

    private static ObjectNode fit(MedyaModel.Fit f) {
        ObjectNode n = F.objectNode();
        n.put("c0", f.c0());
        n.put("c1", f.c1());
        n.put("c2", f.c2());
        DiffJson.num(n, "r2", f.r2());
        DiffJson.num(n, "mse", f.mse());
        n.put("n", f.n());
        n.put("degreesOfFreedom", f.dof());
        n.put("formula", f.formula());
        return n;
    }

    private static void array(ArrayNode a, double[] v) {
        for (double x : v) {
            if (Double.isFinite(x)) {
                a.add(x);
            } else {
                a.addNull();
            }
        }
    }
}
