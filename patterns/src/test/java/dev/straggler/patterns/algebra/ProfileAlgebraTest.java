package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProfileAlgebraTest {

    /** A 4-rank run: main calls compute and transpose, transpose calls MPI_Alltoall. */
    static SeverityCube small() {
        return new TestCubes(4).attr("name", "small")
                .set("time", "main", 0.1, 0.1, 0.2, 0.1)
                .set("time", "main/compute", 3.0, 2.5, 2.0, 1.5)
                .set("time", "main/transpose/MPI_Alltoall", 1.0, 1.5, 2.0, 2.5)
                .set("mpi", "main/transpose/MPI_Alltoall", 1.0, 1.5, 2.0, 2.5)
                .set("mpi_collective", "main/transpose/MPI_Alltoall", 1.0, 1.5, 2.0, 2.5)
                .set("mpi_wait_nxn", "main/transpose/MPI_Alltoall", 1.5, 1.0, 0.5, 0.0)
                .all("visits", "main/transpose/MPI_Alltoall", 10)
                .build();
    }

    static double[] snapshot(SeverityCube c) {
        int n = c.metrics().size() * c.callPaths().size() * c.locations().size();
        double[] out = new double[n];
        int i = 0;
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                for (int l = 0; l < c.locations().size(); l++) {
                    out[i++] = c.get(m, p, l);
                }
            }
        }
        return out;
    }

    @Test
    void differenceOfACubeWithItselfIsZeroEverywhere() {
        SeverityCube a = small();
        SeverityCube d = ProfileAlgebra.diff(a, a);
        assertEquals(a.callPaths().size(), d.callPaths().size());
        assertEquals(a.locations().size(), d.locations().size());
        for (double v : snapshot(d)) {
            assertEquals(0.0, v);
        }
        assertTrue(d.isFrozen());
    }

    @Test
    void meanOfIdenticalCubesIsExactlyTheCube() {
        SeverityCube a = small();
        // 0.1 + 0.1 + 0.1 is not 0.3 in binary floating point; the mean must still give back exactly 0.1.
        SeverityCube m = ProfileAlgebra.mean(List.of(a, small(), small()));
        for (int metric = 0; metric < a.metrics().size(); metric++) {
            for (int p = 0; p < a.callPaths().size(); p++) {
                String path = String.join("/", a.pathNames(p));
                for (int l = 0; l < 4; l++) {
                    assertEquals(a.get(metric, p, l), TestCubes.value(m, a.metrics().get(metric).uniqueName(), path, l));
                }
            }
        }
        assertFalse(m.metric("visits").integer(), "a mean of counts is not an integer metric");
    }

    @Test
    void meanOfTwoRepetitionsIsTheirAverage() {
        SeverityCube a = new TestCubes(2).set("time", "main", 1.0, 3.0).build();
        SeverityCube b = new TestCubes(2).set("time", "main", 2.0, 6.0).set("time", "main/extra", 4.0, 0.0).build();
        SeverityCube m = ProfileAlgebra.mean(List.of(a, b));
        assertEquals(1.5, TestCubes.value(m, "time", "main", 0));
        assertEquals(4.5, TestCubes.value(m, "time", "main", 1));
        // A call path one repetition lacks counts as 0 there.
        assertEquals(2.0, TestCubes.value(m, "time", "main/extra", 0));
    }

    @Test
    void collapseOfTheDifferenceEqualsTheDifferenceOfCollapsedOperands() {
        SeverityCube a = small();
        SeverityCube b = new TestCubes(4)
                .set("time", "main/compute", 2.0, 2.0, 2.0, 2.0)
                .set("time", "main/transpose/MPI_Alltoall", 0.5, 0.25, 1.0, 0.75)
                .set("mpi_wait_nxn", "main/transpose/MPI_Alltoall", 0.5, 0.25, 0.0, 0.0)
                .set("time", "main/io", 1.0, 0.0, 0.0, 0.0)
                .build();
        for (SystemMode mode : List.of(SystemMode.SUM, SystemMode.MEAN)) {
            SeverityCube left = ProfileAlgebra.collapse(ProfileAlgebra.diff(a, b), mode);
            SeverityCube right = ProfileAlgebra.diff(ProfileAlgebra.collapse(a, mode), ProfileAlgebra.collapse(b, mode));
            assertEquals(1, left.locations().size());
            assertEquals(left.callPaths().size(), right.callPaths().size());
            for (int m = 0; m < left.metrics().size(); m++) {
                String metric = left.metrics().get(m).uniqueName();
                for (int p = 0; p < left.callPaths().size(); p++) {
                    String path = String.join("/", left.pathNames(p));
                    assertEquals(left.get(m, p, 0), TestCubes.value(right, metric, path, 0), 1e-12, metric + " " + path);
                }
            }
        }
    }

    @Test
    void operandsAreNotModified() {
        SeverityCube a = small();
        SeverityCube b = new TestCubes(6).set("time", "main/compute", 1, 1, 1, 1, 1, 1).build();
        double[] before = snapshot(a);
        double[] beforeB = snapshot(b);
        ProfileAlgebra.diff(a, b);
        ProfileAlgebra.merge(List.of(a, b));
        ProfileAlgebra.mean(List.of(a, b));
        ProfileAlgebra.collapse(a, SystemMode.MEAN);
        DiffReport.of(a, b);
        assertTrue(java.util.Arrays.equals(before, snapshot(a)));
        assertTrue(java.util.Arrays.equals(beforeB, snapshot(b)));
        assertEquals(4, a.locations().size());
    }

    @Test
    void callPathsAreMatchedByRegionNamesNotByRegionIndices() {
        SeverityCube a = new TestCubes(2, TestCubes.METRICS, List.of("main", "compute", "solve"))
                .set("time", "main/solve", 5, 7).set("time", "main/compute", 1, 2).build();
        // The same program with its regions defined in another order: every region index differs.
        SeverityCube b = new TestCubes(2, TestCubes.METRICS, List.of("solve", "compute", "main"))
                .set("time", "main/compute", 0.5, 0.5).set("time", "main/solve", 4, 4).build();
        SeverityCube d = ProfileAlgebra.diff(a, b);
        assertEquals(3, d.callPaths().size(), "main, main/compute, main/solve once each");
        assertEquals(1.0, TestCubes.value(d, "time", "main/solve", 0));
        assertEquals(3.0, TestCubes.value(d, "time", "main/solve", 1));
        assertEquals(0.5, TestCubes.value(d, "time", "main/compute", 0));
        assertEquals(1.5, TestCubes.value(d, "time", "main/compute", 1));
    }

    /**
     * The same program built in two directories (compilers record absolute source paths): its call paths are the
     * same, so the difference is taken per call path, not as one tree added and another subtracted.
     */
    @Test
    void regionsOfTheSameFileInAnotherDirectoryAreTheSameRegions() {
        SeverityCube a = new TestCubes(2, TestCubes.METRICS, List.of(), "/home/a/build-1")
                .set("time", "main/solve/MPI_Allreduce", 3, 3).set("time", "main/solve", 5, 7).build();
        SeverityCube b = new TestCubes(2, TestCubes.METRICS, List.of(), "/scratch/b/build-2")
                .set("time", "main/solve/MPI_Allreduce", 2, 2).set("time", "main/solve", 4, 4).build();
        SeverityCube d = ProfileAlgebra.diff(a, b);
        assertEquals(3, d.callPaths().size(), "main, main/solve, main/solve/MPI_Allreduce once each");
        assertEquals(1.0, TestCubes.value(d, "time", "main/solve/MPI_Allreduce", 0));
        assertEquals(3.0, TestCubes.value(d, "time", "main/solve", 1));
    }

    /**
     * Two regions of one run that differ only in their directory stay two regions, and a third run's region of that
     * name and file name, in yet another directory, matches neither (it could be either).
     */
    @Test
    void twoFilesOfOneNameInOneRunStayApart() {
        List<dev.straggler.trace.Region> regions = List.of(
                new dev.straggler.trace.Region(0, "main", "main", "/src/x/app.c", 0, 0,
                        dev.straggler.trace.Paradigm.USER, dev.straggler.trace.RegionRole.FUNCTION),
                new dev.straggler.trace.Region(1, "main", "main", "/src/y/app.c", 0, 0,
                        dev.straggler.trace.Paradigm.USER, dev.straggler.trace.RegionRole.FUNCTION));
        SeverityCube two = new SeverityCube(TestCubes.METRICS, regions,
                List.of(new dev.straggler.patterns.cube.CallPath(0, -1, 0, 0),
                        new dev.straggler.patterns.cube.CallPath(1, -1, 1, 0)),
                List.of(new dev.straggler.patterns.cube.SystemLocation(0, 0, 0, "Master thread")), java.util.Map.of())
                .freeze();
        SeverityCube other = new TestCubes(1, TestCubes.METRICS, List.of(), "/src/z").set("time", "main", 1).build();
        SeverityCube d = ProfileAlgebra.diff(two, other);
        assertEquals(3, d.regions().size(), "main of x, main of y, and main of z matching neither");
        assertEquals(3, d.callPaths().size());
    }

    @Test
    void subtreesOnlyTheSubtrahendHasAppearNegated() {
        SeverityCube a = new TestCubes(2).set("time", "main", 1, 1).build();
        SeverityCube b = new TestCubes(2).set("time", "main", 1, 1).set("time", "main/old/MPI_Barrier", 0.25, 0.5).build();
        SeverityCube d = ProfileAlgebra.diff(a, b);
        assertEquals(-0.25, TestCubes.value(d, "time", "main/old/MPI_Barrier", 0));
        assertEquals(-0.5, TestCubes.value(d, "time", "main/old/MPI_Barrier", 1));
        assertEquals(0.0, TestCubes.value(d, "time", "main", 0));
    }

    @Test
    void differentRankCountsCollapseToTheSumOverRanksAndSaySo() {
        SeverityCube a = new TestCubes(4).attr("name", "p4").set("time", "main", 1, 2, 3, 4).build();
        SeverityCube b = new TestCubes(6).attr("name", "p6").set("time", "main", 1, 1, 1, 1, 1, 1).build();
        SeverityCube d = ProfileAlgebra.diff(a, b);
        assertEquals(1, d.locations().size());
        assertEquals(10.0 - 6.0, TestCubes.value(d, "time", "main", 0));
        assertEquals(CubeAttributes.SYSTEM_SUM, d.attributes().get(CubeAttributes.SYSTEM));
        String note = d.attributes().get(CubeAttributes.SYSTEM_NOTE);
        assertTrue(note.contains("different ranks") && note.contains("A: 4 ranks") && note.contains("B: 6 ranks"), note);
        assertNull(d.attributes().get(CubeAttributes.SYSTEM_RANKS), "a 4-rank minus a 6-rank run stands for no single rank count");
    }

    /** A collapsed result keeps each operand's process count, so that a report of it can say what it compares. */
    @Test
    void aCollapsedDifferenceRecordsEachOperandsProcessCount() {
        SeverityCube a = new TestCubes(4).set("time", "main", 1, 2, 3, 4).build();
        SeverityCube b = new TestCubes(6).set("time", "main", 1, 1, 1, 1, 1, 1).build();
        assertArrayEquals(new int[]{4, 6}, CubeAttributes.operandRanks(ProfileAlgebra.diff(a, b)));
        assertArrayEquals(new int[]{4, 6}, CubeAttributes.operandRanks(ProfileAlgebra.diff(a, b, SystemMode.MEAN)));
        assertNull(CubeAttributes.operandRanks(ProfileAlgebra.diff(a, a)), "per location: nothing collapsed");
    }

    @Test
    void meanModeComparesPerRankMeans() {
        SeverityCube a = new TestCubes(4).set("time", "main", 1, 2, 3, 4).build();
        SeverityCube b = new TestCubes(6).set("time", "main", 1, 1, 1, 1, 1, 1).build();
        SeverityCube d = ProfileAlgebra.diff(a, b, SystemMode.MEAN);
        assertEquals(10.0 / 4 - 6.0 / 6, TestCubes.value(d, "time", "main", 0), 1e-15);
        assertEquals(CubeAttributes.SYSTEM_MEAN, d.attributes().get(CubeAttributes.SYSTEM));
    }

    @Test
    void aCollapsedResultRemembersItsRanksAndCanBeConvertedAgain() {
        SeverityCube a = new TestCubes(4).set("time", "main", 1, 2, 3, 4).build();
        SeverityCube sum = ProfileAlgebra.collapse(a, SystemMode.SUM);
        assertEquals("4", sum.attributes().get(CubeAttributes.SYSTEM_RANKS));
        SeverityCube mean = ProfileAlgebra.collapse(sum, SystemMode.MEAN);
        assertEquals(2.5, TestCubes.value(mean, "time", "main", 0));
        // A per-rank mean compared with a 6-rank run: both become sums again.
        SeverityCube b = new TestCubes(6).set("time", "main", 1, 1, 1, 1, 1, 1).build();
        assertEquals(4.0, TestCubes.value(ProfileAlgebra.diff(mean, b), "time", "main", 0), 1e-12);
    }

    @Test
    void theResultOfAnOperationIsAnOperandAgain() {
        SeverityCube a = small();
        SeverityCube b = new TestCubes(4).set("time", "main/compute", 1, 1, 1, 1).build();
        SeverityCube d = ProfileAlgebra.diff(a, b);
        SeverityCube dd = ProfileAlgebra.diff(d, ProfileAlgebra.diff(a, b));
        for (double v : snapshot(dd)) {
            assertEquals(0.0, v);
        }
        SeverityCube back = ProfileAlgebra.diff(ProfileAlgebra.mean(List.of(d, d)), d);
        for (double v : snapshot(back)) {
            assertEquals(0.0, v);
        }
    }

    @Test
    void perLocationModeRefusesDifferentRanks() {
        SeverityCube a = new TestCubes(4).set("time", "main", 1, 2, 3, 4).build();
        SeverityCube b = new TestCubes(2).set("time", "main", 1, 1).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProfileAlgebra.diff(a, b, SystemMode.PER_LOCATION));
        assertTrue(e.getMessage().contains("different locations"), e.getMessage());
    }

    @Test
    void mergeJoinsMetricSetsAndTheLaterOperandWins() {
        List<dev.straggler.patterns.cube.Metric> timeOnly = List.of(TestCubes.METRICS.get(0));
        List<dev.straggler.patterns.cube.Metric> visitsOnly = List.of(TestCubes.METRICS.get(6));
        SeverityCube a = new TestCubes(2, timeOnly, List.of()).set("time", "main", 1, 2).build();
        SeverityCube b = new TestCubes(2, visitsOnly, List.of()).set("visits", "main", 5, 6).build();
        SeverityCube c = new TestCubes(2, timeOnly, List.of()).set("time", "main", 9, 0).build();
        SeverityCube m = ProfileAlgebra.merge(List.of(a, b, c));
        assertEquals(2, m.metrics().size());
        assertEquals(9.0, TestCubes.value(m, "time", "main", 0));
        assertEquals(0.0, TestCubes.value(m, "time", "main", 1), "set, not added: c's 0 overwrites a's 2");
        assertEquals(6.0, TestCubes.value(m, "visits", "main", 1));
        assertTrue(m.metric("visits").integer());
        assertEquals("merge", m.attributes().get(CubeAttributes.OPERATION));
    }
}
