package dev.straggler.patterns.scaling;

import org.apache.commons.math3.distribution.FDistribution;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.List;
import java.util.Locale;

/**
 * A model {@code f(p) = c0 + c1·p^i·log2(p)^j} chosen by {@link PmnfModeler}, or the constant {@code c0}
 * ({@code term == null}).
 *
 * @param points     number of distinct process counts fitted (repetitions are averaged first)
 * @param rss        residual sum of squares of the final fit
 * @param smape      symmetric mean absolute percentage error of the final fit (%)
 * @param cvSmape    the leave-one-out SMAPE the model was chosen by (%)
 * @param cvRss      the leave-one-out residual sum of squares
 * @param sumX       Σ term(p) over the points, with {@code sumXX}: what the confidence band needs
 * @param notes      warnings (too few points for a reliable model, ...)
 */
public record PmnfModel(double c0, double c1, PmnfTerm term, int points, double rss, double smape, double r2,
                        double adjustedR2, double cvSmape, double cvRss, double sumX, double sumXX, List<String> notes) {

    public double predict(double p) {
        return term == null ? c0 : c0 + c1 * term.value(p);
    }

    /** Number of coefficients. */
    public int parameters() {
        return term == null ? 1 : 2;
    }

    /** The same model with other notes. */
    public PmnfModel withNotes(List<String> notes) {
        return new PmnfModel(c0, c1, term, points, rss, smape, r2, adjustedR2, cvSmape, cvRss, sumX, sumXX,
                List.copyOf(notes));
    }

    /**
     * The p-value of the term: the F-test of the constant against {@code c0 + c1·term} (nested models; one extra
     * coefficient, {@code points − 2} residual degrees of freedom), {@code F = R²/(1 − R²)·(points − 2)}; the same as
     * the two-sided t-test of {@code c1 = 0}, so it is below 0.05 exactly when the 95 % confidence interval of
     * {@code c1} excludes 0. It treats the term as given, not as chosen among many. NaN for the constant or flat data.
     */
    public double termPValue() {
        if (term == null || Double.isNaN(r2)) {
            return Double.NaN;
        }
        if (r2 >= 1) {
            return 0;
        }
        double f = r2 / (1 - r2) * (points - 2);
        return f <= 0 ? 1 : 1 - new FDistribution(null, 1, points - 2).cumulativeProbability(f);
    }

    /** The p > 1 at which the fitted curve changes direction ({@link PmnfTerm#turningPoint()}); NaN when none. */
    public double turningPoint() {
        return term == null ? Double.NaN : term.turningPoint();
    }

    /**
     * Where the fitted curve turns over beyond the measured process counts: there the form predicts a peak (or a
     * minimum) and the reverse trend after it, which no run shows. A turn inside the measured range is not reported:
     * the runs show it, and beyond them the curve keeps the direction of the last runs.
     *
     * @param p    the turning point
     * @param peak the curve rises to it and falls after ({@code c1 > 0}); else falls to a minimum and rises
     * @param text one line for reports
     */
    public record TurnOver(double p, boolean peak, String text) {
    }

    /** The turn-over of the fitted curve beyond the measured process counts, or null when it has none there. */
    public TurnOver turnOver(double[] measured) {
        double t = turningPoint();
        if (Double.isNaN(t) || measured.length == 0) {
            return null;
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : measured) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        if (t <= hi) {
            return null;
        }
        boolean peak = c1 > 0;
        String text = String.format(Locale.ROOT, "the fitted form turns over at p ≈ %.0f (%s), beyond the measured "
                + "%s–%s: extrapolation unreliable", t, peak ? "a peak" : "a minimum", count(lo), count(hi));
        return new TurnOver(t, peak, text);
    }

    private static String count(double p) {
        return p == Math.rint(p) && Math.abs(p) < 1e15 ? String.valueOf((long) p) : String.format(Locale.ROOT, "%.3g", p);
    }

    /** e.g. "1.25 + 0.031·p^(1/2)·log2(p)". */
    public String formula() {
        if (term == null) {
            return String.format(Locale.ROOT, "%.4g", c0);
        }
        return String.format(Locale.ROOT, "%.4g %s %.4g·%s", c0, c1 < 0 ? "-" : "+", Math.abs(c1), term);
    }

    /**
     * The two-sided band around the fitted curve at {@code p} at the given level (e.g. 0.95): for the mean
     * ({@code prediction = false}, the confidence band) or for a new measurement ({@code prediction = true}).
     * Ordinary least-squares theory with Student's t and {@code points − parameters} degrees of freedom; it does not
     * account for the model having been selected from many hypotheses. {NaN, NaN} without residual degrees of freedom.
     */
    public double[] interval(double p, double level, boolean prediction) {
        int dof = points - parameters();
        double y = predict(p);
        if (dof <= 0) {
            return new double[]{Double.NaN, Double.NaN};
        }
        double s2 = rss / dof;
        double v;
        if (term == null) {
            v = 1.0 / points;
        } else {
            double x = term.value(p);
            double det = points * sumXX - sumX * sumX;
            v = (sumXX - 2 * x * sumX + x * x * points) / det;
        }
        double t = new TDistribution(null, dof).inverseCumulativeProbability(0.5 + level / 2);
        double half = t * Math.sqrt(s2 * ((prediction ? 1 : 0) + v));
        return new double[]{y - half, y + half};
    }
}
