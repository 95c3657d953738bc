package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Extra-P-compatible search against the rules of Extra-P 4.2.5's default modeler (its building blocks, the
 * in-sample constant, no negative exponents), on data whose outcome follows from those rules by hand.
 */
class ExtraPModelerTest {
    static final double[] P = {2, 4, 8, 16, 32, 64};

    @Test
    void hypothesesAreExtraPsFortyTwoPositiveBuildingBlocks() {
        assertEquals(42, ExtraPModeler.TERMS.length);
        Set<String> seen = new HashSet<>();
        for (int[] t : ExtraPModeler.TERMS) {
            assertTrue(t[0] >= 0 && t[1] > 0 && t[2] >= 0, java.util.Arrays.toString(t));
            assertTrue(seen.add(t[0] + "/" + t[1] + "," + t[2]), "duplicate " + java.util.Arrays.toString(t));
        }
        // Extra-P pairs log terms with some exponents only: p^(4/5)·log2(p) is not among them, p^(1/2)·log2(p) is
        assertFalse(seen.contains("4/5,1"));
        assertTrue(seen.contains("1/2,1"));
        assertTrue(seen.contains("0/1,2"));
    }

    @Test
    void strongScalingGetsNoNegativeExponent() {
        double[] y = new double[P.length];
        for (int i = 0; i < P.length; i++) {
            y[i] = 2 + 64 / P[i];
        }
        PmnfModel own = PmnfModeler.fit(P, y);
        assertEquals(new PmnfTerm(-1, 1, 0), own.term(), "Straggler's search finds c0 + c1/p");
        assertEquals(64, own.c1(), 1e-9);
        PmnfModel extraP = ExtraPModeler.fit(P, y);
        assertTrue(extraP.term() == null || extraP.term().num() >= 0, String.valueOf(extraP.term()));
    }

    @Test
    void constantDataIsTheConstant() {
        PmnfModel m = ExtraPModeler.fit(P, new double[] {5, 5, 5, 5, 5, 5});
        assertNull(m.term());
        assertEquals(5, m.c0());
    }

    /**
     * Noise around 10 with no trend: every hypothesis's leave-one-out SMAPE exceeds the constant's in-sample SMAPE,
     * which is what Extra-P compares against; the constant wins with exactly that score:
     * mean 10, SMAPE = 100/6 · Σ 2|10 − y| / (y + 10).
     */
    @Test
    void constantIsScoredInSample() {
        double[] y = {10.2, 9.7, 10.1, 9.9, 10.3, 9.8};
        PmnfModel m = ExtraPModeler.fit(P, y);
        assertNull(m.term(), "chose " + m.formula());
        double mean = 10.0;
        double smape = 0;
        for (double v : y) {
            smape += 2 * Math.abs(mean - v) / (v + mean);
        }
        smape = 100 * smape / y.length;
        assertEquals(mean, m.c0(), 1e-12);
        assertEquals(smape, m.cvSmape(), 1e-9);
    }

    @Test
    void linearGrowthIsFoundWithItsCoefficients() {
        double[] y = new double[P.length];
        for (int i = 0; i < P.length; i++) {
            y[i] = 0.5 + 0.25 * P[i];
        }
        PmnfModel m = ExtraPModeler.fit(P, y);
        assertNotNull(m.term());
        assertEquals(new PmnfTerm(1, 1, 0), m.term());
        assertEquals(0.5, m.c0(), 1e-9);
        assertEquals(0.25, m.c1(), 1e-9);
    }

    /**
     * A pure term (no constant) at values where the constant coefficient of every leave-one-out fit is numerical
     * noise: Extra-P zeroes such constants, so the left-out points are predicted exactly and p·log2(p) wins with a
     * leave-one-out SMAPE of 0.
     */
    @Test
    void tinyConstantsOfTheLeaveOneOutFitsAreZeroed() {
        double[] y = new double[P.length];
        for (int i = 0; i < P.length; i++) {
            y[i] = 3e-3 * P[i] * Math.log(P[i]) / Math.log(2);
        }
        PmnfModel m = ExtraPModeler.fit(P, y);
        assertEquals(new PmnfTerm(1, 1, 1), m.term());
        assertEquals(0, m.cvSmape(), 1e-9);
    }

    @Test
    void searchesDifferOnlyWhereTheirRulesDo() {
        // growth with a term both searches know: both pick it
        double[] y = new double[P.length];
        for (int i = 0; i < P.length; i++) {
            y[i] = 1 + 0.1 * Math.sqrt(P[i]) * Math.log(P[i]) / Math.log(2);
        }
        assertEquals(new PmnfTerm(1, 2, 1), ExtraPModeler.fit(P, y).term());
        assertEquals(new PmnfTerm(1, 2, 1), PmnfModeler.fit(P, y).term());
    }
}
