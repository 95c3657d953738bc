package dev.straggler.patterns.scaling;

import java.util.ArrayList;
import java.util.List;

/**
 * One term {@code p^i · log2(p)^j} of Extra-P's performance-model normal form, with {@code i = num/den}.
 */
public record PmnfTerm(int num, int den, int logExponent) {
    /** The polynomial exponents Extra-P searches by default (its single-parameter building blocks). */
    static final int[][] POLY = {{0, 1}, {1, 4}, {1, 3}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {1, 1}, {5, 4}, {4, 3},
            {3, 2}, {5, 3}, {7, 4}, {2, 1}, {9, 4}, {7, 3}, {5, 2}, {8, 3}, {11, 4}, {3, 1}};

    public double exponent() {
        return num / (double) den;
    }

    public double value(double p) {
        double v = num == 0 ? 1 : Math.pow(p, exponent());
        if (logExponent != 0) {
            v *= Math.pow(Math.log(p) / Math.log(2), logExponent);
        }
        return v;
    }

    /**
     * Whether the term is a product of a power and a log factor, {@code p^i·log2(p)^j} with {@code i ≠ 0} and
     * {@code j > 0}: the richer of the two kinds of term the search prefers among ({@link PmnfModeler}).
     */
    public boolean product() {
        return num != 0 && logExponent != 0;
    }

    /**
     * The p > 1 at which the term changes direction, NaN when it is monotone for every p > 1. With {@code x = ln p},
     * {@code d/dp p^i·log2(p)^j = p^(i−1)·log2(p)^(j−1)·(i·x + j)/ln 2}, zero only at {@code x = −j/i}: a turn exists
     * for a falling power with a log factor ({@code i < 0 < j}), at {@code p = e^(j/|i|)} (e^4 ≈ 54.6 for
     * p^(-1/2)·log2(p)^2). A pure power or a pure log never turns.
     */
    public double turningPoint() {
        if (num >= 0 || logExponent == 0) {
            return Double.NaN;
        }
        return Math.exp(logExponent * den / (double) -num);
    }

    /** e.g. "p^(1/2)·log2(p)^2", "p", "p^2", "log2(p)", "p^(-1)". */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (num != 0) {
            sb.append('p');
            if (den == 1 && num > 1) {
                sb.append('^').append(num);
            } else if (!(num == 1 && den == 1)) {
                sb.append("^(").append(num).append(den == 1 ? "" : "/" + den).append(')');
            }
        }
        if (logExponent != 0) {
            if (sb.length() > 0) {
                sb.append('·');
            }
            sb.append("log2(p)");
            if (logExponent != 1) {
                sb.append('^').append(logExponent);
            }
        }
        return sb.toString();
    }

    /**
     * The hypotheses searched: every {@code i} of {@link #POLY} with {@code j ∈ {0, 1, 2}} (without the constant
     * {@code i = j = 0}), log terms only when allowed, and the negated exponents for strong scaling when asked.
     */
    static List<PmnfTerm> candidates(boolean logTerms, boolean negativeExponents) {
        List<PmnfTerm> out = new ArrayList<>();
        for (int[] e : POLY) {
            for (int j = 0; j <= (logTerms ? 2 : 0); j++) {
                if (e[0] == 0 && j == 0) {
                    continue;
                }
                out.add(new PmnfTerm(e[0], e[1], j));
            }
        }
        if (negativeExponents) {
            for (int[] e : POLY) {
                if (e[0] == 0) {
                    continue;
                }
                for (int j = 0; j <= (logTerms ? 2 : 0); j++) {
                    out.add(new PmnfTerm(-e[0], e[1], j));
                }
            }
        }
        return out;
    }
}
