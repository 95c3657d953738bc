package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code diff} of analyses of runs on 16 and 8 processes (the simulator's imbalance-at-barrier scenario, whose Wait at
 * Barrier has a closed form per rank count): no process of one run corresponds to a process of the other, so the
 * report must not draw the difference as one "rank" nor count one location; it says in one line what it compares
 * and labels the per-process means as such.
 */
class DiffAcrossProcessCountsCommandTest {
    private static final String SCENARIO = "imbalance-at-barrier";
    /** Any text of the form -0, -0.0, +0.000 (a zero with a sign). */
    static final Pattern SIGNED_ZERO = Pattern.compile("(^|[^0-9.,])[-+\u2212]0(\\.0+)?([^0-9.,]|$)", Pattern.MULTILINE);

    @TempDir
    static Path tmp;
    static Run diff;
    static String html;
    static JsonNode json;

    @BeforeAll
    static void diffSixteenAgainstEight() throws IOException {
        for (int p : new int[]{8, 16}) {
            Path trace = tmp.resolve("p" + p);
            assertEquals(0, run("generate", SCENARIO, "-n", Integer.toString(p), "-o", trace.toString(), "-q").code());
            Run a = run("analyze", trace.toString(), "--json", tmp.resolve("p" + p + ".json").toString(), "-q");
            assertEquals(0, a.code(), a.err());
        }
        diff = run("diff", tmp.resolve("p16.json").toString(), tmp.resolve("p8.json").toString(),
                "--html", tmp.resolve("d.html").toString(), "--json", tmp.resolve("d.json").toString(), "-q");
        assertEquals(0, diff.code(), diff.err());
        html = Files.readString(tmp.resolve("d.html"));
        json = new ObjectMapper().readTree(tmp.resolve("d.json").toFile());
    }

    private static double expectedWait(int p) throws IOException {
        ExpectedSeverities e = Scenarios.byName(SCENARIO).generate(ScenarioParams.of(p), new MemoryTrace("x")).expected();
        return e.total("mpi_barrier_wait");
    }

    @Test
    void terminalSaysInOneLineThatTheWholeRunIsCompared() {
        String line = "note: the runs have different numbers of processes (16 vs 8), so the difference is shown for "
                + "the whole run (summed over processes) and per call path";
        assertTrue(diff.out().contains(line), diff.out());
        assertEquals(1, diff.out().split("different numbers of processes", -1).length - 1, diff.out());
        assertTrue(json.get("systemNote").asText().contains("(16 vs 8)"), json.toString());
    }

    @Test
    void htmlCountsNoLocationAndEmbedsNoRankForTheCollapsedDifference() throws IOException {
        assertFalse(html.contains("1 locations") || html.contains("1 location,"), subtitle());
        assertTrue(subtitle().contains("values summed over processes (runs on 16 and 8 processes)"), subtitle());
        JsonNode d = data("explorer");
        assertTrue(d.get("collapsed").asBoolean(), "the explorer knows its one location is no process");
        assertTrue(html.contains("The runs have different numbers of processes (16 vs 8), so the difference is shown "
                + "for the whole run (summed over processes) and per call path."), "the sentence is on the page");
        assertTrue(html.contains(">Whole run<") && !html.contains(">Per process<"), "the pane is not per process");
    }

    /** The per-process-mean comparison: Wait at Barrier's closed forms, each run's total divided by its processes. */
    @Test
    void htmlOffersTheDifferenceOfPerProcessMeansLabelledAsSuch() throws IOException {
        JsonNode d = data("explorer");
        assertEquals("difference of per-process means (A / 16 \u2212 B / 8)", d.get("meanLabel").asText());
        int m = metricIndex(d, "mpi_barrier_wait");
        double w16 = expectedWait(16);
        double w8 = expectedWait(8);
        assertTrue(w16 > 0 && w8 > 0);
        assertEquals(w16 - w8, d.get("metrics").get(m).get("total").asDouble(), 1e-9);
        assertEquals(w16 / 16 - w8 / 8, d.get("data").get(m).get("meanTotal").asDouble(), 1e-9);
    }

    @Test
    void browserDrawsNoRankBarForTheCollapsedDifference() throws Exception {
        String dom = dev.straggler.cli.report.Chromium.dom(tmp.resolve("d.html"), "#metric=mpi_barrier_wait");
        String chart = element(dom, "explorer-chart");
        assertFalse(chart.contains("<rect"), chart);
        String stats = element(dom, "explorer-stats");
        assertTrue(stats.contains("whole run (summed over processes)"), stats);
        assertTrue(stats.contains("difference of per-process means"), stats);
        assertFalse(stats.contains("rank"), stats);
    }

    @Test
    void noFigureOfTheDiffIsANegativeZero() {
        assertFalse(SIGNED_ZERO.matcher(diff.out()).find(), diff.out());
    }

    /** Runs on the same ranks keep their per-rank view: there the ranks correspond. */
    @Test
    void sameProcessCountsKeepOneValuePerRank() throws IOException {
        Path page = tmp.resolve("same.html");
        Run r = run("diff", tmp.resolve("p8.json").toString(), tmp.resolve("p8.json").toString(), "--html",
                page.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("different numbers of processes"), r.out());
        JsonNode d = data(Files.readString(page), "explorer");
        assertFalse(d.get("collapsed").asBoolean());
        assertEquals(8, d.get("locations").size());
    }

    private static String subtitle() {
        Matcher m = Pattern.compile("class=\"subtitle\">([^<]*)<").matcher(html);
        assertTrue(m.find(), "no subtitle");
        return m.group(1);
    }

    private static JsonNode data(String section) throws IOException {
        return data(html, section);
    }

    static JsonNode data(String page, String section) throws IOException {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"data-" + section + "\">(.*?)</script>",
                Pattern.DOTALL).matcher(page);
        assertTrue(m.find(), "no data block for " + section);
        return new ObjectMapper().readTree(m.group(1));
    }

    private static int metricIndex(JsonNode d, String id) {
        for (int i = 0; i < d.get("metrics").size(); i++) {
            if (d.get("metrics").get(i).get("id").asText().equals(id)) {
                return i;
            }
        }
        throw new AssertionError("no metric " + id);
    }

    /** The content of the element with this id up to its first closing div. */
    static String element(String dom, String id) {
        Matcher m = Pattern.compile("id=\"" + id + "\"(.*?)</div>", Pattern.DOTALL).matcher(dom);
        assertTrue(m.find(), "no element " + id);
        return m.group(1);
    }
}
