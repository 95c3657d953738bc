package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Exact p-values of r_s for few runs, counted by hand over the n! orderings. */
class SpearmanExactTest {
    @Test
    void perfectCorrelationOfFourRunsHasPTwoInTwentyFour() {
        // only the identity and the reversal reach |r_s| = 1
        assertEquals(2.0 / 24, Spearman.pValue(new double[] {2, 4, 8, 16}, new double[] {1, 2, 3, 4}), 1e-15);
        assertEquals(2.0 / 24, Spearman.pValue(new double[] {2, 4, 8, 16}, new double[] {4, 3, 2, 1}), 1e-15);
    }

    @Test
    void perfectCorrelationOfThreeRunsIsNeverSignificant() {
        assertEquals(2.0 / 6, Spearman.pValue(new double[] {1, 2, 3}, new double[] {5, 6, 7}), 1e-15);
    }

    @Test
    void rsOfPointEightWithFourRunsHasPEightInTwentyFour() {
        // r_s = 0.8 for y ranks (1,3,2,4); |r_s| >= 0.8 for 8 of the 24 orderings (d^2 sums 0 or 2, both signs)
        double[] x = {1, 2, 3, 4};
        double[] y = {1, 3, 2, 4};
        assertEquals(0.8, Spearman.correlation(x, y), 1e-12);
        assertEquals(8.0 / 24, Spearman.pValue(x, y), 1e-15);
    }

    @Test
    void tiesAreKeptAsMidRanksInThePermutations() {
        // x has a tie (two runs at p = 4), so r_s = 0.9487 at best: the orderings reaching it are counted here by
        // brute force over all 24 (mid-ranks recomputed for each) and must be what pValue reports
        double[] x = {2, 4, 4, 8};
        double[] y = {1, 2, 3, 4};
        int extreme = 0;
        double r = Math.abs(Spearman.correlation(x, y));
        int[][] perms = permutations(4);
        for (int[] p : perms) {
            double[] py = new double[4];
            for (int i = 0; i < 4; i++) {
                py[i] = y[p[i]];
            }
            if (Math.abs(Spearman.correlation(x, py)) >= r - 1e-12) {
                extreme++;
            }
        }
        assertEquals(4, extreme);
        assertEquals(4.0 / 24, Spearman.pValue(x, y), 1e-15);
    }

    @Test
    void beyondNineRunsTheTApproximationIsUsed() {
        double[] x = new double[10];
        double[] y = new double[10];
        for (int i = 0; i < 10; i++) {
            x[i] = i;
            y[i] = i % 3 == 0 ? -i : i;
        }
        double r = Spearman.correlation(x, y);
        assertEquals(Spearman.pValue(r, 10), Spearman.pValue(x, y), 0);
    }

    private static int[][] permutations(int n) {
        java.util.List<int[]> out = new java.util.ArrayList<>();
        permute(new int[n], new boolean[n], 0, out);
        return out.toArray(new int[0][]);
    }

    private static void permute(int[] cur, boolean[] used, int k, java.util.List<int[]> out) {
        if (k == cur.length) {
            out.add(cur.clone());
            return;
        }
        for (int i = 0; i < cur.length; i++) {
            if (!used[i]) {
                used[i] = true;
                cur[k] = i;
                permute(cur, used, k + 1, out);
                used[i] = false;
            }
        }
    }
}
