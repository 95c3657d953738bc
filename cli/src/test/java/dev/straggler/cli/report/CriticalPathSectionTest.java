package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.otf2.Otf2Archive;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.straggler.cli.report.HtmlReportTest.data;
import static dev.straggler.cli.report.WaitCauseSectionTest.answer;
import static dev.straggler.cli.report.WaitCauseSectionTest.doubles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
    void answerGivesLengthCriticalPathImbalanceAndTheCallPathWithTheLargestImpact() throws IOException {
        assertEquals("The critical path is 4.50 s long; 1.00 s (22.2 %) of it is critical-path imbalance, time call "
                + "paths spend on it above their average per rank, most in `\u2026/solve/work` (1.00 s). "
                + "`\u2026/solve/work` has the largest critical imbalance impact: 4.00 s of waiting (97.6 % of all "
                + "critical imbalance impact) is mapped onto it because it takes longer on the critical path than on "
                + "the waiting ranks.", answer(profile()));
    }

    @Test
    void answerSaysWhenTheCallPathWithTheLargestImpactHasNoCriticalPathImbalance() throws IOException {
        String answer = answer(data(HtmlReport.of(ReportCubes.impactWithoutCriticalPathImbalance()).render(),
                "critical-path"));
        assertTrue(answer.endsWith("`\u2026/solve/MPI_Recv` has the largest critical imbalance impact: 5.00 s of "
                + "waiting (55.6 % of all critical imbalance impact) is mapped onto it because it takes longer on the "
                + "critical path than on the waiting ranks. On the path it takes no longer than its average per "
                + "rank, so it has no critical-path imbalance."), answer);
    }

    /** The metrics a headline makes claims about, by Scalasca's documentation name: unique names. */
    private static final Map<String, String> CLAIMS = Map.of("critical-path imbalance", "critical_path_imbalance",
            "critical imbalance impact", "critical_imbalance_impact");

    /**
     * Every call path the answer names stands in a sentence that names exactly one metric by Scalasca's name, and the
     * call path has a value of that metric.
     */
    private static void answerBacksEveryCallPathItNames(SeverityCube cube) throws IOException {
        JsonNode answer = data(HtmlReport.of(cube).render(), "critical-path").get("answer");
        PathLabels labels = new PathLabels(cube);
        // the answer as text, each call path as a numbered mark; sentences end in ". " before a capital or a path
        StringBuilder text = new StringBuilder();
        List<String> titles = new ArrayList<>();
        for (JsonNode s : answer) {
            if (s.has("path")) {
                text.append("@@").append(titles.size()).append("@@");
                titles.add(s.get("title").asText());
            } else {
                text.append(s.get("text").asText());
            }
        }
        int named = 0;
        for (String sentence : text.toString().split("(?<=\\.) (?=[A-Z@])")) {
            Matcher mark = Pattern.compile("@@(\\d+)@@").matcher(sentence);
            while (mark.find()) {
                String lower = sentence.toLowerCase(java.util.Locale.ROOT);
                List<String> metrics = CLAIMS.keySet().stream().filter(lower::contains).toList();
                assertEquals(1, metrics.size(), "metrics named in: " + sentence);
                String title = titles.get(Integer.parseInt(mark.group(1)));
                int path = -1;
                for (int p = 0; p < cube.callPaths().size(); p++) {
                    if (labels.full(p).equals(title)) {
                        path = p;
                    }
                }
                double value = cube.sumOverLocations(cube.metricIndex(CLAIMS.get(metrics.get(0))), path);
                assertTrue(value > 0, sentence + ": the " + metrics.get(0) + " of " + title + " is " + value);
                named++;
            }
        }
        assertTrue(named > 0, "the answer names no call path");
    }

    @Test
    void answerNamesOnlyCallPathsThatHaveTheMetricItClaimsForThem() throws IOException {
        answerBacksEveryCallPathItNames(ReportCubes.rootCauses());
        answerBacksEveryCallPathItNames(ReportCubes.impactWithoutCriticalPathImbalance());
    }

    /** NPB MG on 16 ranks analysed with root causes, or a skipped test when the shared traces are absent. */
    private static SeverityCube npbMg16() throws IOException {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path anchor = Path.of(shared, "traces", "real", "npb-mg.S-16", "traces.otf2");
        Assumptions.assumeTrue(Files.exists(anchor), "shared traces absent (../shared/traces/real)");
        try (TraceSource s = Otf2Archive.open(anchor)) {
            return Analysis.run(s, AnalysisOptions.defaults().withRootCauses(true)).cube();
        }
    }

    @Test
    void answerOnNpbMg16NamesForEachMetricACallPathThatHasIt() throws IOException {
        // Scalasca's trace.cubex: all of the critical imbalance impact (3.31 ms) is on MPI_Init, which has no
        // critical-path imbalance (0.452 s on the path, 0.488 s on average per rank)
        answerBacksEveryCallPathItNames(npbMg16());
    }

    @Test
    void callPathsOnThePathWithoutCriticalPathImbalanceSayWhy() throws IOException {
        JsonNode d = profile();
        assertEquals("on the critical path 500 ms, equal to the average 500 ms per rank: no critical-path imbalance",
                d.get("imbalanceNote").get(node(d, "main/solve/MPI_Recv")).asText());
        assertEquals("", d.get("imbalanceNote").get(node(d, "main/solve/work")).asText(),
                "4 s on the path against 3 s on average: 1 s of critical-path imbalance, nothing to explain");
    }

    @Test
    void callPathsBelowTheirAverageWithImbalanceInCalleesSayWhy() throws IOException {
        SeverityCube mg = npbMg16();
        JsonNode d = data(HtmlReport.of(mg).render(), "critical-path");
        // mg_mpi with its callees: 492 ms on the path, 513 ms on average per rank, 15.6 ms of critical-path imbalance
        // in callees that are on the path longer than their own average
        assertEquals("on the critical path 492 ms, below the average 513 ms per rank; its callees add 15.6 ms of "
                + "critical-path imbalance, each above its own average", d.get("imbalanceNote")
                .get(node(d, "mg.S.x/mg_mpi")).asText());
        assertEquals("on the critical path 452 ms, below the average 488 ms per rank: no critical-path imbalance",
                d.get("imbalanceNote").get(node(d, "mg.S.x/mg_mpi/MPI_Init")).asText());
    }

    /** Scalasca's documentation names of the metrics that contain the word (CriticalPath.pattern, Imbalance.pattern). */
    private static final Pattern NAMED = Pattern.compile("(?i)critical-path imbalance|critical imbalance impact"
            + "|intra-partition imbalance|inter-partition imbalance|computational imbalance");

    /** Fails unless every "imbalance" in {@code text} is part of one metric's name. */
    private static void everyImbalanceIsNamed(String what, String text) {
        String rest = NAMED.matcher(text).replaceAll("");
        Matcher m = Pattern.compile("(?i)\\bimbalance\\b").matcher(rest);
        if (m.find()) {
            fail(what + ": \"imbalance\" not part of a Scalasca metric name near: "
                    + rest.substring(Math.max(0, m.start() - 60), Math.min(rest.length(), m.end() + 60)));
        }
    }

    @Test
    void theWordImbalanceOnlyOccursInTheNameOfOneMetric() throws IOException {
        StringBuilder body = new StringBuilder();
        CriticalPathSection.forCube(ReportCubes.rootCauses(), 1000).writeBody(body);
        everyImbalanceIsNamed("section text", body.toString());
        JsonNode d = profile();
        everyImbalanceIsNamed("answer", answer(d));
        everyImbalanceIsNamed("answer", answer(data(HtmlReport.of(ReportCubes.impactWithoutCriticalPathImbalance())
                .render(), "critical-path")));
        for (JsonNode note : d.path("imbalanceNote")) {
            everyImbalanceIsNamed("note", note.asText());
        }
        String script;
        try (InputStream in = CriticalPathSection.class.getResourceAsStream("critical-path.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // the labels are the script's string literals (outside its comments); names of variables and fields are not
        // read by anyone
        script = script.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
        Matcher literal = Pattern.compile("'(?:[^'\\\\]|\\\\.)*'").matcher(script);
        while (literal.find()) {
            everyImbalanceIsNamed("critical-path.js", literal.group());
        }
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
