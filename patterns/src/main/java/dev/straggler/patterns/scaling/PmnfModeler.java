package dev.straggler.patterns.scaling;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Straggler's single-parameter model search: every hypothesis {@code c0 + c1·p^i·log2(p)^j} of Extra-P's normal form,
 * and the constant, is fitted by least squares and scored by leave-one-out cross-validation; the simpler model is
 * kept unless a richer one is clearly better.
 *
 * <p>As in Extra-P, repetitions at one process count are averaged before modelling, the default score is the SMAPE
 * of the left-out points, a hypothesis whose term contributes less than {@code epsilon} of the measured value at
 * every point is discarded, log terms are only used when every p is at least 1, and five process counts are the
 * advised minimum (fewer give a note; fewer than three are refused).
 *
 * <p>Unlike Extra-P, the lowest score does not win outright. The best of 116 forms beats the constant on left-out
 * points for about two thirds of pure-noise series (simulation in docs/scaling-models.md), so the models are ranked
 * from simple to rich: the constant; a single factor {@code p^i} or {@code log2(p)^j}; a product
 * {@code p^i·log2(p)^j}, which can also turn over ({@link PmnfTerm#turningPoint()}). The best-scoring term of each
 * kind replaces the simpler model chosen so far only when both hold:
 * <ol>
 *   <li>its coefficient is significant: the F-test of the constant against it (nested models, equivalently the
 *       t-test of {@code c1 = 0}) gives p &lt; {@link #SIGNIFICANCE};</li>
 *   <li>it is clearly better on left-out points: its score is at most {@link #RELATIVE_GAIN} of the simpler model's
 *       and, replacing the constant with SMAPE, at least {@link #ABSOLUTE_GAIN} percentage point lower.</li>
 * </ol>
 * A richer model passed over although it scored better is named in the chosen model's notes.
 */
public final class PmnfModeler {

    public enum Criterion { SMAPE, RSS }

    /** Level of the F-test a term's coefficient must pass to replace the constant (the usual 5 %). */
    public static final double SIGNIFICANCE = 0.05;

    /**
     * A richer model must at least halve the leave-one-out score of the simpler one: with 4 to 6 points the score of
     * the best of dozens of forms has a relative standard error of about a third, so a gain below a half is within
     * about one standard error (the spirit of the one-standard-error rule, Hastie, Tibshirani &amp; Friedman,
     * <i>The Elements of Statistical Learning</i>, 7.10).
     */
    public static final double RELATIVE_GAIN = 0.5;

    /**
     * With SMAPE a trend must also beat the constant by this many percentage points: a trend that predicts left-out
     * runs better than their mean by less than 1 % of their value changes nothing one would act on, and run-to-run
     * variation of timings is usually larger. Between two trends it does not apply: both describe the measured range
     * about equally, they differ in extrapolation, and whether the data tell them apart is what the halving asks.
     */
    public static final double ABSOLUTE_GAIN = 1.0;

    /**
     * @param negativeExponents also try {@code p^-i} terms, which strong scaling (time falling with p) needs
     * @param logTerms          try {@code log2(p)^j} factors
     * @param epsilon           minimum relative contribution of the term (Extra-P: 0.0005)
     */
    public record Options(boolean negativeExponents, boolean logTerms, Criterion criterion, double epsilon) {
        public static Options defaults() {
            return new Options(true, true, Criterion.SMAPE, 0.0005);
        }
    }

    private PmnfModeler() {
    }

    public static PmnfModel fit(double[] p, double[] y) {
        return fit(p, y, Options.defaults());
    }

    /** @throws IllegalArgumentException with fewer than three distinct process counts */
    public static PmnfModel fit(double[] p, double[] y, Options o) {
        double[][] means = meansByP(p, y);
        double[] xs = means[0];
        double[] ys = means[1];
        int n = xs.length;
        List<String> notes = new ArrayList<>();
        if (n < 5) {
            notes.add(fewPointsNote(n));
        }
        boolean logOk = o.logTerms() && xs[0] >= 1;
        if (o.logTerms() && !logOk) {
            notes.add("a process count below 1: no log terms");
        }
        PmnfModel constant = constant(xs, ys, notes);
        PmnfModel single = null;
        PmnfModel product = null;
        for (PmnfTerm t : PmnfTerm.candidates(logOk, o.negativeExponents())) {
            PmnfModel m = hypothesis(xs, ys, t, o.epsilon(), notes);
            if (m == null) {
                continue;
            }
            if (t.product()) {
                product = product == null || better(m, product, o.criterion()) ? m : product;
            } else {
                single = single == null || better(m, single, o.criterion()) ? m : single;
            }
        }
        PmnfModel chosen = constant;
        List<PmnfModel> passedOver = new ArrayList<>();
        List<String> why = new ArrayList<>();
        for (PmnfModel m : java.util.Arrays.asList(single, product)) {
            if (m == null) {
                continue;
            }
            double pValue = m.termPValue();
            String reason = null;
            if (!(pValue < SIGNIFICANCE)) {
                reason = String.format(Locale.ROOT, "its coefficient is not significant (F-test p = %.2g)", pValue);
            } else if (!clearlyBetter(m, chosen, o.criterion())) {
                reason = "not clearly better (a richer model must at least halve the leave-one-out " + o.criterion()
                        + (chosen.term() == null && o.criterion() == Criterion.SMAPE
                        ? String.format(Locale.ROOT, " of the constant and lower it by %.0f point)", ABSOLUTE_GAIN)
                        : ")");
            }
            if (reason == null) {
                chosen = m;
            } else {
                passedOver.add(m);
                why.add(reason);
            }
        }
        List<String> chosenNotes = new ArrayList<>(notes);
        for (int k = 0; k < passedOver.size(); k++) {
            PmnfModel m = passedOver.get(k);
            if (better(m, chosen, o.criterion())) {
                chosenNotes.add(String.format(Locale.ROOT, "preferred to %s (leave-one-out %s %s against %s): %s",
                        m.formula(), o.criterion(), score(m, o.criterion()), score(chosen, o.criterion()), why.get(k)));
            }
        }
        return chosenNotes.size() == notes.size() ? chosen : chosen.withNotes(chosenNotes);
    }

    /**
     * The note for fewer than five process counts: with {@code n − 2} residual degrees of freedom the F-test needs
     * {@code R² ≥ F/(F + n − 2)} ({@code F} its 95 % quantile), and so few points barely tell one form from another.
     */
    public static String fewPointsNote(int n) {
        double f = new org.apache.commons.math3.distribution.FDistribution(null, 1, n - 2)
                .inverseCumulativeProbability(1 - SIGNIFICANCE);
        return String.format(Locale.ROOT, "only %d process counts (Extra-P advises at least 5): a trend counts as "
                + "significant only from R^2 = %.2f on, and %d points can hardly tell one form from another; add runs "
                + "before trusting a prediction", n, f / (f + n - 2), n);
    }

    /** Whether the richer model {@code a} is clearly better than the simpler {@code b} on left-out points. */
    private static boolean clearlyBetter(PmnfModel a, PmnfModel b, Criterion c) {
        double sa = c == Criterion.SMAPE ? a.cvSmape() : a.cvRss();
        double sb = c == Criterion.SMAPE ? b.cvSmape() : b.cvRss();
        boolean material = b.term() != null || c != Criterion.SMAPE || sa <= sb - ABSOLUTE_GAIN;
        return sa <= RELATIVE_GAIN * sb && material;
    }

    private static String score(PmnfModel m, Criterion c) {
        return c == Criterion.SMAPE ? String.format(Locale.ROOT, "%.2f %%", m.cvSmape())
                : String.format(Locale.ROOT, "%.4g", m.cvRss());
    }

    /**
     * The distinct process counts, ascending, and the mean of the repetitions at each (Extra-P's mean measure).
     *
     * @throws IllegalArgumentException with fewer than three distinct process counts
     */
    static double[][] meansByP(double[] p, double[] y) {
        if (p.length != y.length) {
            throw new IllegalArgumentException("process counts and values differ in length");
        }
        TreeMap<Double, double[]> byP = new TreeMap<>();
        for (int i = 0; i < p.length; i++) {
            double[] acc = byP.computeIfAbsent(p[i], k -> new double[2]);
            acc[0] += y[i];
            acc[1]++;
        }
        int n = byP.size();
        if (n < 3) {
            throw new IllegalArgumentException("a scaling model needs at least 3 distinct process counts, got " + n);
        }
        double[] xs = new double[n];
        double[] ys = new double[n];
        int k = 0;
        for (var e : byP.entrySet()) {
            xs[k] = e.getKey();
            ys[k] = e.getValue()[0] / e.getValue()[1];
            k++;
        }
        return new double[][] {xs, ys};
    }

    private static boolean better(PmnfModel a, PmnfModel b, Criterion c) {
        double sa = c == Criterion.SMAPE ? a.cvSmape() : a.cvRss();
        double sb = c == Criterion.SMAPE ? b.cvSmape() : b.cvRss();
        return sa < sb;
    }

    private static PmnfModel constant(double[] p, double[] y, List<String> notes) {
        int n = y.length;
        double sum = 0;
        for (double v : y) {
            sum += v;
        }
        double c0 = sum / n;
        double cvRss = 0;
        double cvSmape = 0;
        for (int k = 0; k < n; k++) {
            double pred = (sum - y[k]) / (n - 1);
            cvRss += sq(pred - y[k]);
            cvSmape += smapeTerm(y[k], pred);
        }
        double rss = 0;
        double smape = 0;
        for (double v : y) {
            rss += sq(v - c0);
            smape += smapeTerm(v, c0);
        }
        return new PmnfModel(c0, 0, null, n, rss, 100 * smape / n, 0, 0, 100 * cvSmape / n, cvRss, 0, 0, List.copyOf(notes));
    }

    /** The fitted hypothesis, or null when it cannot be fitted or its term contributes too little. */
    private static PmnfModel hypothesis(double[] p, double[] y, PmnfTerm t, double epsilon, List<String> notes) {
        int n = y.length;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = t.value(p[i]);
            if (!Double.isFinite(x[i])) {
                return null;
            }
        }
        double[] c = line(x, y, -1);
        if (c == null || c[1] == 0) {
            return null;
        }
        double maxContribution = 0;
        for (int i = 0; i < n; i++) {
            double denom = Math.abs(y[i]);
            maxContribution = Math.max(maxContribution, denom == 0 ? 0 : Math.abs(c[1] * x[i]) / denom);
        }
        if (maxContribution < epsilon) {
            return null;
        }
        double cvRss = 0;
        double cvSmape = 0;
        for (int k = 0; k < n; k++) {
            double[] ck = line(x, y, k);
            if (ck == null) {
                return null;
            }
            double pred = ck[0] + ck[1] * x[k];
            cvRss += sq(pred - y[k]);
            cvSmape += smapeTerm(y[k], pred);
        }
        if (!Double.isFinite(cvRss) || !Double.isFinite(cvSmape)) {
            return null;
        }
        return fitted(c[0], c[1], t, x, y, 100 * cvSmape / n, cvRss, notes);
    }

    /**
     * The hypothesis {@code c0 + c1·term} with its in-sample fit over the points ({@code x} the term's values):
     * RSS, SMAPE, R² and adjusted R², and the sums the confidence band needs; with the leave-one-out scores
     * ({@code cvSmape} in %) it was chosen by.
     */
    static PmnfModel fitted(double c0, double c1, PmnfTerm t, double[] x, double[] y, double cvSmape, double cvRss,
                            List<String> notes) {
        int n = y.length;
        double mean = 0;
        for (double v : y) {
            mean += v;
        }
        mean /= n;
        double rss = 0;
        double tss = 0;
        double smape = 0;
        double sumX = 0;
        double sumXX = 0;
        for (int i = 0; i < n; i++) {
            double pred = c0 + c1 * x[i];
            rss += sq(y[i] - pred);
            tss += sq(y[i] - mean);
            smape += smapeTerm(y[i], pred);
            sumX += x[i];
            sumXX += x[i] * x[i];
        }
        double r2 = tss == 0 ? Double.NaN : 1 - rss / tss;
        double adj = n > 2 && tss != 0 ? 1 - (1 - r2) * (n - 1) / (n - 2) : Double.NaN;
        return new PmnfModel(c0, c1, t, n, rss, 100 * smape / n, r2, adj, cvSmape, cvRss, sumX, sumXX,
                List.copyOf(notes));
    }

    /** Least-squares line through the points, leaving out index {@code skip} (-1: none); null when degenerate. */
    private static double[] line(double[] x, double[] y, int skip) {
        int m = 0;
        double sx = 0;
        double sy = 0;
        for (int i = 0; i < x.length; i++) {
            if (i != skip) {
                sx += x[i];
                sy += y[i];
                m++;
            }
        }
        double mx = sx / m;
        double my = sy / m;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < x.length; i++) {
            if (i != skip) {
                sxx += (x[i] - mx) * (x[i] - mx);
                sxy += (x[i] - mx) * (y[i] - my);
            }
        }
        // A term that is (numerically) the same at every point is the constant again.
        if (m < 2 || sxx <= 1e-24 * Math.max(1, mx * mx) * m) {
            return null;
        }
        double b = sxy / sxx;
        return new double[]{my - b * mx, b};
    }

    /** |pred − actual| / ((|actual| + |pred|) / 2), 0 when both are 0. */
    static double smapeTerm(double actual, double pred) {
        double d = (Math.abs(actual) + Math.abs(pred)) / 2;
        return d == 0 ? 0 : Math.abs(pred - actual) / d;
    }

    private static double sq(double v) {
        return v * v;
    }
}
