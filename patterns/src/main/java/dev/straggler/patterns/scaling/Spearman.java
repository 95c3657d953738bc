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

    /** Up to this many observations the p-value is exact (all n! orderings are enumerated). */
    public static final int EXACT_UP_TO = 9;

    /**
     * Two-sided p-value of r_s of two samples under the null hypothesis of no association: exact for n up to
     * {@value #EXACT_UP_TO} (the share of the n! equally likely orderings of y whose |r_s| is at least the observed
     * one, ties kept as mid-ranks), the t approximation beyond. With 4 runs a perfect correlation has p = 2/24 =
     * 0.083, not the 0 the t approximation gives. NaN for n &lt; 3 or undefined r.
     */
    public static double pValue(double[] x, double[] y) {
        int n = x.length;
        double r = correlation(x, y);
        if (Double.isNaN(r) || n < 3) {
            return Double.NaN;
        }
        if (n > EXACT_UP_TO) {
            return pValue(r, n);
        }
        double[] rx = ranks(x);
        double[] ry = ranks(y);
        double mx = 0;
        double my = 0;
        for (int i = 0; i < n; i++) {
            mx += rx[i];
            my += ry[i];
        }
        double centre = mx * my / n;
        double observed = Math.abs(dot(rx, ry) - centre);
        double tolerance = 1e-9 * Math.max(1, observed);
        // Heap's algorithm over the orderings of ry
        int[] c = new int[n];
        double[] perm = ry.clone();
        long extreme = Math.abs(dot(rx, perm) - centre) >= observed - tolerance ? 1 : 0;
        long total = 1;
        int i = 0;
        while (i < n) {
            if (c[i] < i) {
                int j = i % 2 == 0 ? 0 : c[i];
                double t = perm[j];
                perm[j] = perm[i];
                perm[i] = t;
                total++;
                if (Math.abs(dot(rx, perm) - centre) >= observed - tolerance) {
                    extreme++;
                }
                c[i]++;
                i = 0;
            } else {
                c[i] = 0;
                i++;
            }
        }
        return (double) extreme / total;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
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
