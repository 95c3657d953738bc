package dev.straggler.cli.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PathLabelsTest {
    private final PathLabels labels = new PathLabels(ReportCubes.rootCauses());

    @Test
    void labelsLeaveOutTheTrunkAllCallPathsShare() {
        assertEquals("solve \u203a work", labels.label(ReportCubes.WORK, 60));
        assertEquals("main \u203a solve \u203a work", labels.full(ReportCubes.WORK));
    }

    @Test
    void theTrunkItselfIsNamedByItsLastRegion() {
        assertEquals("main", labels.label(ReportCubes.MAIN, 60));
    }

    @Test
    void tooLongLabelsKeepTheCallee() {
        assertEquals("\u2026 \u203a work", labels.label(ReportCubes.WORK, 10));
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
}
