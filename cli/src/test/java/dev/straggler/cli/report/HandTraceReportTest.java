package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;

import static dev.straggler.cli.report.HtmlReportTest.data;
import static dev.straggler.cli.report.WaitCauseSectionTest.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The report of a two-rank program analysed from its trace, with values that follow by hand (ticks of 1 ms): rank 0
 * computes in {@code work} for 90 ms, rank 1 for 30 ms, then rank 0 sends and rank 1 receives (Late Sender of
 * 60 ms). The whole 60 ms delay is rank 0's excess {@code work} (short-term, nothing in between to propagate); the
 * critical path runs through rank 0's {@code work} (90 ms), whose average per rank is (90 + 30) / 2 = 60 ms, so its
 * critical-path imbalance is 90 − 60 = 30 ms.
 */
class HandTraceReportTest {
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000
            region 0 main
            region 1 work
            region 2 MPI_Init paradigm=MPI role=FUNCTION file=MPI
            region 3 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 4 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            region 5 MPI_Finalize paradigm=MPI role=FUNCTION file=MPI
            location 0 rank=0
            location 1 rank=1
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 0 ENTER MPI_Init
            0 10 LEAVE MPI_Init
            0 10 ENTER work
            0 100 LEAVE work
            0 100 ENTER MPI_Send
            0 101 MPI_SEND to=1 comm=0 tag=0 bytes=8
            0 102 LEAVE MPI_Send
            0 102 ENTER MPI_Finalize
            0 120 LEAVE MPI_Finalize
            0 120 LEAVE main
            1 0 ENTER main
            1 0 ENTER MPI_Init
            1 10 LEAVE MPI_Init
            1 10 ENTER work
            1 40 LEAVE work
            1 40 ENTER MPI_Recv
            1 101 MPI_RECV from=0 comm=0 tag=0 bytes=8
            1 103 LEAVE MPI_Recv
            1 103 ENTER MPI_Finalize
            1 120 LEAVE MPI_Finalize
            1 120 LEAVE main
            """;

    private static String report(boolean rootCauses) throws IOException {
        var trace = TextTraceReader.read(new StringReader(TRACE), "hand");
        SeverityCube cube = Analysis.run(trace, AnalysisOptions.defaults().withThreads(1).withRootCauses(rootCauses))
                .cube();
        return HtmlReport.of(cube).render();
    }

    @Test
    void theSendersExcessWorkIsNamedAsTheWholeCauseOfTheLateSender() throws IOException {
        JsonNode kinds = data(report(true), "causes").get("kinds");
        assertEquals(1, kinds.size(), "Late Sender is the only wait state with a cause");
        JsonNode ls = kinds.get(0);
        assertEquals("100.0 % of all Late Sender waiting (60.0 ms) is caused by `\u2026/work` on rank 0 (all short-term).",
                answer(ls));
        assertEquals("main/MPI_Recv", ls.get("effects").get(0).get("title").asText());
        assertEquals(0.0, ls.get("indirect").asDouble(), 1e-12, "nothing waited before: direct");
        assertEquals(0.0, ls.get("propagating").asDouble(), 1e-12, "nothing waits after: terminal");
    }

    @Test
    void theSlowRanksWorkIsOnTheCriticalPathWithThirtyMillisecondsOfImbalance() throws IOException {
        JsonNode d = data(report(true), "critical-path");
        int work = -1;
        for (int i = 0; i < d.get("title").size(); i++) {
            if (d.get("title").get(i).asText().equals("main/work")) {
                work = i;
            }
        }
        assertTrue(work >= 0, "work is on the critical path");
        assertEquals(0.090, d.get("pathExcl").get(work).asDouble(), 1e-12);
        assertEquals(0.060, d.get("averageIncl").get(work).asDouble(), 1e-12);
        assertEquals(0.030, d.get("imbalanceIncl").get(work).asDouble(), 1e-12);
    }

    @Test
    void withoutTheRootCauseStageNeitherSectionAppears() throws IOException {
        String html = report(false);
        assertFalse(html.contains("id=\"causes\""));
        assertFalse(html.contains("id=\"critical-path\""));
        assertTrue(html.contains("id=\"explorer\""), "the rest of the report is there");
    }
}
