package dev.straggler.patterns.algebra;

import com.fasterxml.jackson.databind.JsonNode;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The why of a diff: the change of the delay costs by delaying call path. Four ranks; "before" and "after" runs
 * whose delay costs are set by hand:
 * <pre>
 *                                      before   after   change
 *   x_solve, rank 3, short-term LS      0.2 s   0.5 s   +0.3 s
 *   y_solve, rank 1, long-term N x N    0.1 s   0.2 s   +0.1 s
 * </pre>
 * The delays grew by 0.4 s: 75 % of it is x_solve's (all short-term), 25 % y_solve's (all propagated).
 */
class DelayCausesTest {
    static final String X = "main/x_solve";
    static final String Y = "main/y_solve";
    static final String RECV = "main/MPI_Recv";

    /** A run with the given Late Sender delay on (x_solve, rank 3) and N x N long-term delay on (y_solve, rank 1). */
    static SeverityCube run(String name, double xLateSender, double yNxnLongTerm) {
        double wait = xLateSender + yNxnLongTerm;
        return CauseCubes.cube(4).attr("name", name)
                .set("time", X, 1, 1, 1, 1 + xLateSender)
                .set("time", Y, 1, 1 + yNxnLongTerm, 1, 1)
                .set("time", RECV, wait, 0, 0, 0).set("mpi", RECV, wait, 0, 0, 0)
                .set("mpi_latesender", RECV, xLateSender, 0, 0, 0)
                .set("mpi_wait_nxn", RECV, yNxnLongTerm, 0, 0, 0)
                .set("delay", X, 0, 0, 0, xLateSender)
                .set("delay_latesender_aggregate", X, 0, 0, 0, xLateSender)
                .set("delay_latesender", X, 0, 0, 0, xLateSender)
                .set("delay", Y, 0, yNxnLongTerm, 0, 0)
                .set("delay_n2n_aggregate", Y, 0, yNxnLongTerm, 0, 0)
                .set("delay_n2n_longterm", Y, 0, yNxnLongTerm, 0, 0)
                .set("critical_path", X, 0, 0, 0, 1 + xLateSender)
                .build();
    }

    static SeverityCube before() {
        return run("before", 0.2, 0.1);
    }

    static SeverityCube after() {
        return run("after", 0.5, 0.2);
    }

    private static DelayCauses.Cause cause(DelayCauses c, String label) {
        return c.causes().stream().filter(x -> x.label().equals(label)).findFirst().orElseThrow();
    }

    @Test
    void eachGrowingCauseGetsItsShareOfTheDelaysGrowthWithItsShortTermAndPropagatedParts() {
        DelayCauses c = DiffReport.of(after(), before()).causes();
        assertEquals(1, c.direction());
        assertEquals(0.4, c.moved(), 1e-12);
        assertEquals(0.0, c.offset());
        assertEquals(List.of("\u2026/x_solve", "\u2026/y_solve"), c.causes().stream().map(DelayCauses.Cause::label).toList());
        DelayCauses.Cause x = cause(c, "\u2026/x_solve");
        assertEquals(0.75, x.share(), 1e-12);
        assertEquals(0.3, x.shortTerm(), 1e-12);
        assertEquals(0.0, x.propagated(), 1e-12);
        assertEquals(List.of(3), x.ranks());
        DelayCauses.Cause y = cause(c, "\u2026/y_solve");
        assertEquals(0.25, y.share(), 1e-12);
        assertEquals(0.0, y.shortTerm(), 1e-12);
        assertEquals(0.1, y.propagated(), 1e-12);
        assertEquals(List.of(1), y.ranks());
        assertEquals(0.4, c.waiting().diff(), 1e-12);
    }

    @Test
    void theSentenceNamesTheLargestCauseItsRanksAndItsParts() {
        DelayCauses c = DiffReport.of(after(), before()).causes();
        assertEquals("waiting +0.400 s; of the growth in the delays causing it, 75.0 % is caused by `\u2026/x_solve` on rank 3: "
                + "+0.300 s short-term, 0.000 s propagated", c.sentence());
    }

