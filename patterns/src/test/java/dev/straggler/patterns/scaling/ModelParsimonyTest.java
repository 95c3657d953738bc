package dev.straggler.patterns.scaling;

import dev.straggler.patterns.algebra.ScalascaMgSeries;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default search prefers the simpler model: the constant unless a trend is significant and clearly better on
 * left-out points, a single-factor term unless a product p^i·log2(p)^j is clearly better.
 */
class ModelParsimonyTest {

    /**
     * Scalasca's own delay costs (short plus long term, per process) of NPB MG class S at 2, 4, 8, 16 ranks for the
     * MPI_Irecv in rprj3's comm3 > ready: four values without a trend. The previous search chose
     * 5.8e-5 − 3.9e-4·p^-3 (R² 0.37) because it beat the constant's leave-one-out SMAPE of ~100 % by less than a point.
     */
    @Test
    void trendlessDelaySeriesOfNpbMgIsTheConstant() throws Exception {
        List<SeverityCube> cubes = new ArrayList<>();
        for (int p : ScalascaMgSeries.RANKS) {
            cubes.add(ScalascaMgSeries.cube(p));
        }
        MeasurementSeries s = ScalingInputs.patternSeries(cubes, ScalascaMgSeries.RANKS).stream()
                .filter(x -> x.metric().equals("delay_latesender_aggregate")
                        && x.callPath().equals(List.of("mg.S.x", "mg_mpi", "mg3p", "rprj3", "comm3", "ready", "MPI_Irecv")))
                .findFirst().orElseThrow();
        // the series has no trend: it rises, falls and rises again
        double[] v = s.values();
        assertTrue(v[1] > v[0] && v[2] < v[1] && v[3] > v[2], java.util.Arrays.toString(v));
        PmnfModel m = PmnfModeler.fit(s.p(), v);
        assertNull(m.term(), m.formula());
        double mean = (v[0] + v[1] + v[2] + v[3]) / 4;
        assertEquals(mean, m.c0(), 1e-15);
    }

    /**
     * 1 + 0.1·p with ±3 % alternating noise at 2 … 32: still a growing trend, a power of p near 1; the previous search
     * chose 1.21 + 0.022·p^(1/2)·log2(p)^2, a product form whose leave-one-out SMAPE (3.6 %) was only a quarter below
     * the best single power's (4.8 %).
     */
    @Test
    void noisyLinearTrendIsAPowerTrendNotAProductForm() {
        double[] p = {2, 4, 8, 16, 32};
        double[] y = new double[p.length];
        double[] noise = {0.03, -0.03, 0.03, -0.03, 0.03};
        for (int i = 0; i < p.length; i++) {
            y[i] = (1 + 0.1 * p[i]) * (1 + noise[i]);
        }
        PmnfModel m = PmnfModeler.fit(p, y);
        assertNotNull(m.term(), m.formula());
        assertEquals(0, m.term().logExponent(), m.formula());
        assertTrue(m.term().exponent() >= 0.75 && m.term().exponent() <= 1.25 && m.c1() > 0, m.formula());
        assertTrue(m.notes().stream().anyMatch(x -> x.startsWith("preferred to ") && x.contains("p^(1/2)·log2(p)^2")),
                m.notes().toString());
    }

