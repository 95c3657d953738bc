package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.patterns.scaling.RankCorrelation;
import dev.straggler.patterns.scaling.ScalingExperiment;
import dev.straggler.patterns.scaling.ScalingJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Axes of the scaling charts as drawn in headless Chromium: an axis of ranks or process counts has whole numbers
 * only (a rank 1.5 or 2.5 does not exist), and a process-count axis is ticked where runs were measured.
 */
class ChartAxesBrowserTest {
    @TempDir
    Path tmp;

    /** Two callsites measured at p = 3, 6, 12, 24: process counts that are no powers of two. */
    private static HtmlPage page() {
        List<ScalingExperiment> exps = new ArrayList<>();
        for (int p : new int[]{3, 6, 12, 24}) {
            exps.add(new ScalingExperiment("p" + p, p, Map.of("Alltoall @ transpose", 0.5 * p, "Sendrecv @ halo", 40.0),
                    40 + 0.5 * p));
        }
        return new HtmlPage("Scaling", "test").add(new ScalingSection("scaling-callsites", "Callsite scaling",
                ScalingJson.toJson(RankCorrelation.analyse(exps), "callsite")));
    }

    @Test
    void theRankScatterTicksOnlyWholeRanks() throws Exception {
        String dom = Chromium.dom(page().render(), tmp);
        String scatter = dom.substring(dom.indexOf("id=\"scaling-callsites-scatter\""), dom.indexOf("id=\"scaling-callsites-curve\""));
        assertFalse(scatter.contains(">1.5<") || scatter.contains(">2.5<") || scatter.contains(">3.5<"), scatter);
        List<String> x = ticks(scatter, "xtick");
        List<String> y = ticks(scatter, "ytick");
        assertEquals(List.of("1", "2", "3", "4"), x, "ranks of 4 runs");
        assertFalse(y.isEmpty());
        y.forEach(t -> assertTrue(t.matches("\\d+"), "rank of the share tick " + t));
    }

    @Test
    void theShareCurveTicksTheMeasuredProcessCounts() throws Exception {
        String dom = Chromium.dom(page().render(), tmp);
        String curve = dom.substring(dom.indexOf("id=\"scaling-callsites-curve\""));
        assertEquals(List.of("3", "6", "12", "24"), ticks(curve, "xtick"));
    }

    /** The axis helper itself, on ranges where round steps would be fractions. */
    @Test
    void axisHelperGivesWholeNumbersForCountsAndMeasuredCountsOnLogAxes() throws Exception {
        String probe = """
                const S = window.Straggler;
                document.body.dataset.probe = JSON.stringify({
                  ranks: S.ticks(1, 4, 8, true), few: S.ticks(0, 2, 8, true), many: S.ticks(1, 64, 8, true),
                  times: S.ticks(0, 1, 4), procs: S.processTicks(2, 32, [2, 4, 8, 16, 32], 8),
                  odd: S.processTicks(3, 24, [3, 6, 12, 24], 8), wide: S.processTicks(4, 1024, [4, 8, 16, 32, 64], 8)});
                """;
        JsonNode r = new ObjectMapper().readTree(Chromium.probe(Chromium.dom(Chromium.withProbe(page().render(), probe), tmp)));
        assertEquals("[1,2,3,4]", r.get("ranks").toString());
        assertEquals("[0,1,2]", r.get("few").toString());
        for (JsonNode t : r.get("many")) {
            assertTrue(t.isIntegralNumber() || t.asDouble() == Math.rint(t.asDouble()), r.get("many").toString());
        }
        assertEquals("[0,0.25,0.5,0.75,1]", r.get("times").toString(), "time axes keep fractional steps");
        assertEquals("[2,4,8,16,32]", r.get("procs").toString());
        assertEquals("[3,6,12,24]", r.get("odd").toString(), "no power of two squeezed between measured counts");
        assertEquals("[4,8,16,32,64,128,256,512,1024]", r.get("wide").toString(), "powers of two where nothing was measured");
    }

    /**
     * A ranked list longer than its box scrolls without cutting a row at the bottom of the box, and its head says how
     * many rows there are and how many are in view.
     */
    @Test
    void aLongRankedListShowsWholeRowsAndSaysHowManyThereAre() throws Exception {
        List<ScalingExperiment> exps = new ArrayList<>();
        for (int p : new int[]{2, 4, 8, 16}) {
            Map<String, Double> times = new LinkedHashMap<>();
            for (int k = 0; k < 40; k++) {
                // names of different lengths: some rows wrap onto two or three lines
                times.put("Wait < exchange_" + k + " (/home/app/src/solver/" + "very_long_directory/".repeat(k % 4)
                        + "halo.f:" + (100 + k) + ")", 1.0 + (k % 7) * p / 16.0);
            }
            exps.add(new ScalingExperiment("p" + p, p, times, times.values().stream().mapToDouble(Double::doubleValue).sum()));
        }
        HtmlPage page = new HtmlPage("Scaling", "test").add(new ScalingSection("scaling-callsites", "Callsite scaling",
                ScalingJson.toJson(RankCorrelation.analyse(exps), "callsite")));
        String probe = """
                const box = document.getElementById('scaling-callsites-rows');
                const b = box.getBoundingClientRect(), bottom = b.top + box.clientTop + box.clientHeight;
                let cut = 0, inView = 0;
                box.querySelectorAll('tr.srow').forEach(r => {
                  const q = r.getBoundingClientRect();
                  if (q.top < bottom - 0.5 && q.bottom > bottom + 0.5) cut++;
                  if (q.bottom <= bottom + 0.5) inView++;
                });
                document.body.dataset.probe = JSON.stringify({cut, inView, scrolls: box.scrollHeight > box.clientHeight,
                  head: (document.getElementById('scaling-callsites-head') || box.parentElement.firstChild).textContent});
                """;
        JsonNode r = new ObjectMapper().readTree(Chromium.probe(Chromium.dom(Chromium.withProbe(page.render(), probe), tmp)));
        assertTrue(r.get("scrolls").asBoolean(), "40 rows do not fit: the list scrolls");
        assertEquals(0, r.get("cut").asInt(), "no row is cut at the bottom of the box " + r);
        String head = r.get("head").asText();
        assertTrue(head.startsWith("40 callsites, ranked by r_s (" + r.get("inView").asInt() + " in view, scroll for the other "
                + (40 - r.get("inView").asInt()) + ")"), head);
    }

    @Test
    void aShortRankedListHasNoScrollingBox() throws Exception {
        String probe = """
                const box = document.getElementById('scaling-callsites-rows');
                document.body.dataset.probe = JSON.stringify({scrolls: box.scrollHeight > box.clientHeight,
                  head: (document.getElementById('scaling-callsites-head') || box.parentElement.firstChild).textContent});
                """;
        JsonNode r = new ObjectMapper().readTree(Chromium.probe(Chromium.dom(Chromium.withProbe(page().render(), probe), tmp)));
        assertFalse(r.get("scrolls").asBoolean());
        assertEquals("2 callsites, ranked by r_s", r.get("head").asText());
    }

    static List<String> ticks(String svg, String cls) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<text class=\"" + cls + "\"[^>]*>([^<]*)</text>").matcher(svg);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
