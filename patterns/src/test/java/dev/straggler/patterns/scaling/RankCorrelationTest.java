package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RankCorrelationTest {

    /**
     * A strong-scaling family with known behaviour, two repetitions per task count with 3 % noise: an all-to-all
     * whose aggregate time grows like p·log p (its share of communication rises throughout), a reduction growing
     * like log p (its share first rises, then falls as the all-to-all takes over), a halo exchange constant in
     * aggregate (its share falls throughout), and a rarely used broadcast (0.2 % of communication).
     */
    static List<ScalingExperiment> family() {
        Random rnd = new Random(7);
        List<ScalingExperiment> out = new ArrayList<>();
        for (int p : new int[]{8, 16, 32, 64, 128}) {
            for (int rep = 0; rep < 2; rep++) {
                double alltoall = 0.2 * p * Math.log(p) * noise(rnd);
                double halo = 40 * noise(rnd);
                double allreduce = 2 * Math.log(p) * noise(rnd);
                double comm = (alltoall + halo + allreduce) / 0.998;
                double bcast = 0.002 * comm;
                out.add(new ScalingExperiment("p" + p + "#" + rep, p,
                        Map.of("Alltoall@transpose", alltoall, "Sendrecv@halo", halo, "Allreduce@norm", allreduce,
                                "Bcast@setup", bcast), comm));
            }
        }
        return out;
    }

    static double noise(Random rnd) {
        return 1 + 0.03 * (2 * rnd.nextDouble() - 1);
    }

    @Test
    void callsitesDesignedToScaleBadlyRankFirst() {
        RankCorrelation.Result r = RankCorrelation.analyse(family());
        assertEquals(3, r.rows().size());
        assertEquals("Alltoall@transpose", r.rows().get(0).key());
        assertEquals("Allreduce@norm", r.rows().get(1).key());
        assertEquals("Sendrecv@halo", r.rows().get(2).key());
        assertTrue(r.rows().get(0).rs() > 0.9, "alltoall r_s " + r.rows().get(0).rs());
        assertTrue(r.rows().get(2).rs() < -0.9, "halo r_s " + r.rows().get(2).rs());
        assertTrue(Math.abs(r.rows().get(1).rs()) < 0.7, "allreduce r_s " + r.rows().get(1).rs());
        assertEquals(1, r.belowThreshold(), "the 0.2 % broadcast is under the 1 % threshold");
        assertEquals(5, r.distinctTasks());
    }

    @Test
    void rawSeriesAndRanksAreKeptInExperimentOrder() {
        List<ScalingExperiment> exps = family();
        RankCorrelation.Result r = RankCorrelation.analyse(exps);
        RankCorrelation.Row halo = r.rows().get(2);
        assertEquals(10, halo.series().size());
        assertEquals(exps.get(3).times().get("Sendrecv@halo"), halo.series().get(3).time());
        assertEquals(exps.get(3).share("Sendrecv@halo"), halo.series().get(3).share());
        // Two repetitions at each of 5 task counts: mid-ranks 1.5, 3.5, ..., 9.5.
        assertEquals(1.5, halo.taskRanks()[0]);
        assertEquals(1.5, halo.taskRanks()[1]);
        assertEquals(9.5, halo.taskRanks()[9]);
    }

    @Test
    void aLowerThresholdKeepsTheRareCallsite() {
        RankCorrelation.Result r = RankCorrelation.analyse(family(), new RankCorrelation.Options(0.001));
        assertEquals(4, r.rows().size());
        assertEquals(0, r.belowThreshold());
    }

    @Test
    void aShareThatNeverChangesHasUndefinedCorrelationAndSortsLast() {
        List<ScalingExperiment> exps = List.of(
                new ScalingExperiment("a", 2, Map.of("flat", 1.0, "grows", 1.0), 4),
                new ScalingExperiment("b", 4, Map.of("flat", 2.0, "grows", 3.0), 8),
                new ScalingExperiment("c", 8, Map.of("flat", 4.0, "grows", 7.0), 16));
        RankCorrelation.Result r = RankCorrelation.analyse(exps);
        assertEquals("grows", r.rows().get(0).key());
        assertEquals(1.0, r.rows().get(0).rs(), 1e-15);
        assertTrue(Double.isNaN(r.rows().get(1).rs()));
    }

    @Test
    void oneTaskCountIsReportedAsUndefined() {
        List<ScalingExperiment> exps = List.of(
                new ScalingExperiment("a", 4, Map.of("x", 1.0), 4),
                new ScalingExperiment("b", 4, Map.of("x", 2.0), 4));
        RankCorrelation.Result r = RankCorrelation.analyse(exps);
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("same number of tasks")));
        assertTrue(Double.isNaN(r.rows().get(0).rs()));
    }

    @Test
    void needsTwoExperiments() {
        assertThrows(IllegalArgumentException.class,
                () -> RankCorrelation.analyse(List.of(new ScalingExperiment("a", 4, Map.of("x", 1.0), 4))));
    }
}