    /**
     * Gaussian noise around a constant at six process counts, 400 seeded series: the previous search reported a trend
     * for about two thirds of them (the best of 116 forms nearly always beats the constant on left-out points by
     * chance, 279 here); requiring a significant coefficient and a clear cross-validated gain leaves about one in
     * eight (52).
     */
    @Test
    void pureNoiseRarelyGetsATrend() {
        Random rnd = new Random(17);
        double[] p = {2, 4, 8, 16, 32, 64};
        int trends = 0;
        int n = 400;
        for (int k = 0; k < n; k++) {
            double[] y = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                y[i] = 1 + 0.05 * rnd.nextGaussian();
            }
            if (PmnfModeler.fit(p, y).term() != null) {
                trends++;
            }
        }
        assertTrue(trends <= 0.2 * n, trends + " of " + n + " noise series got a trend");
    }

    /**
     * 1 + 0.5·p^(-1/2)·log2(p)^2 measured at 2 … 16: d/dp p^i·ln(p)^j = p^(i−1)·ln(p)^(j−1)·(i·ln p + j) is zero at
     * ln p = −j/i = 4, so the curve peaks at p = e^4 ≈ 54.6, beyond the data, and falls after.
     */
    @Test
    void formTurningOverBeyondTheDataIsFlagged() {
        double[] p = {2, 4, 8, 16};
        double[] y = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            y[i] = 1 + 0.5 * Math.pow(p[i], -0.5) * Math.pow(Math.log(p[i]) / Math.log(2), 2);
        }
        PmnfModel m = PmnfModeler.fit(p, y);
        assertEquals(new PmnfTerm(-1, 2, 2), m.term(), m.formula());
        assertEquals(Math.exp(4), m.turningPoint(), 1e-9);
        // the fitted curve's largest value on a fine logarithmic grid lies there too
        double argmax = 0;
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k <= 100000; k++) {
            double x = 2 * Math.pow(10000 / 2.0, k / 100000.0);
            if (m.predict(x) > max) {
                max = m.predict(x);
                argmax = x;
            }
        }
        assertEquals(Math.exp(4), argmax, 0.01);
        PmnfModel.TurnOver turn = m.turnOver(p);
        assertNotNull(turn);
        assertTrue(turn.peak());
        String flag = turn.text();
        assertTrue(flag.contains("turns over at p ≈ 55") && flag.contains("beyond the measured 2–16"), flag);

        ModelSearch.SeriesModel sm = new ModelSearch.SeriesModel(new MeasurementSeries("t", List.of("x"), p, y), m, null);
        String text = ScalingText.render(List.of(sm), 64, 0.95);
        assertTrue(text.contains("turns over at p ≈ 55"), text);
        var json = ScalingJson.toJson(null, List.of(sm), 64, 0.95).get("models").get(0);
        assertEquals(Math.exp(4), json.get("turnOver").get("p").asDouble(), 1e-9);
        assertEquals("peak", json.get("turnOver").get("kind").asText());
    }

    /**
     * c0 + c1·p·log2(p) and c0 + c1/p never change direction for p > 1; 1 + 0.5·p^(-1)·log2(p)^2 peaks at p = e^2 ≈ 7.4
     * inside the measured 2 … 16, which the runs show, and keeps falling beyond them: none is flagged.
     */
    @Test
    void formsNotTurningBeyondTheDataAreNotFlagged() {
        double[] p = {2, 4, 8, 16};
        double[] grow = new double[p.length];
        double[] fall = new double[p.length];
        double[] inside = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            double log2 = Math.log(p[i]) / Math.log(2);
            grow[i] = 3 + 0.5 * p[i] * log2;
            fall[i] = 2 + 64 / p[i];
            inside[i] = 1 + 0.5 / p[i] * log2 * log2;
        }
        for (double[] y : List.of(grow, fall, inside)) {
            PmnfModel m = PmnfModeler.fit(p, y);
            assertNotNull(m.term());
            assertNull(m.turnOver(p), m.formula());
            ModelSearch.SeriesModel sm = new ModelSearch.SeriesModel(new MeasurementSeries("t", List.of(), p, y), m, null);
            assertTrue(!ScalingText.render(List.of(sm), 1024, 0.95).contains("turns over"));
            assertTrue(ScalingJson.toJson(null, List.of(sm), 1024, 0.95).get("models").get(0).get("turnOver").isNull());
        }
        assertTrue(Double.isNaN(PmnfModeler.fit(p, grow).turningPoint()));
        assertTrue(Double.isNaN(PmnfModeler.fit(p, fall).turningPoint()));
        PmnfModel peaked = PmnfModeler.fit(p, inside);
        assertEquals(new PmnfTerm(-1, 1, 2), peaked.term(), peaked.formula());
        assertEquals(Math.exp(2), peaked.turningPoint(), 1e-9);
    }
}
