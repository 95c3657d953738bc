package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PmnfModelerTest {
    static final double[] P = {4, 8, 16, 32, 64, 128};

    static double log2(double p) {
        return Math.log(p) / Math.log(2);
    }

    @Test
    void findsPTimesLogPInExactData() {
        double[] y = new double[P.length];
        for (int i = 0; i < P.length; i++) {
            y[i] = 3 + 0.5 * P[i] * log2(P[i]);
        }
        PmnfModel m = PmnfModeler.fit(P, y);
        assertEquals(new PmnfTerm(1, 1, 1), m.term());
        assertEquals(3, m.c0(), 1e-9);
        assertEquals(0.5, m.c1(), 1e-12);
        assertEquals("p·log2(p)", m.term().toString());
    }

    @Test
    void strongScalingNeedsTheNegativeExponent() {
        double[] y = new double[P.length];
        for (int i = 0; i < P.length; i++) {
            y[i] = 10 + 200 / P[i];
        }
        PmnfModel m = PmnfModeler.fit(P, y);
        assertEquals(new PmnfTerm(-1, 1, 0), m.term());
        assertEquals(200, m.c1(), 1e-9);
        PmnfModel without = PmnfModeler.fit(P, y, new PmnfModeler.Options(false, true, PmnfModeler.Criterion.SMAPE, 0.0005));
        assertTrue(without.term() == null || without.term().exponent() >= 0);
        assertTrue(without.cvSmape() > m.cvSmape());
    }

    @Test
    void aFlatSeriesIsConstant() {
        PmnfModel m = PmnfModeler.fit(P, new double[]{5, 5, 5, 5, 5, 5});
        assertNull(m.term());
        assertEquals(5, m.c0());
    }

    @Test
    void repetitionsAreAveragedPerProcessCount() {
        double[] p = {4, 4, 8, 8, 16, 16, 32, 32, 64, 64};
        double[] y = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            y[i] = 1 + 2 * p[i] + (i % 2 == 0 ? 0.5 : -0.5);
        }
        PmnfModel m = PmnfModeler.fit(p, y);
        assertEquals(5, m.points());
        assertEquals(new PmnfTerm(1, 1, 0), m.term());
        assertEquals(2, m.c1(), 1e-12);
    }

    @Test
    void fewProcessCountsGiveANoteAndTooFewAreRefused() {
        PmnfModel m = PmnfModeler.fit(new double[]{2, 4, 8}, new double[]{1, 2, 3});
        assertTrue(m.notes().stream().anyMatch(n -> n.contains("at least 5")));
        assertThrows(IllegalArgumentException.class, () -> PmnfModeler.fit(new double[]{2, 4}, new double[]{1, 2}));
    }

    @Test
    void confidenceBandOfTheConstantModelIsTheTextbookOne() {
        // y = 1, 2, 3 around the mean 2: RSS = 2, s^2 = 2 / (3 - 1) = 1; the mean's standard error is sqrt(1/3);
        // Student's t with 2 degrees of freedom at 97.5 % is 4.302652729749464.
        PmnfModel m = new PmnfModel(2, 0, null, 3, 2, 0, 0, 0, 0, 0, 0, 0, List.of());
        double[] band = m.interval(1000, 0.95, false);
        double half = 4.302652729749464 * Math.sqrt(1.0 / 3);
        assertEquals(2 - half, band[0], 1e-9);
        assertEquals(2 + half, band[1], 1e-9);
    }

    @Test
    void confidenceBandOfALineIsTheTextbookOne() {
        // Points (1,1) (2,3) (3,2), term p: fit 1 + 0.5 p, residuals -0.5 1 -0.5, RSS 1.5, 1 degree of freedom.
        // At p = 4: Var factor 1/n + (x0 - mean)^2 / Sxx = 1/3 + 4/2; t(0.975, 1) = 12.706204736174707.
        PmnfModel m = new PmnfModel(1, 0.5, new PmnfTerm(1, 1, 0), 3, 1.5, 0, 0, 0, 0, 0, 6, 14, List.of());
        double v = 1.0 / 3 + 4.0 / 2;
        double[] conf = m.interval(4, 0.95, false);
        double[] pred = m.interval(4, 0.95, true);
        assertEquals(3 + 12.706204736174707 * Math.sqrt(1.5 * v), conf[1], 1e-8);
        assertEquals(3 - 12.706204736174707 * Math.sqrt(1.5 * (1 + v)), pred[0], 1e-8);
    }

    @Test
    void theConfidenceBandCoversTheTrueCurveAboutAsOftenAsItsLevelSays() {
        // Data sets from 2 + 0.5 sqrt(p) with additive Gaussian noise (sd 0.2). The band ignores the uncertainty of
        // choosing the term, so its level holds for the data sets where the true term was chosen: there the 95 % band
        // for the mean at p = 1024, four times beyond the data, should hold the true value in roughly 95 % of the
        // cases. (A single-factor truth: at this noise the search rightly prefers a single factor to a product form,
        // so a product truth would hardly ever be chosen.)
        Random rnd = new Random(3);
        double[] p = {4, 8, 16, 32, 64, 128, 256};
        double truth = 2 + 0.5 * Math.sqrt(1024);
        PmnfTerm trueTerm = new PmnfTerm(1, 2, 0);
        int chosen = 0;
        int covered = 0;
        for (int t = 0; t < 600; t++) {
            double[] y = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                y[i] = 2 + 0.5 * Math.sqrt(p[i]) + 0.2 * rnd.nextGaussian();
            }
            PmnfModel m = PmnfModeler.fit(p, y);
            if (trueTerm.equals(m.term())) {
                chosen++;
                double[] band = m.interval(1024, 0.95, false);
                if (band[0] <= truth && truth <= band[1]) {
                    covered++;
                }
            }
        }
        assertTrue(chosen >= 50, "true term chosen " + chosen + " times");
        assertTrue(covered >= 0.88 * chosen && covered <= 0.995 * chosen, covered + " of " + chosen);
    }

    @Test
    void lowNoiseRecoversTheTermAndItsCoefficients() {
        Random rnd = new Random(11);
        double[] p = {4, 8, 16, 32, 64, 128, 256};
        double[] y = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            y[i] = (2 + 0.1 * Math.sqrt(p[i]) * log2(p[i])) * (1 + 0.001 * rnd.nextGaussian());
        }
        PmnfModel m = PmnfModeler.fit(p, y);
        assertEquals(new PmnfTerm(1, 2, 1), m.term(), m.formula());
        assertEquals(0.1, m.c1(), 0.002);
        assertEquals(2, m.c0(), 0.05);
    }
}
