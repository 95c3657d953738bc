package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Merge, mean and collapse on cubes with root causes. Four ranks; ranks 0-2 wait 0.2 s each in MPI_Recv for rank 3,
 * whose {@code solve} takes 0.2 s longer: 0.6 s of short-term Late Sender delay on (solve, rank 3). The critical
 * path runs through rank 3: 1.2 s in solve (0.2 s of it imbalance) and 0.1 s in MPI_Recv.
 */
class RootCauseAlgebraTest {
    static final String SOLVE = "main/solve";
    static final String RECV = "main/MPI_Recv";

    /** The run as analysed; {@code delay} is the Late Sender delay on (solve, rank 3). */
    static SeverityCube withCauses(String name, double delay) {
        return CauseCubes.cube(4).attr("name", name)
                .set("time", SOLVE, 1.0, 1.0, 1.0, 1.2)
                .set("time", RECV, 0.3, 0.3, 0.3, 0.1)
                .set("mpi", RECV, 0.3, 0.3, 0.3, 0.1)
                .set("mpi_latesender", RECV, 0.2, 0.2, 0.2, 0)
                .set("delay", SOLVE, 0, 0, 0, delay)
                .set("delay_latesender_aggregate", SOLVE, 0, 0, 0, delay)
                .set("delay_latesender", SOLVE, 0, 0, 0, delay)
                .set("critical_path", SOLVE, 0, 0, 0, 1.2)
                .set("critical_path", RECV, 0, 0, 0, 0.1)
                .set("critical_path_imbalance", SOLVE, 0, 0, 0, 0.2)
                .build();
    }

    /** The same run analysed without root causes: the metrics are defined, every value is 0. */
    static SeverityCube withoutCauses() {
        return CauseCubes.cube(4).attr("name", "without")
                .set("time", SOLVE, 1.0, 1.0, 1.0, 1.2)
                .set("time", RECV, 0.3, 0.3, 0.3, 0.1)
                .set("mpi", RECV, 0.3, 0.3, 0.3, 0.1)
                .set("mpi_latesender", RECV, 0.2, 0.2, 0.2, 0)
                .build();
    }

    @Test
    void mergeKeepsDelayCostsWhenTheLaterOperandWasAnalysedWithoutRootCauses() {
        SeverityCube m = ProfileAlgebra.merge(List.of(withCauses("with", 0.6), withoutCauses()));
        assertEquals(0.6, TestCubes.value(m, "delay_latesender", SOLVE, 3));
        assertEquals(1.2, TestCubes.value(m, "critical_path", SOLVE, 3));
        assertEquals(0.2, TestCubes.value(m, "critical_path_imbalance", SOLVE, 3));
    }

    @Test
    void mergeLetsTheLaterOperandWinWhereBothComputedRootCauses() {
        SeverityCube m = ProfileAlgebra.merge(List.of(withCauses("first", 0.6), withCauses("second", 0.9)));
        assertEquals(0.9, TestCubes.value(m, "delay_latesender", SOLVE, 3));
    }

    @Test
    void meanOfRootCausesIsTakenOverTheRunsThatComputedThem() {
        SeverityCube m = ProfileAlgebra.mean(List.of(withCauses("r1", 0.6), withoutCauses(), withCauses("r3", 0.9)));
        assertEquals(0.75, TestCubes.value(m, "delay_latesender", SOLVE, 3), 1e-15);
        assertEquals(1.2, TestCubes.value(m, "critical_path", SOLVE, 3), 1e-15);
        // time is carried by all three runs
        assertEquals(1.2, TestCubes.value(m, "time", SOLVE, 3), 1e-15);
    }

    @Test
    void meanOfAMetricOneOperandDoesNotDefineIsTakenOverTheOthers() {
        SeverityCube noDelayMetrics = new TestCubes(4).set("time", SOLVE, 1.0, 1.0, 1.0, 1.2).build();
        SeverityCube m = ProfileAlgebra.mean(List.of(noDelayMetrics, withCauses("with", 0.6)));
        assertEquals(0.6, TestCubes.value(m, "delay_latesender", SOLVE, 3), 1e-15);
    }

    @Test
    void collapsingToPerRankMeansDividesCostsButNotTheCriticalPath() {
        SeverityCube c = ProfileAlgebra.collapse(withCauses("with", 0.6), SystemMode.MEAN);
        assertEquals(4.2 / 4, TestCubes.value(c, "time", SOLVE, 0), 1e-15);
        assertEquals(0.6 / 4, TestCubes.value(c, "delay_latesender", SOLVE, 0), 1e-15);
        assertEquals(1.2, TestCubes.value(c, "critical_path", SOLVE, 0), 1e-15);
        assertEquals(0.2, TestCubes.value(c, "critical_path_imbalance", SOLVE, 0), 1e-15);
    }

    @Test
    void aPerRankMeanTurnedBackIntoASumKeepsTheCriticalPathLength() {
        SeverityCube perRank = ProfileAlgebra.collapse(withCauses("with", 0.6), SystemMode.MEAN);
        SeverityCube sum = ProfileAlgebra.collapse(perRank, SystemMode.SUM);
        assertEquals(4.2, TestCubes.value(sum, "time", SOLVE, 0), 1e-15);
        assertEquals(1.3, TestCubes.value(sum, "critical_path", SOLVE, 0) + TestCubes.value(sum, "critical_path", RECV, 0),
                1e-15);
    }

    @Test
    void noOperationOnRunsWithAndWithoutRootCausesProducesNaN() {
        SeverityCube with = withCauses("with", 0.6);
        SeverityCube without = withoutCauses();
        SeverityCube twoRanks = CauseCubes.cube(2).set("time", SOLVE, 1.0, 1.0).build();
        for (SeverityCube c : List.of(ProfileAlgebra.diff(with, without), ProfileAlgebra.diff(without, with),
                ProfileAlgebra.merge(List.of(without, with)), ProfileAlgebra.mean(List.of(without, with)),
                ProfileAlgebra.mean(List.of(twoRanks, with), SystemMode.MEAN),
                ProfileAlgebra.collapse(with, SystemMode.MEAN))) {
            for (int m = 0; m < c.metrics().size(); m++) {
                for (int p = 0; p < c.callPaths().size(); p++) {
                    for (int l = 0; l < c.locations().size(); l++) {
                        assertTrue(Double.isFinite(c.get(m, p, l)), c.metrics().get(m).uniqueName());
                    }
                }
            }
        }
    }
}
