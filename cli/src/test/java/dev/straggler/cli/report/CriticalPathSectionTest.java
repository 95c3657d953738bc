package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static dev.straggler.cli.report.HtmlReportTest.data;
import static dev.straggler.cli.report.WaitCauseSectionTest.answer;
import static dev.straggler.cli.report.WaitCauseSectionTest.doubles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The critical-path profile of {@link ReportCubes#rootCauses()}, checked against the values chosen there. */
class CriticalPathSectionTest {
    private static JsonNode profile() throws IOException {
        return data(HtmlReport.of(ReportCubes.rootCauses()).render(), "critical-path");
    }

    /** Position of a call path in the embedded tree, by its full name. */
    private static int node(JsonNode d, String title) {
        for (int i = 0; i < d.get("title").size(); i++) {
            if (d.get("title").get(i).asText().equals(title)) {
                return i;
            }
        }
        throw new AssertionError("no call path " + title);
    }

    @Test
    void treeHoldsTheCallPathsOnTheCriticalPathAndTheirCallers() throws IOException {
        JsonNode d = profile();
        List<String> labels = new ArrayList<>();
        d.get("label").forEach(n -> labels.add(n.asText()));
        assertEquals(List.of("main", "solve", "MPI_Recv", "work"), labels, "MPI_Barrier is never on the path");
        List<Integer> parents = new ArrayList<>();
        d.get("parent").forEach(n -> parents.add(n.asInt()));
        assertEquals(List.of(-1, 0, 1, 1), parents);
    }

    @Test
    void criticalPathTimeIsExclusivePerCallPathAndInclusiveUpTheTree() throws IOException {
        JsonNode d = profile();
        int work = node(d, "main/solve/work");
        int solve = node(d, "main/solve");
        assertEquals(4.5, d.get("length").asDouble(), 1e-12);
        assertEquals(4.0, d.get("pathExcl").get(work).asDouble(), 1e-12);
        assertEquals(0.0, d.get("pathExcl").get(solve).asDouble(), 1e-12);
        assertEquals(4.5, d.get("pathIncl").get(solve).asDouble(), 1e-12);
        assertEquals(4.5, d.get("pathIncl").get(node(d, "main")).asDouble(), 1e-12);
    }

    @Test
    void averagePerRankLeavesOutWaiting() throws IOException {
        JsonNode d = profile();
        // work: (3 + 2 + 4 + 3) / 4; MPI_Recv: (6 s − 4 s Late Sender) / 4; solve: both
        assertEquals(3.0, d.get("averageIncl").get(node(d, "main/solve/work")).asDouble(), 1e-12);
        assertEquals(0.5, d.get("averageIncl").get(node(d, "main/solve/MPI_Recv")).asDouble(), 1e-12);
        assertEquals(3.5, d.get("averageIncl").get(node(d, "main/solve")).asDouble(), 1e-12);
        // main adds its own 0.1 s and MPI_Barrier's 0.1 s outside Wait at Barrier, per rank
        assertEquals(3.7, d.get("averageIncl").get(node(d, "main")).asDouble(), 1e-12);
    }

    @Test
    void imbalanceAndImpactAddUpTheTree() throws IOException {
        JsonNode d = profile();
        int work = node(d, "main/solve/work");
        int solve = node(d, "main/solve");
        assertEquals(1.0, d.get("imbalanceIncl").get(work).asDouble(), 1e-12);
        assertEquals(1.0, d.get("imbalanceIncl").get(solve).asDouble(), 1e-12);
        assertEquals(4.0, d.get("impactIncl").get(work).asDouble(), 1e-12);
        assertEquals(4.1, d.get("impactIncl").get(solve).asDouble(), 1e-12);
        assertEquals(1.0, d.get("imbalance").asDouble(), 1e-12);
        assertEquals(4.1, d.get("impact").asDouble(), 1e-12);
    }

    @Test
    void onlyActivitiesWithALargeShareOfTheImpactAreHighlighted() throws IOException {
        JsonNode d = profile();
        // work holds 4 of 4.1 s; MPI_Recv's 0.1 s is 2.4 %, below the 5 % threshold
        assertEquals(List.of(node(d, "main/solve/work")), ints(d.get("hot")));
    }

    @Test
    void answerGivesLengthImbalanceAndTheActivityWithTheLargestImpact() throws IOException {
        assertEquals("The critical path is 4.50 s long; 1.00 s (22.2 %) of it is imbalance, time its activities take "
                + "above their average per rank. `\u2026/solve/work` has the largest imbalance impact: 4.00 s of "
                + "waiting (97.6 % of all imbalance impact) arises because it takes longer on the critical path than "
                + "on the waiting ranks.", answer(profile()));
    }

    @Test
    void perRankRowsAreInclusiveAndSplitOffTheTimeOnThePath() throws IOException {
        JsonNode d = profile();
        List<Integer> rowPaths = ints(d.get("rowPaths"));
        int solveRow = rowPaths.indexOf(node(d, "main/solve"));
        int workRow = rowPaths.indexOf(node(d, "main/solve/work"));
        assertEquals(List.of(3.0, 2.0, 4.0, 3.0), doubles(d.get("busyRows").get(workRow)));
        assertEquals(List.of(0.0, 0.0, 4.0, 0.0), doubles(d.get("pathRows").get(workRow)));
        // work plus MPI_Recv's 0.5 s outside waiting on every rank
        assertEquals(List.of(3.5, 2.5, 4.5, 3.5), doubles(d.get("busyRows").get(solveRow)));
        assertEquals(List.of(0.0, 0.0, 4.0, 0.5), doubles(d.get("pathRows").get(solveRow)));
    }

    @Test
    void rowBudgetKeepsTheCallPathsWithTheMostTimeOnThePath() throws IOException {
        // the critical path gets half the page budget, 16 values: 4 locations and two rows per call path leave
        // room for 2 of the 4 call paths, main and solve (4.5 s each on the path)
        String html = HtmlReport.of(ReportCubes.rootCauses()).maxEmbeddedRowValues(2 * 16).render();
        JsonNode d = data(html, "critical-path");
        assertEquals(List.of(node(d, "main"), node(d, "main/solve")), ints(d.get("rowPaths")));
    }

    @Test
    void noSectionWithoutACriticalPath() {
        String html = HtmlReport.of(ReportCubes.withoutRootCauses()).render();
        assertFalse(html.contains("id=\"critical-path\""));
        assertFalse(HtmlReport.of(ReportCubes.small()).render().contains("id=\"critical-path\""));
    }

    private static List<Integer> ints(JsonNode a) {
        List<Integer> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asInt()));
        return out;
    }
}
