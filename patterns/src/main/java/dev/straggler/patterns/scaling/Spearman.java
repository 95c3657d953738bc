package dev.straggler.patterns.scaling;

import org.apache.commons.math3.distribution.TDistribution;

import java.util.Arrays;

/**
 * Spearman's rank correlation: Pearson's correlation of the mid-ranks of two samples. Tied values share the mean
 * of the ranks they occupy, which is what makes the coefficient usable with repeated runs at one process count.
 */
public final class Spearman {
    private Spearman() {
    }

    /** Ranks 1..n with ties given their mid-rank (the average of the positions they span). NaN is rejected. */
    public static double[] ranks(double[] values) {
        int n = values.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(values[i])) {
                throw new IllegalArgumentException("NaN at position " + i + " cannot be ranked");
            }
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        double[] r = new double[n];
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            // Positions i..j (0-based) hold equal values: each gets the mean of ranks i+1..j+1.
            double mid = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                r[order[k]] = mid;
            }
            i = j + 1;
        }
        return r;
    }

    /** r_s of two samples of equal length; NaN when either is constant (its ranks have no variance). */
    public static double correlation(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("samples differ in length: " + x.length + " and " + y.length);
        }
        if (x.length < 2) {
            return Double.NaN;
        }
        return pearson(ranks(x), ranks(y));
    }

    static double pearson(double[] x, double[] y) {
        int n = x.length;
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= n;
        my /= n;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            double dx = x[i] - mx;
            double dy = y[i] - my;
            sxy += dx * dy;
            sxx += dx * dx;
            syy += dy * dy;
        }
        return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
    }

    /**
     * Two-sided p-value of r_s under the null hypothesis of no association, from the usual t approximation
     * {@code t = r·sqrt((n−2)/(1−r²))} with n−2 degrees of freedom; NaN for n &lt; 3 or undefined r.
     */
    public static double pValue(double r, int n) {
        if (Double.isNaN(r) || n < 3) {
            return Double.NaN;
        }
        if (Math.abs(r) >= 1) {
            return 0;
        }
        double t = r * Math.sqrt((n - 2) / (1 - r * r));
        TDistribution dist = new TDistribution(null, n - 2);
        return 2 * dist.cumulativeProbability(-Math.abs(t));
    }
}
