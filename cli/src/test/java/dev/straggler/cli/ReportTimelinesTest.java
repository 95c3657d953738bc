package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.report.Chromium;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analysis report's timelines on the bundled sample (1 tick = 1 µs, first event at 0, last at 9,000 µs): rank 0
 * computes from 1,000 to 7,000 µs and sends, rank 1 waits in MPI_Recv from 2,000 to 7,200 µs (Late Sender of 5 ms,
 * caused by rank 0's compute), then both meet in MPI_Barrier.
 */
class ReportTimelinesTest {
    @TempDir
    Path tmp;

    private Path report() {
        Path html = tmp.resolve("report.html");
        CliTest.Run r = CliTest.run("analyze", CliTest.SAMPLE.toString(), "--html", html.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        return html;
    }

    private static JsonNode data(Path html) throws Exception {
        String page = Files.readString(html, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?s)<script type=\"application/json\" id=\"data-timelines\">(.*?)</script>")
                .matcher(page);
        assertTrue(m.find(), "no timelines data in the report");
        return new ObjectMapper().readTree(m.group(1));
    }

    /** 300 bins of 30 µs: the bin of 3,000-3,030 µs is compute on rank 0 and MPI_Recv on rank 1, wholly. */
    @Test
    void theOverviewBinsEachRanksTimeByParadigm() throws Exception {
        JsonNode o = data(report()).get("overview");
        assertEquals(300, o.get("bins").asInt());
        assertEquals(0.00003, o.get("binWidth").asDouble(), 1e-12);
        int c = o.get("categories").size();
        int user = indexOf(o.get("categories"), "user");
        int mpi = indexOf(o.get("categories"), "MPI");
        int bin = 100;
        assertEquals("rank 0", o.get("rows").get(0).get("label").asText());
        assertEquals(1.0, o.get("rows").get(0).get("shares").get(bin * c + user).asDouble(), 1e-9);
        assertEquals(0.0, o.get("rows").get(0).get("shares").get(bin * c + mpi).asDouble(), 1e-9);
        assertEquals(1.0, o.get("rows").get(1).get("shares").get(bin * c + mpi).asDouble(), 1e-9);
        // and by function: compute on rank 0 and MPI_Recv on rank 1 fill that bin, nothing else is in it
        int per = o.get("functionsPerBin").asInt();
        int r0 = o.get("rows").get(0).get("top").get(bin * per).asInt();
        int r1 = o.get("rows").get(1).get("top").get(bin * per).asInt();
        assertEquals("compute", o.get("functions").get(r0 >> 10).asText());
        assertEquals(1000, r0 & 1023);
        assertEquals("MPI_Recv", o.get("functions").get(r1 >> 10).asText());
        assertEquals(1000, r1 & 1023);
        assertEquals(0, o.get("rows").get(0).get("top").get(bin * per + 1).asInt());
    }

    private static int indexOf(JsonNode array, String s) {
        for (int i = 0; i < array.size(); i++) {
            if (array.get(i).asText().equals(s)) {
                return i;
            }
        }
        throw new AssertionError(s + " not in " + array);
    }

    @Test
    void eachListedInstanceHasItsWindowAndTheLateSendersNamesItsDelay() throws Exception {
        JsonNode d = data(report());
        JsonNode ls = null;
        for (JsonNode i : d.get("instances")) {
            assertTrue(i.get("events").get("traceEvents").size() > 0, i.toString());
            if (i.get("metric").asText().equals("mpi_latesender")) {
                ls = i;
            }
        }
        assertTrue(ls != null);
        assertEquals(1, ls.get("rank").asInt());
        JsonNode cause = ls.get("cause");
        assertEquals(0, cause.get("rank").asInt());
        assertEquals(0.001, cause.get("from").asDouble(), 1e-12);
        assertEquals(0.007, cause.get("to").asDouble(), 1e-12);
        assertEquals(0.005, cause.get("delay").asDouble(), 1e-12);
        assertEquals("main/compute", cause.get("callpaths").get(0).get("path").asText());
        assertEquals(0, d.get("leftOut").asInt());
    }

    private static String sectionAttr(String dom, String name) {
        Matcher m = Pattern.compile("<section id=\"timelines\"[^>]*\\s" + name + "=\"([^\"]*)\"").matcher(dom);
        assertTrue(m.find(), "no " + name + " on the timelines section");
        return Chromium.unescape(m.group(1));
    }

    private static String timelineAttr(String dom, String name) {
        Matcher m = Pattern.compile("<div class=\"tls-timeline\"[^>]*\\s" + name + "=\"([^\"]*)\"").matcher(dom);
        assertTrue(m.find(), "no " + name + " on the window's timeline");
        return Chromium.unescape(m.group(1));
    }

    /**
     * In Chromium: the worst instance (the 5 ms Late Sender) opens by itself, with the wait on rank 1 and its delay
     * on rank 0 marked; picking another instance in the list opens that one; the delay's call path opens the explorer
     * on the Late Sender delay.
     */
    @Test
    void theWorstInstanceOpensWithItsDelayAndTheListAndExplorerLinksWork() throws Exception {
        Path page = report();
        String first = Chromium.dom(page, "");
        assertFalse(first.contains("data-error="), first);
        JsonNode d = data(page);
        // the most severe instance with a delay found opens first
        int worst = -1;
        for (int k = 0; k < d.get("instances").size(); k++) {
            JsonNode i = d.get("instances").get(k);
            if (i.has("cause") && (worst < 0 || i.get("severity").asDouble()
                    > d.get("instances").get(worst).get("severity").asDouble())) {
                worst = k;
            }
        }
        assertEquals("mpi_latesender", d.get("instances").get(worst).get("metric").asText());
        assertEquals(String.valueOf(worst), sectionAttr(first, "data-open"));
        assertEquals("2", sectionAttr(first, "data-overview-rows"));
        assertEquals(String.valueOf(d.get("instances").size()), sectionAttr(first, "data-overview-marks"));
        assertEquals("2", timelineAttr(first, "data-rows"));
        assertEquals("2", timelineAttr(first, "data-marks"));
        String text = first.replaceAll("<[^>]+>", "").replaceAll("\\s+", " ");
        assertTrue(text.contains("rank 0 took longer: 5.00 ms of the wait is delay in main/compute (5.00 ms)"), text);

        int other = worst == 0 ? 1 : 0;
        Path probed = tmp.resolve("probed.html");
        Files.writeString(probed, Chromium.withProbe(Files.readString(page, StandardCharsets.UTF_8), """
                var rows = document.querySelectorAll('#timelines-list tr.pick');
                rows[%d].click();
                var opened = document.getElementById('timelines').dataset.open;
                window.StragglerTimelines.show(%d);
                var link = document.querySelector('.tls-why a');
                link.click();
                document.body.dataset.probe = opened + ' ' + location.hash;
                """.formatted(other, worst)), StandardCharsets.UTF_8);
        String dom = Chromium.dom(probed, "");
        String[] probe = Chromium.probe(dom).split(" ");
        assertEquals(String.valueOf(other), probe[0]);
        assertEquals("#metric=delay_latesender", probe[1]);
    }
}
