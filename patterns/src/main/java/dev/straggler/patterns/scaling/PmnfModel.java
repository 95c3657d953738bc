package dev.straggler.patterns.scaling;

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
