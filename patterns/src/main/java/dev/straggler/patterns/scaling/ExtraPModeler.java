package dev.straggler.patterns.scaling;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.linear.SingularValueDecomposition;

import java.util.ArrayList;
import java.util.List;

/**
 * The model choice of Extra-P 4.2.5's default single-parameter modeler ("Basic", with its default options), for
 * users who want the model Extra-P would report. Its rules, which differ from Straggler's own search
 * ({@link PmnfModeler}, which also keeps the simpler model unless a richer one is clearly better, where here the lowest
 * score wins):
 * <ul>
 *   <li>Hypotheses: {@code c0 + c1·p^(a/b)·log2(p)^c} for Extra-P's 42 building blocks {@link #TERMS}, in that order;
 *       no negative exponents; log terms only when every p ≥ 1.</li>
 *   <li>The constant model (the mean) is scored <em>in-sample</em> (its SMAPE over all points) and chosen outright
 *       when its residual sum of squares is 0; every other hypothesis is scored by leave-one-out SMAPE and replaces
 *       the best so far only when strictly better.</li>
 *   <li>In each leave-one-out fit the constant coefficient is set to 0 when it is below 0.0005 of the smallest
 *       training value or, when that value is 0, below 0.0005 in absolute terms (the data's own unit; Extra-P's
 *       "clean constant coefficient"); the reported model is the fit to all points.</li>
 *   <li>A hypothesis whose term coefficient is 0, or whose term contributes less than 0.0005 of the measured value
 *       at every point, is discarded; so is one with a non-finite residual sum of squares.</li>
 *   <li>Coefficients are least-squares solutions (pseudo-inverse, as numpy's lstsq); repetitions at one p are
 *       averaged first (Extra-P's mean measure).</li>
 * </ul>
 */
public final class ExtraPModeler {
    /** Extra-P's single-parameter building blocks {a, b, c}: the term p^(a/b)·log2(p)^c, in its search order. */
    static final int[][] TERMS = {{0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1}, {1, 3, 1}, {1, 4, 2},
            {1, 3, 2}, {1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {3, 4, 0}, {2, 3, 1}, {3, 4, 1}, {4, 5, 0},
            {2, 3, 2}, {3, 4, 2}, {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {5, 4, 1}, {4, 3, 0}, {4, 3, 1},
            {3, 2, 0}, {3, 2, 1}, {3, 2, 2}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1}, {2, 1, 2}, {9, 4, 0},
            {7, 3, 0}, {5, 2, 0}, {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0}, {3, 1, 0}, {3, 1, 1}};

    /** Extra-P's epsilon: minimum term contribution and the constant-cleaning threshold. */
    static final double EPSILON = 0.0005;

    private ExtraPModeler() {
    }

    /** @throws IllegalArgumentException with fewer than three distinct process counts */
    public static PmnfModel fit(double[] p, double[] y) {
        double[][] means = PmnfModeler.meansByP(p, y);
        double[] xs = means[0];
        double[] ys = means[1];
        int n = xs.length;
        List<String> notes = new ArrayList<>();
        notes.add("Extra-P-compatible search (Extra-P 4.2.5 default modeler)");
        if (n < 5) {
            notes.add("only " + n + " process counts; Extra-P advises at least 5 for a reliable model");
        }
        boolean logOk = true;
        for (double x : xs) {
            logOk &= x >= 1;
        }
        // the constant: the mean, scored in-sample
        double mean = 0;
        for (double v : ys) {
            mean += v / n;
        }
        double constRss = 0;
        double constSmape = 0;
        for (double v : ys) {
            constRss += (mean - v) * (mean - v);
            constSmape += PmnfModeler.smapeTerm(v, mean);
        }
        constSmape = 100 * constSmape / n;
        PmnfModel best = new PmnfModel(mean, 0, null, n, constRss, constSmape, 0, 0, constSmape, constRss, 0, 0,
                List.copyOf(notes));
        if (constRss == 0) {
            return best;
        }
        for (int[] b : TERMS) {
            if (b[2] != 0 && !logOk) {
                continue;
            }
            PmnfModel m = hypothesis(xs, ys, new PmnfTerm(b[0], b[1], b[2]), notes);
            if (m != null && m.cvSmape() < best.cvSmape()) {
                best = m;
            }
        }
        return best;
    }

    private static PmnfModel hypothesis(double[] p, double[] y, PmnfTerm t, List<String> notes) {
        int n = y.length;
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = t.value(p[i]);
        }
        double cvRss = 0;
        double cvSmape = 0;
        for (int k = 0; k < n; k++) {
            double[] c = lstsq(x, y, k);
            double minimum = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                if (i != k) {
                    minimum = Math.min(minimum, y[i]);
                }
            }
            if (minimum == 0 ? Math.abs(c[0]) < EPSILON : Math.abs(c[0] / minimum) < EPSILON) {
                c[0] = 0;
            }
            double pred = c[0] + c[1] * x[k];
            double d = pred - y[k];
            cvRss += d * d;
            double abssum = Math.abs(y[k]) + Math.abs(pred);
            if (abssum != 0) {
                cvSmape += Math.abs(d) / abssum * 2 / n * 100;
            }
        }
        if (!Double.isFinite(cvRss)) {
            return null;
        }
        double[] c = lstsq(x, y, -1);
        if (c[1] == 0) {
            return null;
        }
        // the term's largest share of a measured value; 0/0 and x/0 are not "small" (numpy's nan and inf)
        double contribution = 0;
        for (int i = 0; i < n; i++) {
            double share = Math.abs(c[1] * x[i] / y[i]);
            if (Double.isNaN(share) || share == Double.POSITIVE_INFINITY) {
                contribution = Double.POSITIVE_INFINITY;
                break;
            }
            contribution = Math.max(contribution, share);
        }
        if (contribution < EPSILON) {
            return null;
        }
        return PmnfModeler.fitted(c[0], c[1], t, x, y, cvSmape, cvRss, notes);
    }

    /** The minimum-norm least-squares {c0, c1} of y = c0 + c1·x, leaving out index {@code skip} (-1: none). */
    private static double[] lstsq(double[] x, double[] y, int skip) {
        int m = skip < 0 ? x.length : x.length - 1;
        double[][] a = new double[m][2];
        double[] b = new double[m];
        int r = 0;
        for (int i = 0; i < x.length; i++) {
            if (i != skip) {
                a[r][0] = 1;
                a[r][1] = x[i];
                b[r] = y[i];
                r++;
            }
        }
        RealVector c = new SingularValueDecomposition(new Array2DRowRealMatrix(a, false)).getSolver()
                .solve(new ArrayRealVector(b, false));
        return new double[] {c.getEntry(0), c.getEntry(1)};
    }
}
