package dev.straggler.patterns.scaling;

import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Medya et al.'s bandwidth demand (reference §9.3) on the paper's layout: configurations of 72, 162 and 288
 * processes, runs at 100 % and at 20..40 % bandwidth in 2 % steps, five CTIs. The curves are built linear,
 * {@code T_bw = T_100 · (1 + s_p · (100 − bw))}, so {@code CTI(bw) = s_p · (100 − bw)} and the demand is
 * {@code BW_CTI,p = 100 − CTI / s_p} exactly (linear interpolation is exact on a line).
 */
class BandwidthDemandTest {
    private static final int[] P = {72, 162, 288};
    private static final double[] SLOPE = {0.0026, 0.003, 0.0035};
    private static final List<Double> CTIS = List.of(0.08, 0.11, 0.14, 0.17, 0.20);

    private static List<BandwidthDemand.Measurement> table() {
        List<BandwidthDemand.Measurement> t = new ArrayList<>();
        for (int i = 0; i < P.length; i++) {
            double t100 = 100.0 / P[i] + 3;
            t.add(new BandwidthDemand.Measurement(P[i], 100, t100));
            for (int bw = 20; bw <= 40; bw += 2) {
                t.add(new BandwidthDemand.Measurement(P[i], bw, t100 * (1 + SLOPE[i] * (100 - bw))));
            }
        }
        return t;
    }

    private static double bw(int i, double cti) {
        return 100 - cti / SLOPE[i];
    }

    @Test
    void demandIsWhereTheCurveReachesTheCti() {
        BandwidthDemand.Result r = BandwidthDemand.analyse(table(), CTIS, new int[0]);
        for (BandwidthDemand.Demand d : r.demands()) {
            int i = d.tasks() == 72 ? 0 : d.tasks() == 162 ? 1 : 2;
            assertEquals(bw(i, d.cti()), d.bandwidthPercent(), 1e-9, d.toString());
        }
    }

    @Test
    void threeConfigurationsAndFiveCtisGiveFifteenDemandConstantsAveraged() {
        BandwidthDemand.Result r = BandwidthDemand.analyse(table(), CTIS, new int[0]);
        assertEquals(15, r.constants().size());
        double sum = 0;
        for (int a = 0; a < 3; a++) {
            for (int b = a + 1; b < 3; b++) {
                for (double cti : CTIS) {
                    sum += bw(b, cti) / bw(a, cti) * Math.sqrt((double) P[a] / P[b]);
                }
            }
        }
        assertEquals(sum / 15, r.demandConstant(), 1e-12);
    }

    @Test
    void predictionScalesTheLargestConfigurationsDemand() {
        BandwidthDemand.Result r = BandwidthDemand.analyse(table(), CTIS, new int[] {450});
        assertEquals(5, r.predictions().size());
        for (BandwidthDemand.Prediction p : r.predictions()) {
            assertEquals(bw(2, p.cti()) * r.demandConstant() * Math.sqrt(450.0 / 288), p.bandwidthPercent(), 1e-9);
        }
    }

    @Test
    void repeatedRunsOfOneConfigurationAndBandwidthAreAveraged() {
        List<BandwidthDemand.Measurement> t = new ArrayList<>();
        for (BandwidthDemand.Measurement m : table()) {
            t.add(new BandwidthDemand.Measurement(m.tasks(), m.bandwidthPercent(), m.completionTime() - 0.5));
            t.add(new BandwidthDemand.Measurement(m.tasks(), m.bandwidthPercent(), m.completionTime() + 0.5));
        }
        assertEquals(BandwidthDemand.analyse(table(), CTIS, new int[0]).demandConstant(),
                BandwidthDemand.analyse(t, CTIS, new int[0]).demandConstant(), 1e-12);
    }

    @Test
    void interpolationIsLinearBetweenNeighbouringBandwidths() {
        // CTI 10 % at 40 %, 30 % at 20 %: CTI 25 % is reached at 25 % bandwidth
        List<BandwidthDemand.Measurement> t = List.of(new BandwidthDemand.Measurement(8, 100, 10),
                new BandwidthDemand.Measurement(8, 40, 11), new BandwidthDemand.Measurement(8, 20, 13));
        BandwidthDemand.Result r = BandwidthDemand.analyse(t, List.of(0.25), new int[0]);
        assertEquals(25.0, r.demands().get(0).bandwidthPercent(), 1e-12);
    }

    @Test
    void ctiOutsideTheMeasuredRangeIsReportedNotExtrapolated() {
        // p = 72 reaches at most 20.8 % (at 20 % bandwidth); 30 % is beyond it
        BandwidthDemand.Result r = BandwidthDemand.analyse(table(), List.of(0.30), new int[] {450});
        BandwidthDemand.Demand d = r.demands().stream().filter(x -> x.tasks() == 72).findFirst().orElseThrow();
        assertNull(d.bandwidthPercent());
        // no configuration reaches 30 % (p = 288 reaches 28 %): said in one sentence
        assertTrue(r.noDemand().startsWith("no configuration reaches CTI 30 %"), r.noDemand());
        assertTrue(r.predictions().isEmpty());
    }

    /** CTI 22 % and 26 % lie beyond p = 72 (at most 20.8 %), 26 % also beyond p = 162 (24 %): one note, not three. */
    @Test
    void ctisOutsideTheRangesOfSeveralConfigurationsAreOneNote() {
        BandwidthDemand.Result r = BandwidthDemand.analyse(table(), List.of(0.08, 0.22, 0.26), new int[0]);
        assertEquals(List.of("no demand for 3 of 9 (p, CTI) pairs, the CTI being outside the measured range (never "
                + "extrapolated): p=72 never reaches CTI 22, 26 % (its CTIs span 0 % .. 20.8 %); p=162 never reaches "
                + "CTI 26 % (its CTIs span 0 % .. 24 %)"), r.notes());
        assertNull(r.noDemand());
    }

    /** p = 288 reaches at most 28 % (at 20 % bandwidth): no configuration reaches 40 % or 50 %. */
    @Test
    void noConfigurationReachingAnyCtiIsOneSentenceNotATableWithoutValues() {
        BandwidthDemand.Result r = BandwidthDemand.analyse(table(), List.of(0.40, 0.50), new int[] {450});
        assertEquals("no configuration reaches any CTI of 40, 50 % at any measured bandwidth down to 20 % (the "
                + "largest CTI is 28 %, p=288 at 20 %)", r.noDemand());
        assertEquals(List.of(), r.notes());
        assertEquals(0.208, r.commonReach(), 1e-12);
        String text = BandwidthReport.text(r, "measure lower");
        assertTrue(text.contains("\nBandwidth demand BW_CTI,p: none: " + r.noDemand() + "; measure lower\n"), text);
        assertTrue(!text.contains("p \\ CTI") && !text.contains("Demand constants"), text);
    }

    @Test
    void aConfigurationWithoutAFullBandwidthRunIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> BandwidthDemand.analyse(
                List.of(new BandwidthDemand.Measurement(8, 40, 11)), CTIS, new int[0]));
    }

    @Test
    void malformedRowNamesFileAndLine() {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> BandwidthDemand.parse(
                new StringReader("tasks,bandwidth_percent,completion_time_s\n8,100,10\n8,140,11\n"), "t.csv"));
        assertTrue(e.getMessage().startsWith("t.csv:3:"), e.getMessage());
    }

    @Test
    void tableWithHeaderIsRead() throws IOException {
        assertEquals(2, BandwidthDemand.parse(new StringReader("tasks,bandwidth_percent,completion_time_s\n"
                + "8,100,10\n8,40%,11\n"), "t.csv").size());
    }
}
