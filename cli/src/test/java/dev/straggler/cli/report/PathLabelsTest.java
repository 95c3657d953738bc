package dev.straggler.cli.report;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Region;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PathLabelsTest {
    private final PathLabels labels = new PathLabels(ReportCubes.rootCauses());

    @Test
    void labelsLeaveOutTheTrunkAllCallPathsShare() {
        assertEquals("\u2026/solve/work", labels.label(ReportCubes.WORK, 60));
        assertEquals("main/solve/work", labels.full(ReportCubes.WORK));
    }

    @Test
    void theTrunkItselfIsNamedByItsLastRegion() {
        assertEquals("main", labels.label(ReportCubes.MAIN, 60));
    }

    @Test
    void tooLongLabelsKeepTheCallee() {
        assertEquals("\u2026/work", labels.label(ReportCubes.WORK, 10));
    }

    @Test
    void cppSignaturesAreShortenedToTheFunctionName() {
        assertEquals("Release", PathLabels.shortName("void Release(T**) [with T = double]"));
        assertEquals("CalcElemVolume", PathLabels.shortName("Real_t CalcElemVolume(const Real_t*, const Real_t*)"));
        assertEquals("Allocate", PathLabels.shortName("T* Allocate(size_t) [with T = double]"));
        assertEquals("ns::Solver::run", PathLabels.shortName("int ns::Solver::run(int)"));
        assertEquals("MPI_Recv", PathLabels.shortName("MPI_Recv"));
        assertEquals("bool operator()(int) const", PathLabels.shortName("bool operator()(int) const"));
    }

    @Test
    void callPathsThatWouldReadTheSameNameTheCallerInWhichTheyDiffer() {
        // main/{x/t/g/MPI_Alltoall, y/t/g/MPI_Alltoall, z}: with 16 characters both
        // Alltoall paths would be "…/g/MPI_Alltoall"
        List<Region> regions = List.of(Region.function(0, "main"), Region.function(1, "x"), Region.function(2, "y"),
                Region.function(3, "t"), Region.function(4, "g"), Region.function(5, "MPI_Alltoall"),
                Region.function(6, "z"));
        List<CallPath> paths = List.of(new CallPath(0, -1, 0, 0),
                new CallPath(1, 0, 1, 0), new CallPath(2, 1, 3, 0), new CallPath(3, 2, 4, 0), new CallPath(4, 3, 5, 0),
                new CallPath(5, 0, 2, 0), new CallPath(6, 5, 3, 0), new CallPath(7, 6, 4, 0), new CallPath(8, 7, 5, 0),
                new CallPath(9, 0, 6, 0));
        SeverityCube cube = new SeverityCube(ReportCubes.rootCauses().metrics(), regions, paths,
                List.of(new SystemLocation(0, 0, 0, "")), Map.of());
        Map<Integer, String> names = new PathLabels(cube).distinct(List.of(4, 8, 9), 16);
        assertEquals("\u2026/x/\u2026/MPI_Alltoall", names.get(4));
        assertEquals("\u2026/y/\u2026/MPI_Alltoall", names.get(8));
        assertEquals("\u2026/z", names.get(9));
    }
}
