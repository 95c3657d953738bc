package dev.straggler.patterns.scaling;

import dev.straggler.patterns.algebra.CauseMetrics;
import dev.straggler.patterns.algebra.ScalascaMgSeries;
import dev.straggler.patterns.algebra.WaitStatePatterns;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The wait-state rank correlation over Scalasca's analyses of NPB MG class S on 2, 4, 8 and 16 ranks. */
class WaitStateScalingOnScalascaTest {

    @Test
    void seriesOfEveryPatternAddUpToScalascasTotals() throws Exception {
        List<SeverityCube> cubes = new ArrayList<>();
        for (int p : ScalascaMgSeries.RANKS) {
            cubes.add(ScalascaMgSeries.cube(p));
        }
        WaitStateScaling.Result r = WaitStateScaling.analyse(cubes, new RankCorrelation.Options(0));
        assertEquals(List.of(2, 4, 8, 16), java.util.Arrays.stream(r.analysis().tasks()).boxed().toList());
        for (int i = 0; i < cubes.size(); i++) {
            Map<String, Double> sums = new HashMap<>();
            for (RankCorrelation.Row row : r.analysis().rows()) {
                String metric = r.keys().get(row.key()).metric();
                sums.merge(metric, row.series().get(i).time(), Double::sum);
            }
            Map<String, Double> totals = ScalascaMgSeries.totals(ScalascaMgSeries.RANKS[i]);
            int checked = 0;
            for (String pattern : WaitStatePatterns.NAMES) {
                // the waits inside MPI_Init/MPI_Finalize are left out with them (start-up, not communication)
                if (totals.containsKey(pattern) && !WaitStateScaling.INIT_FINALIZE_WAITS.contains(pattern)) {
                    assertEquals(totals.get(pattern), sums.getOrDefault(pattern, 0.0), 1e-5 * Math.abs(totals.get(pattern)) + 1e-12,
                            pattern + " at p=" + ScalascaMgSeries.RANKS[i]);
                    checked++;
                }
            }
            assertTrue(checked >= 12, "patterns compared: " + checked);
        }
        // Shares are of the time in MPI regions (scout.cubex has no mpi metric).
        assertTrue(r.denominators().stream().allMatch(d -> d.endsWith("time in MPI regions other than MPI_Init/MPI_Finalize")), r.denominators().toString());
    }

    @Test
    void delayRowsOfEachKindAddUpToScalascasShortAndLongTermTotals() throws Exception {
        List<SeverityCube> cubes = new ArrayList<>();
        for (int p : ScalascaMgSeries.RANKS) {
            cubes.add(ScalascaMgSeries.cube(p));
        }
        WaitStateScaling.Result r = WaitStateScaling.analyse(cubes, new RankCorrelation.Options(0));
        for (int i = 0; i < cubes.size(); i++) {
            Map<String, Double> sums = new HashMap<>();
            for (RankCorrelation.Row row : r.analysis().rows()) {
                sums.merge(r.keys().get(row.key()).metric(), row.series().get(i).time(), Double::sum);
            }
            Map<String, Double> totals = ScalascaMgSeries.totals(ScalascaMgSeries.RANKS[i]);
            for (int k = 0; k < CauseMetrics.MPI_KINDS; k++) {
                double expected = totals.getOrDefault(CauseMetrics.SHORT_TERM.get(k), 0.0)
                        + totals.getOrDefault(CauseMetrics.LONG_TERM.get(k), 0.0);
                assertEquals(expected, sums.getOrDefault(CauseMetrics.aggregate(k), 0.0), 1e-5 * expected + 1e-12,
                        CauseMetrics.aggregate(k) + " at p=" + ScalascaMgSeries.RANKS[i]);
            }
        }
    }

    /**
     * MPI_Init takes 92 % of the series' MPI time; with it in the denominator no wait state reaches 1 %. Without it,
     * Wait at N x N in zran3's MPI_Allreduce grows monotonically with p (r_s = +1, exact p = 2/24 for 4 runs).
     */
    @Test
    void waitStatesAreVisibleWhenMpiInitIsOutOfTheDenominator() throws Exception {
        List<SeverityCube> cubes = new ArrayList<>();
        for (int p : ScalascaMgSeries.RANKS) {
            cubes.add(ScalascaMgSeries.cube(p));
        }
        WaitStateScaling.Result r = WaitStateScaling.analyse(cubes, RankCorrelation.Options.defaults());
        RankCorrelation.Row nxn = r.analysis().rows().stream()
                .filter(x -> x.key().contains("Wait at N x N @") && x.key().endsWith("zran3/MPI_Allreduce"))
                .findFirst().orElseThrow(() -> new AssertionError(r.analysis().rows().toString()));
        assertEquals(1.0, nxn.rs(), 1e-12);
        assertEquals(2.0 / 24, nxn.pValue(), 1e-15);
        assertTrue(nxn.maxShare() > 0.05, "share " + nxn.maxShare());
        assertTrue(r.analysis().rows().stream().noneMatch(x -> x.key().contains("Initialization Completion")));
    }
}