    @Test
    void aCauseThatShrankOffsetsTheGrowthInsteadOfTakingANegativeShare() {
        // y_solve's delay drops from 0.1 s to 0 while x_solve's grows by 0.3 s: net growth 0.2 s
        DelayCauses c = DiffReport.of(run("after", 0.5, 0.0), before()).causes();
        assertEquals(1, c.direction());
        assertEquals(0.3, c.moved(), 1e-12);
        assertEquals(-0.1, c.offset(), 1e-12);
        assertEquals(1, c.causes().size());
        assertEquals(1.0, c.causes().get(0).share(), 1e-12);
        assertTrue(c.sentence().endsWith("(-0.100 s of delays shrank elsewhere)"), c.sentence());
    }

    @Test
    void aReductionIsExplainedByTheCausesThatShrank() {
        DelayCauses c = DiffReport.of(before(), after()).causes();
        assertEquals(-1, c.direction());
        assertEquals(-0.4, c.moved(), 1e-12);
        DelayCauses.Cause x = cause(c, "\u2026/x_solve");
        assertEquals(0.75, x.share(), 1e-12);
        assertEquals(-0.3, x.shortTerm(), 1e-12);
        assertTrue(c.sentence().startsWith("waiting -0.400 s; of the reduction in the delays causing it, 75.0 % is "
                + "caused by `\u2026/x_solve` on rank 3: -0.300 s short-term"), c.sentence());
    }

    @Test
    void ranksAreWhereTheDelayGrewWhenBothRunsHaveTheSameRanks() {
        // x_solve: rank 3 +0.3 s, rank 2 +0.1 s, rank 0 -0.05 s
        SeverityCube b = CauseCubes.cube(4).set("time", X, 1, 1, 1, 1).set("critical_path", X, 1, 0, 0, 0)
                .set("delay_latesender", X, 0.05, 0, 0, 0).build();
        SeverityCube a = CauseCubes.cube(4).set("time", X, 1, 1, 1, 1).set("critical_path", X, 1, 0, 0, 0)
                .set("delay_latesender", X, 0, 0, 0.1, 0.3).build();
        DelayCauses.Cause x = DiffReport.of(a, b).causes().causes().get(0);
        assertEquals(List.of(3, 2), x.ranks());
        assertEquals("", x.ranksOf());
    }

    @Test
    void withDifferentRanksTheRanksAreThoseOfTheRunWhereTheDelayIs() {
        SeverityCube b = CauseCubes.cube(2).set("time", X, 1, 1).set("critical_path", X, 1, 0)
                .set("delay_latesender", X, 0, 0.2).build();
        DelayCauses growth = DiffReport.of(after(), b).causes();
        assertEquals(List.of(3), cause(growth, "\u2026/x_solve").ranks());
        assertEquals("A", cause(growth, "\u2026/x_solve").ranksOf());
        assertTrue(growth.sentence().contains("`\u2026/x_solve` on rank 3 of A:"), growth.sentence());
        DelayCauses reduction = DiffReport.of(b, after()).causes();
        assertEquals(List.of(3), cause(reduction, "\u2026/x_solve").ranks());
        assertEquals("B", cause(reduction, "\u2026/x_solve").ranksOf());
    }

    @Test
    void nothingIsExplainedWhenARunLacksDelayCosts() {
        DiffReport r = DiffReport.of(after(), RootCauseAlgebraTest.withoutCauses());
        assertNull(r.causes());
        assertFalse(DiffText.render(r).contains("why:"));
        assertFalse(DiffJson.toJson(r).has("why"));
        assertNull(DiffReport.of(new TestCubes(1).set("time", "main", 2).build(),
                new TestCubes(1).set("time", "main", 1).build()).causes());
    }

    @Test
    void unchangedDelayCostsNameNoCause() {
        DelayCauses c = DiffReport.of(after(), after()).causes();
        assertEquals(0, c.direction());
        assertTrue(c.causes().isEmpty());
        assertFalse(DiffText.render(DiffReport.of(after(), after())).contains("why:"));
    }

