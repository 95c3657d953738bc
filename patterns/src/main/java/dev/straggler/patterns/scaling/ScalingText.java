package dev.straggler.patterns.scaling;

import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/** Terminal tables for the rank-correlation analysis and the scaling models. */
public final class ScalingText {
    private ScalingText() {
    }

    /** The rank-correlation table: r_s, p-value, largest share and the mean share at each task count. */
    public static String render(RankCorrelation.Result r, String what) {
        StringBuilder sb = new StringBuilder();
        TreeMap<Integer, Integer> counts = new TreeMap<>();
        for (int t : r.tasks()) {
            counts.merge(t, 1, Integer::sum);
        }
        sb.append(String.format(Locale.ROOT, "Rank-correlation scalability analysis (Vetter & McCracken): %d experiments, "
                + "%d task counts %s%n", r.experiments().size(), r.distinctTasks(), counts.keySet()));
        String measure = r.measure() == RankCorrelation.Measure.SHARE_OF_COMMUNICATION ? "share of MPI time"
                : "time per task";
        sb.append(String.format(Locale.ROOT, "Spearman r_s of the number of tasks and each %s's %s;"
                + " shown: share >= %.1f %% in some experiment (%d hidden below that)%n", what, measure, 100 * r.shareThreshold(), r.belowThreshold()));
        for (String n : r.notes()) {
            sb.append("note: ").append(n).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%7s %8s %9s  ", "r_s", "p-value", "max share"));
        for (int t : counts.keySet()) {
            sb.append(String.format(Locale.ROOT, "%8s ", "p=" + t));
        }
        sb.append(' ').append(what).append('\n');
        for (RankCorrelation.Row row : r.rows()) {
            sb.append(String.format(Locale.ROOT, "%7s %8s %8.1f%%  ", Double.isNaN(row.rs()) ? "-" : String.format(Locale.ROOT, "%+.3f", row.rs()),
                    Double.isNaN(row.pValue()) ? "-" : String.format(Locale.ROOT, "%.4f", row.pValue()), 100 * row.maxShare()));
            TreeMap<Integer, double[]> mean = new TreeMap<>();
            for (RankCorrelation.Point pt : row.series()) {
                double[] a = mean.computeIfAbsent(pt.tasks(), k -> new double[2]);
                a[0] += pt.share();
                a[1]++;
            }
            for (int t : counts.keySet()) {
                double[] a = mean.get(t);
                sb.append(String.format(Locale.ROOT, "%7.2f%% ", a == null ? 0 : 100 * a[0] / a[1]));
            }
            sb.append(' ').append(row.key()).append('\n');
        }
        return sb.toString();
    }

    /** The Medya fits, predictions and the crossover. */
    public static String render(MedyaModel.Report r) {
        StringBuilder sb = new StringBuilder();
        sb.append("Scaling model T(p) = c0 + c1/p + c2/sqrt(p) (Medya et al.), time per process, least squares over ")
                .append(r.points().size()).append(" runs\n");
        sb.append(String.format(Locale.ROOT, "%-14s %12s %12s %12s %8s %12s%n", "", "c0", "c1", "c2", "R^2", "MSE"));
        // the names of the runs table: time (in the focus), computation (Scalasca's comp), MPI (time in MPI calls,
        // the papers' communication time)
        fit(sb, "time", r.total());
        fit(sb, "computation", r.computation());
        fit(sb, "MPI", r.communication());
        if (r.total().dof() <= 0) {
            sb.append(String.format(Locale.ROOT, "(%d runs for 3 parameters: the curves pass through every run, no "
                    + "degrees of freedom are left, so R^2 and MSE say nothing; add runs to judge the model)%n",
                    r.total().n()));
        }
        List<String> invalid = new java.util.ArrayList<>();
        if (!r.predictions().isEmpty()) {
            sb.append(String.format(Locale.ROOT, "%n%8s %14s %14s %14s%n", "p", "time", "computation", "MPI"));
            for (MedyaModel.Prediction p : r.predictions()) {
                sb.append(String.format(Locale.ROOT, "%8d %14s %14s %14s%n", p.tasks(), prediction(p.total()),
                        prediction(p.computation()), prediction(p.communication())));
                String[] names = {"time", "computation", "MPI"};
                double[] values = {p.total(), p.computation(), p.communication()};
                for (int i = 0; i < names.length; i++) {
                    if (values[i] < 0) {
                        invalid.add(names[i] + " at p = " + p.tasks());
                    }
                }
            }
        }
        if (!invalid.isEmpty()) {
            sb.append("the fitted model predicts a negative time, so it is not valid there: ")
                    .append(String.join(", ", invalid)).append('\n');
        }
        sb.append('\n').append(crossover(r.crossover())).append('\n');
        return sb.toString();
    }

    static String crossover(MedyaModel.Crossover c) {
        return switch (c.kind()) {
            case ALREADY -> String.format(Locale.ROOT, "MPI already takes as long as computation at p = %.0f", c.p());
            case AT -> String.format(Locale.ROOT, "MPI overtakes computation at p = %.1f (from %d processes on)",
                    c.p(), (long) Math.ceil(c.p()));
            case NEVER -> "MPI does not overtake computation according to the fitted models";
        };
    }

    private static void fit(StringBuilder sb, String name, MedyaModel.Fit f) {
        // a coefficient that rounds to zero prints without a sign (Format.unsignedZero)
        sb.append(String.format(Locale.ROOT, "%-14s %12s %12s %12s %8s %12s%n", name, coefficient(f.c0()),
                coefficient(f.c1()), coefficient(f.c2()),
                Double.isNaN(f.r2()) ? "-" : String.format(Locale.ROOT, "%.4f", f.r2()),
                Double.isNaN(f.mse()) ? "-" : String.format(Locale.ROOT, "%.4g", f.mse())));
    }

    private static String coefficient(double c) {
        return dev.straggler.patterns.algebra.Format.unsignedZero(String.format(Locale.ROOT, "%.5g", c));
    }

    /** A predicted time; below zero the model is not valid there, and says so instead of printing the number. */
    static String prediction(double v) {
        return v < 0 ? "invalid (<0)" : String.format(Locale.ROOT, "%.6g", v);
    }

    /** One line per series: chosen model, fit quality, and the prediction with its band at {@code at}. */
    public static String render(java.util.List<ModelSearch.SeriesModel> models, double at, double level) {
        return render(models, at, level, ModelSearch.Search.STRAGGLER);
    }

    /** As {@link #render(java.util.List, double, double)}, naming the search that chose the models. */
    public static String render(java.util.List<ModelSearch.SeriesModel> models, double at, double level,
                                ModelSearch.Search search) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Normal-form models (%s); %.0f %% confidence band at p = %.0f%n",
                search.description(), 100 * level, at));
        int fewest = Integer.MAX_VALUE;
        for (ModelSearch.SeriesModel m : models) {
            if (m.model() != null) {
                fewest = Math.min(fewest, m.model().points());
            }
        }
        if (fewest < 5) {
            sb.append("note: ").append(search == ModelSearch.Search.EXTRA_P
                    ? "only " + fewest + " process counts; Extra-P advises at least 5 for a reliable model"
                    : PmnfModeler.fewPointsNote(fewest)).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%-44s %-34s %8s %9s %12s %27s%n", "Series", "Model", "R^2", "cv SMAPE",
                "at p", "band"));
        for (ModelSearch.SeriesModel m : models) {
            String label = m.series().label();
            if (m.model() == null) {
                sb.append(String.format(Locale.ROOT, "%-44s %s%n", label, "no model: " + m.reason()));
                continue;
            }
            PmnfModel pm = m.model();
            double[] band = pm.interval(at, level, false);
            double v = pm.predict(at);
            // a time below zero is no prediction: the model is not valid at this p; a band reaching below zero is cut
            // at zero, the only part of it a time can take
            String band2 = v < 0 ? "model not valid at this p"
                    : String.format(Locale.ROOT, "%13.5g..%-12.5g", Math.max(0, band[0]), band[1]);
            sb.append(String.format(Locale.ROOT, "%-44s %-34s %8s %8.2f%% %12s %s%n",
                    label.length() > 44 ? label + "\n" + " ".repeat(44) : label, pm.formula(),
                    Double.isNaN(pm.r2()) ? "-" : String.format(Locale.ROOT, "%.4f", pm.r2()), pm.cvSmape(),
                    v < 0 ? "invalid (<0)" : String.format(Locale.ROOT, "%.5g", v), band2));
            PmnfModel.TurnOver turn = pm.turnOver(m.series().p());
            if (turn != null) {
                sb.append(" ".repeat(45)).append(turn.text()).append('\n');
            }
        }
        return sb.toString();
    }
}
