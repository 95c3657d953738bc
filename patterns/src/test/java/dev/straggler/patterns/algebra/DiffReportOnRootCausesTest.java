package dev.straggler.patterns.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The diff report's metric table on root-cause metrics (runs of {@link RootCauseAlgebraTest}). */
class DiffReportOnRootCausesTest {

    private static DiffReport.MetricChange metric(DiffReport r, String name) {
        return r.metrics().stream().filter(m -> m.metric().equals(name)).findFirst().orElse(null);
    }

    @Test
    void criticalPathHasNoPerRankMeanAndNoShareOfTheTimeDifference() {
        // 4 ranks with a 1.3 s path against 2 ranks with a 1.0 s path: the path grew by 0.3 s, whatever the ranks.
        SeverityCube a = RootCauseAlgebraTest.withCauses("a", 0.6);
        SeverityCube b = CauseCubes.cube(2).set("time", "main/solve", 1.0, 1.0)
                .set("critical_path", "main/solve", 1.0, 0).set("delay", "main/solve", 0, 0.1).build();
        DiffReport.Change cp = metric(DiffReport.of(a, b), "critical_path").change();
        assertEquals(1.3, cp.a(), 1e-15);
        assertEquals(1.0, cp.b(), 1e-15);
        assertEquals(0.3, cp.relative(), 1e-15);
        assertTrue(Double.isNaN(cp.aPerRank()) && Double.isNaN(cp.bPerRank()) && Double.isNaN(cp.share()));
        // a delay cost is a cost every rank can pay: it keeps both
        DiffReport.Change delay = metric(DiffReport.of(a, b), "delay").change();
        assertEquals(0.6 / 4, delay.aPerRank(), 1e-15);
        // a delay cost is no part of the time that changed: no share of it
        assertTrue(Double.isNaN(delay.share()), "share " + delay.share());
    }

    @Test
    void rootCausesOneRunWasAnalysedWithoutAreLeftOutAndNamedInANote() {
        DiffReport r = DiffReport.of(RootCauseAlgebraTest.withCauses("with", 0.6), RootCauseAlgebraTest.withoutCauses());
        assertEquals(null, metric(r, "delay"));
        assertEquals(null, metric(r, "critical_path"));
        assertTrue(r.entries().stream().noneMatch(e -> CauseMetrics.isRootCause(e.metric())));
        assertEquals(1, r.notes().size(), r.notes().toString());
        assertEquals("only A has root causes: delay costs, propagation and critical path are not compared",
                r.notes().get(0));
        assertTrue(DiffText.render(r).contains("note: only A has root causes"));
        JsonNode notes = DiffJson.toJson(r).get("notes");
        assertEquals(r.notes().get(0), notes.get(0).asText());
    }

    @Test
    void aMetricOnlyOneRunDefinesIsNamedInANoteInsteadOfShrinkingByAHundredPercent() {
        SeverityCube a = new TestCubes(1).set("time", "main", 2).set("visits", "main", 1).build();
        SeverityCube b = CauseCubes.cube(1).set("time", "main", 1).set("critical_path", "main", 1).build();
        DiffReport r = DiffReport.of(a, b);
        assertEquals(null, metric(r, "visits"));
        assertEquals(null, metric(r, "critical_path"));
        assertTrue(r.notes().contains("metrics only A has are not compared: mpi_collective, mpi_point2point, visits"),
                r.notes().toString());
        assertTrue(r.notes().contains("only B has root causes: delay costs, propagation and critical path are not "
                + "compared"), r.notes().toString());
    }

    @Test
    void sharesReferToATimeMetricBothRunsCarry() {
        // B defines no time: the report must not take shares of A's time against nothing
        SeverityCube a = CauseCubes.cube(1).set("time", "main", 2).set("mpi", "main", 1).set("critical_path", "main", 2)
                .build();
        SeverityCube b = new TestCubes(1, List.of(Metric.time("mpi", "MPI", null, "")), List.of())
                .set("mpi", "main", 0.5).build();
        DiffReport r = DiffReport.of(a, b);
        assertEquals("mpi", r.timeMetric());
        assertEquals(1.0, metric(r, "mpi").change().share(), 1e-15);
    }

    @Test
    void roundingResidueOfTheTotalTimeIsNoChange() {
        // the same three numbers summed in another order: 0.6000000000000001 against 0.6
        SeverityCube a = new TestCubes(3).set("time", "main", 0.1, 0.2, 0.3).build();
        SeverityCube b = new TestCubes(3).set("time", "main", 0.3, 0.2, 0.1).build();
        DiffReport r = DiffReport.of(a, b);
        assertEquals("total time unchanged", r.headline());
        for (DiffReport.MetricChange m : r.metrics()) {
            assertTrue(Double.isNaN(m.change().share()), m.metric());
        }
        assertFalse(DiffText.render(r).contains("E+") || DiffText.render(r).contains("e+"));
    }
}
