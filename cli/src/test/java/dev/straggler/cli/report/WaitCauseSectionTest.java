package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static dev.straggler.cli.report.HtmlReportTest.data;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cause → effect data of {@link ReportCubes#rootCauses()}, checked against the values chosen there. */
class WaitCauseSectionTest {
    private static JsonNode causes() throws IOException {
        return data(HtmlReport.of(ReportCubes.rootCauses()).render(), "causes");
    }

    private static JsonNode kind(String id) throws IOException {
        for (JsonNode k : causes().get("kinds")) {
            if (k.get("id").asText().equals(id)) {
                return k;
            }
        }
        throw new AssertionError("no wait state " + id);
    }

    /**
     * A hybrid run (shared omp-kernels trace): waiting at OpenMP barriers (explicit and implicit together) and idle
     * threads are wait-state kinds of their own, each with the OpenMP delay costs that explain it, as the cube has
     * them.
     */
    @Test
    void openMpBarrierWaitingAndIdleThreadsAreKindsWithTheirDelays() throws IOException {
        String shared = System.getProperty("straggler.shared");
        org.junit.jupiter.api.Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        java.nio.file.Path anchor = java.nio.file.Path.of(shared, "traces", "hybrid", "omp-kernels-2x4",
                "traces.otf2");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(anchor), anchor + " is absent");
        dev.straggler.patterns.AnalysisResult r;
        try (var source = dev.straggler.trace.Traces.open(anchor)) {
            r = dev.straggler.patterns.Analysis.run(source,
                    dev.straggler.patterns.AnalysisOptions.defaults().withRootCauses(true));
        }
        var cube = r.cube();
        JsonNode kinds = data(HtmlReport.of(cube).render(), "causes").get("kinds");
        JsonNode barrier = null;
        JsonNode idle = null;
        for (JsonNode k : kinds) {
            barrier = k.get("id").asText().equals("omp_ibarrier_wait") ? k : barrier;
            idle = k.get("id").asText().equals("omp_idle_threads") ? k : idle;
        }
        assertTrue(barrier != null && idle != null, kinds.toString());
        assertEquals(cube.total("omp_ebarrier_wait") + cube.total("omp_ibarrier_wait"),
                barrier.get("waiting").asDouble(), 1e-9);
        assertEquals(cube.total("delay_ompbarrier"), barrier.get("shortTerm").asDouble(), 1e-9);
        assertEquals(cube.total("delay_ompbarrier_longterm"), barrier.get("longTerm").asDouble(), 1e-9);
        assertEquals(cube.total("omp_idle_threads"), idle.get("waiting").asDouble(), 1e-9);
        assertEquals(cube.total("delay_ompidle") + cube.total("delay_ompidle_longterm"),
                idle.get("shortTerm").asDouble() + idle.get("longTerm").asDouble(), 1e-9);
    }

    /** A section's one-sentence answer as text, call paths in backquotes. */
    static String answer(JsonNode withAnswer) {
        StringBuilder b = new StringBuilder();
        withAnswer.get("answer").forEach(s -> b.append(s.has("path") ? "`" + s.get("path").asText() + "`"
                : s.get("text").asText()));
        return b.toString();
    }

    @Test
    void onlyWaitStatesWithWaitingAreListedLargestFirst() throws IOException {
        List<String> ids = new ArrayList<>();
        causes().get("kinds").forEach(k -> ids.add(k.get("id").asText()));
        assertEquals(List.of("mpi_latesender", "mpi_barrier_wait"), ids);
    }

    @Test
    void answerNamesTheLargestCauseItsRanksAndItsShortAndLongTermParts() throws IOException {
        // work holds 3 s of the 4 s; rank 2 alone holds 2 of 3 s (< 80 %), ranks 2 and 3 all of it
        assertEquals("75.0 % of all Late Sender waiting (4.00 s) is caused by `\u2026/solve/work` on ranks 2 and 3 "
                + "(2.50 s short-term, 500 ms propagated).", answer(kind("mpi_latesender")));
    }

    @Test
    void answerSaysAllShortTermWhenNothingWasPropagated() throws IOException {
        assertEquals("100.0 % of all Wait at Barrier waiting (600 ms) is caused by `\u2026/solve/work` on rank 3 "
                + "(all short-term).", answer(kind("mpi_barrier_wait")));
    }

    @Test
    void causesAreSharesOfTheWaitingTheyExplain() throws IOException {
        JsonNode ls = kind("mpi_latesender");
        JsonNode work = ls.get("causes").get(0);
        assertEquals("\u2026/solve/work", work.get("label").asText());
        assertEquals("main/solve/work", work.get("title").asText());
        assertEquals(2.5, work.get("shortTerm").asDouble(), 1e-12);
        assertEquals(0.5, work.get("longTerm").asDouble(), 1e-12);
        assertEquals(75.0, work.get("share").asDouble(), 1e-9);
        assertEquals(List.of(0.0, 0.0, 2.0, 1.0), doubles(work.get("perLocation")));
        JsonNode recv = ls.get("causes").get(1);
        assertEquals(12.5, recv.get("share").asDouble(), 1e-9);
        assertEquals(87.5, ls.get("explained").asDouble(), 1e-9);
        assertEquals(List.of(0.0, 0.5, 2.0, 1.0), doubles(ls.get("delayPerLocation")));
    }

    @Test
    void pointToPointWaitingIsSplitIntoIndirectAndPropagating() throws IOException {
        JsonNode ls = kind("mpi_latesender");
        assertTrue(ls.get("classified").asBoolean());
        JsonNode recv = ls.get("effects").get(0);
        assertEquals("\u2026/solve/MPI_Recv", recv.get("label").asText());
        assertEquals(4.0, recv.get("waiting").asDouble(), 1e-12);
        assertEquals(100.0, recv.get("share").asDouble(), 1e-9);
        assertEquals(0.5, recv.get("indirect").asDouble(), 1e-12);
        assertEquals(1.0, recv.get("propagating").asDouble(), 1e-12);
        assertEquals(List.of(0.0, 1.0, 1.0, 2.0), doubles(recv.get("perLocation")));
    }

    @Test
    void collectiveWaitingHasNoDirectIndirectSplit() throws IOException {
        JsonNode barrier = kind("mpi_barrier_wait");
        assertFalse(barrier.get("classified").asBoolean());
        assertFalse(barrier.get("effects").get(0).has("indirect"));
    }

    @Test
    void roundingResidueIsShownAsZeroAndSharesNeverExceedAHundredPercent() throws IOException {
        JsonNode recv = kind("mpi_latesender").get("causes").get(1);
        assertEquals(0.0, recv.get("longTerm").asDouble(), 0.0, "−1e-18 s of long-term delay is residue");
        JsonNode barrier = kind("mpi_barrier_wait");
        assertEquals(100.0, barrier.get("causes").get(0).get("share").asDouble(), 0.0, "0.6 s + 1e-10 s of 0.6 s");
        assertEquals(100.0, barrier.get("explained").asDouble(), 0.0);
    }

    @Test
    void rowsBeyondTheLimitAreSummedUp() throws IOException {
        JsonNode ls = kind("mpi_latesender");
        assertEquals(0, ls.get("moreCauses").get("count").asInt(), "2 causes fit");
        assertEquals(0.0, ls.get("moreCauses").get("value").asDouble(), 0.0);
    }

    @Test
    void noSectionWithoutDelayCosts() {
        String html = HtmlReport.of(ReportCubes.withoutRootCauses()).render();
        assertFalse(html.contains("id=\"causes\""), "no empty cause section after --no-root-causes");
        assertFalse(html.contains("data-causes"));
        assertFalse(HtmlReport.of(ReportCubes.small()).render().contains("id=\"causes\""),
                "a cube without delay metrics");
    }

    @Test
    void differenceOfTwoExperimentsHasNoCauseSection() {
        assertFalse(HtmlReport.of(ReportCubes.rootCauses()).difference(true).render().contains("id=\"causes\""));
    }

    static List<Double> doubles(JsonNode a) {
        List<Double> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asDouble()));
        return out;
    }
}
