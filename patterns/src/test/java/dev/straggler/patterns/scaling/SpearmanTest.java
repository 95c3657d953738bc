package dev.straggler.patterns.scaling;

import org.apache.commons.math3.stat.correlation.SpearmansCorrelation;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpearmanTest {

    @Test
    void tiedValuesShareTheirMidRank() {
        assertArrayEquals(new double[]{1, 2.5, 2.5, 4}, Spearman.ranks(new double[]{10, 20, 20, 30}));
        assertArrayEquals(new double[]{2, 2, 2}, Spearman.ranks(new double[]{7, 7, 7}));
        assertArrayEquals(new double[]{3, 1, 2}, Spearman.ranks(new double[]{0.5, -1, 0}));
    }

    @Test
    void handComputedCaseWithRepeatedTaskCounts() {
        // Task ranks 1.5 1.5 3.5 3.5 5.5 5.5; share ranks 1 4 2.5 2.5 5 6.
        // Deviations from 3.5: (-2 -2 0 0 2 2) and (-2.5 0.5 -1 -1 1.5 2.5): Sxy = 12, Sxx = 16, Syy = 17,
        // r_s = 12 / sqrt(16 * 17) = 3 / sqrt(17).
        double[] tasks = {2, 2, 4, 4, 8, 8};
        double[] share = {0.1, 0.3, 0.2, 0.2, 0.4, 0.5};
        assertEquals(3 / Math.sqrt(17), Spearman.correlation(tasks, share), 1e-15);
    }

    @Test
    void pValueFollowsTheTApproximation() {
        // r = 3/sqrt(17), n = 6: t = r * sqrt(4 / (1 - r^2)) = 3/sqrt(2) with 4 degrees of freedom; the two-sided
        // tail, integrated numerically from the t density 0.375 (1 + t^2/4)^-2.5, is 0.10119150721829.
        assertEquals(0.1011915072182955, Spearman.pValue(3 / Math.sqrt(17), 6), 1e-9);
    }

    @Test
    void agreesWithCommonsMathOnSamplesFullOfTies() {
        Random rnd = new Random(42);
        SpearmansCorrelation reference = new SpearmansCorrelation();
        for (int trial = 0; trial < 200; trial++) {
            int n = 3 + rnd.nextInt(30);
            double[] x = new double[n];
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = 1 << rnd.nextInt(5);
                y[i] = rnd.nextInt(6) * 0.25;
            }
            double ours = Spearman.correlation(x, y);
            double theirs = reference.correlation(x, y);
            if (Double.isNaN(theirs)) {
                assertTrue(Double.isNaN(ours), "trial " + trial);
            } else {
                assertEquals(theirs, ours, 1e-12, "trial " + trial);
            }
        }
    }

    @Test
    void aConstantSampleHasNoCorrelation() {
        assertTrue(Double.isNaN(Spearman.correlation(new double[]{1, 2, 3}, new double[]{5, 5, 5})));
    }

    @Test
    void nanCannotBeRanked() {
        assertThrows(IllegalArgumentException.class, () -> Spearman.ranks(new double[]{1, Double.NaN}));
    }
}