    @Test
    void waitingThatDiffersOnlyByRoundingNamesNoCause() {
        // the same Late Sender times summed in another order: 0.6000000000000001 against 0.6
        SeverityCube a = CauseCubes.cube(3).set("time", RECV, 1, 1, 1).set("mpi_latesender", RECV, 0.1, 0.2, 0.3)
                .set("delay_latesender", X, 0, 0, 0.6).set("critical_path", X, 0, 0, 1).build();
        SeverityCube b = CauseCubes.cube(3).set("time", RECV, 1, 1, 1).set("mpi_latesender", RECV, 0.3, 0.2, 0.1)
                .set("delay_latesender", X, 0, 0, 0.6).set("critical_path", X, 0, 0, 1).build();
        DiffReport r = DiffReport.of(a, b);
        assertFalse(r.causes().changed());
        assertFalse(DiffText.render(r).contains("why:"));
    }

    @Test
    void anMpiCallIsNamedWithItsCallerAndAsMuchOfThePathAsTellsItApart() {
        SeverityCube b = CauseCubes.cube(1).set("time", "main", 1).set("critical_path", "main", 1).build();
        SeverityCube a = CauseCubes.cube(1).set("time", "main", 1).set("critical_path", "main", 1)
                .set("delay_latesender", "main/zran3/MPI_Allreduce", 0.4)
                .set("delay_latesender", "main/mg3p/psinv/comm3/give3/MPI_Send", 0.3)
                .set("delay_latesender", "main/mg3p/resid/comm3/give3/MPI_Send", 0.2)
                .set("delay_latesender", "main/resid/comm3/give3/MPI_Send", 0.1)
                .build();
        List<String> labels = DiffReport.of(a, b).causes().causes().stream().map(DelayCauses.Cause::label).toList();
        // shortened paths say so with a leading "…/"; the last one is whole
        assertEquals(List.of("\u2026/zran3/MPI_Allreduce", "\u2026/psinv/comm3/give3/MPI_Send",
                "\u2026/mg3p/resid/comm3/give3/MPI_Send", "main/resid/comm3/give3/MPI_Send"), labels);
    }

    @Test
    void textAndJsonCarryTheWhy() {
        DiffReport r = DiffReport.of(after(), before());
        String text = DiffText.render(r);
        assertTrue(text.contains("why: " + r.causes().sentence()), text);
        assertTrue(text.contains("   75.0 %      +0.300 s      +0.300 s       0.000 s  \u2026/x_solve on rank 3"), text);
        JsonNode why = DiffJson.toJson(r).get("why");
        assertEquals("growth", why.get("direction").asText());
        assertEquals(r.causes().sentence(), why.get("sentence").asText());
        JsonNode x = why.get("causes").get(0);
        assertEquals("\u2026/x_solve", x.get("label").asText());
        assertEquals("[\"main\",\"x_solve\"]", x.get("path").toString());
        assertEquals(0.75, x.get("share").asDouble(), 1e-12);
        assertEquals(0.3, x.get("shortTerm").asDouble(), 1e-12);
        assertEquals(3, x.get("ranks").get(0).asInt());
    }

    @Test
    void sharesStayBetweenZeroAndOneAndAddUpToOneWhateverMovesWhichWay() {
        Random rnd = new Random(42);
        for (int trial = 0; trial < 200; trial++) {
            SeverityCube[] runs = new SeverityCube[2];
            for (int i = 0; i < 2; i++) {
                TestCubes t = CauseCubes.cube(3).set("time", "main", 1, 1, 1).set("critical_path", "main", 1, 0, 0);
                for (String p : List.of(X, Y, RECV, "main/z/MPI_Send")) {
                    t.set(rnd.nextBoolean() ? "delay_latesender" : "delay_n2n_longterm", p,
                            rnd.nextDouble(), rnd.nextDouble() * rnd.nextInt(2), 0);
                }
                runs[i] = t.build();
            }
            DelayCauses c = DiffReport.of(runs[0], runs[1]).causes();
            double sum = 0;
            for (DelayCauses.Cause x : c.causes()) {
                assertTrue(x.share() >= 0 && x.share() <= 1, x.toString());
                assertTrue(x.diff() * c.direction() > 0, x.toString());
                sum += x.share();
            }
            assertEquals(c.causes().isEmpty() ? 0 : 1, sum, 1e-12);
            assertTrue(c.offset() * c.direction() <= 0);
        }
    }
}
