package dev.straggler.patterns.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.patterns.callsite.MpiCallKind;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DiffReportTest {

    /*
     * One rank each, numbers chosen so that every figure of the report can be worked out by hand:
     *   B: compute 60 s, MPI_Alltoall under transpose 30 s (10 s Wait at N x N), MPI_Allreduce under main 10 s (2 s).
     *   A: compute 61 s, MPI_Alltoall 80 s (50 s waiting), MPI_Allreduce 19 s (2 s).
     * Total 100 s -> 160 s: +60 %. Of the 60 s growth, 40 s is Wait at N x N under transpose (66.7 %), 59 s is
     * collective communication (98.3 %), and computation grew by 1 s on 60 s (+1.7 %).
     */
    static SeverityCube before() {
        return new TestCubes(1).attr("name", "before")
                .set("time", "main/compute", 60)
                .set("time", "main/transpose/MPI_Alltoall", 30).set("mpi_wait_nxn", "main/transpose/MPI_Alltoall", 10)
                .set("time", "main/MPI_Allreduce", 10).set("mpi_wait_nxn", "main/MPI_Allreduce", 2)
                .build();
    }

    static SeverityCube after() {
        return new TestCubes(1).attr("name", "after")
                .set("time", "main/compute", 61)
                .set("time", "main/transpose/MPI_Alltoall", 80).set("mpi_wait_nxn", "main/transpose/MPI_Alltoall", 50)
                .set("time", "main/MPI_Allreduce", 19).set("mpi_wait_nxn", "main/MPI_Allreduce", 2)
                .build();
    }

    @Test
    void headlineNamesTheGrowingWaitStateItsCallerAndTheCategories() {
        DiffReport r = DiffReport.of(after(), before());
        assertEquals("total time +60.0 %; of the growth 67 % is Wait at N x N under `transpose`, "
                + "98 % is collective communication, computation +2 %", r.headline());
        assertEquals(60.0, r.totalTime().diff(), 1e-12);
        assertEquals(0.6, r.totalTime().relative(), 1e-12);
        assertEquals("transpose", r.topFinding().caller());
        assertEquals(40.0 / 60.0, r.topFinding().change().share(), 1e-12);
    }

    @Test
    void sharesOfTheCallTreeReferToTheTotalTimeDifference() {
        DiffReport r = DiffReport.of(after(), before());
        DiffReport.CallNode transpose = r.callTree().stream().filter(n -> n.region().equals("transpose")).findFirst().orElseThrow();
        assertEquals(80.0, transpose.change().a(), 1e-12);
        assertEquals(30.0, transpose.change().b(), 1e-12);
        assertEquals(50.0 / 60.0, transpose.change().share(), 1e-12);
        DiffReport.CallNode main = r.callTree().get(0);
        assertEquals("main", main.region());
        assertEquals(1.0, main.change().share(), 1e-12);
        DiffReport.CategoryChange coll = r.categories().stream()
                .filter(c -> c.kind() == MpiCallKind.COLLECTIVE).findFirst().orElseThrow();
        assertEquals(59.0 / 60.0, coll.change().share(), 1e-12);
    }

    @Test
    void shrinkingRunsAreDescribedAsAReduction() {
        DiffReport r = DiffReport.of(before(), after());
        assertTrue(r.headline().startsWith("total time -37.5 %; of the reduction 67 % is Wait at N x N under `transpose`"),
                r.headline());
    }

    @Test
    void differentRankCountsAddPerRankMeansToTheHeadline() {
        // 2 ranks of 10 s against 4 ranks of 6 s: the aggregate grows by 20 %, the time per rank drops by 40 %.
        SeverityCube a = new TestCubes(4).set("time", "main/compute", 6, 6, 6, 6).build();
        SeverityCube b = new TestCubes(2).set("time", "main/compute", 10, 10).build();
        DiffReport r = DiffReport.of(a, b);
        assertTrue(r.collapsed());
        assertTrue(r.headline().startsWith("total time +20.0 % (summed over processes; per-process mean -40.0 %)"),
                r.headline());
        assertEquals(6.0, r.totalTime().aPerRank(), 1e-12);
        assertEquals(10.0, r.totalTime().bPerRank(), 1e-12);
    }

    /**
     * 16 ranks against 8: no process of A corresponds to one of B, so the report says in one line that it compares
     * the whole run and call paths, and labels the per-process means as such instead of per-rank columns.
     */
    @Test
    void differentProcessCountsAreSaidInOneLineAndTheMeansAreLabelledPerProcess() {
        double[] sixteen = new double[16];
        double[] eight = new double[8];
        java.util.Arrays.fill(sixteen, 3);
        java.util.Arrays.fill(eight, 4);
        DiffReport r = DiffReport.of(new TestCubes(16).set("time", "main/compute", sixteen).build(),
                new TestCubes(8).set("time", "main/compute", eight).build());
        String text = DiffText.render(r);
        String line = "note: the runs have different numbers of processes (16 vs 8), so the difference is shown for "
                + "the whole run (summed over processes) and per call path";
        assertTrue(text.contains(line), text);
        assertEquals(1, text.split("different numbers of processes", -1).length - 1, text);
        assertFalse(text.contains("/rank"), text);
        assertTrue(text.contains("A per proc"), text);
        // 48 s against 32 s in all, 3 s against 4 s per process
        assertTrue(text.contains("total time +50.0 % (summed over processes; per-process mean -25.0 %)"), text);
    }

    /** A change that rounds to zero prints without a sign: "-0.0 %" would read as a loss that did not happen. */
    @Test
    void noFigureOfTheTextIsANegativeZero() {
        // total time +100 s; the Late Sender shrinks by 0.01 s: -0.01 % of the change, -0.1 % of its own 10 s
        SeverityCube b = new TestCubes(1).set("time", "main/MPI_Recv", 100).set("mpi_latesender", "main/MPI_Recv", 10)
                .set("time", "main/compute", 100).build();
        SeverityCube a = new TestCubes(1).set("time", "main/MPI_Recv", 99.99).set("mpi_latesender", "main/MPI_Recv", 9.99)
                .set("time", "main/compute", 200.01).build();
        String text = DiffText.render(DiffReport.of(a, b));
        assertTrue(text.contains("Late Sender"), text);
        assertFalse(java.util.regex.Pattern.compile("[-+\u2212]0(\\.0+)?( |%|$)", java.util.regex.Pattern.MULTILINE)
                .matcher(text).find(), text);
    }

    @Test
    void jsonCarriesSchemaHeadlineAndNullForUndefinedRatios() throws Exception {
        // main/new exists only in A: its change relative to B is undefined.
        SeverityCube a = new TestCubes(1).set("time", "main/new", 2).set("time", "main", 1).build();
        SeverityCube b = new TestCubes(1).set("time", "main", 1).build();
        String text = new ObjectMapper().writeValueAsString(DiffJson.toJson(DiffReport.of(a, b)));
        JsonNode j = new ObjectMapper().readTree(text);
        assertEquals(DiffJson.SCHEMA, j.get("schema").asText());
        assertEquals("total time +200.0 %; computation +200 %", j.get("headline").asText());
        JsonNode entry = null;
        for (JsonNode e : j.get("entries")) {
            if (e.get("path").toString().equals("[\"main\",\"new\"]")) {
                entry = e;
            }
        }
        assertTrue(entry != null && entry.get("change").get("relative").isNull());
        assertEquals(2.0, entry.get("change").get("diff").asDouble());
    }

    @Test
    void jsonCanKeepOnlyTheLargestEntries() {
        DiffReport r = DiffReport.of(after(), before());
        var j = DiffJson.toJson(r, 1);
        assertEquals(1, j.get("entries").size());
        assertEquals(r.entries().size() - 1, j.get("entriesOmitted").asInt());
        // The largest difference is MPI_Alltoall's time, +50 s.
        assertEquals(50.0, j.get("entries").get(0).get("change").get("diff").asDouble(), 1e-12);
        assertEquals("time", j.get("entries").get(0).get("metric").asText());
    }

    @Test
    void textShowsHeadlineTreeAndLeavesOutNodesBelowTheShareThreshold() {
        SeverityCube b = before();
        SeverityCube a = new TestCubes(1)
                .set("time", "main/compute", 60)
                .set("time", "main/transpose/MPI_Alltoall", 130).set("mpi_wait_nxn", "main/transpose/MPI_Alltoall", 60)
                .set("time", "main/MPI_Allreduce", 10.5).set("mpi_wait_nxn", "main/MPI_Allreduce", 2)
                .build();
        String text = DiffText.render(DiffReport.of(a, b));
        assertTrue(text.contains(DiffReport.of(a, b).headline()));
        assertTrue(text.contains("    MPI_Alltoall"), text);
        // Allreduce moved 0.5 s of 100.5 s: below the default 1 % threshold.
        assertFalse(text.contains("  MPI_Allreduce"), text);
        assertTrue(text.contains("Wait at N x N"), text);
    }
}
