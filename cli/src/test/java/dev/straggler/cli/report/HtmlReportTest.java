package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HtmlReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode data(String html, String section) throws IOException {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"data-" + section + "\">(.*?)</script>",
                Pattern.DOTALL).matcher(html);
        assertTrue(m.find(), "no data block for " + section);
        return JSON.readTree(m.group(1));
    }

    @Test
    void embeddedCubeDataParsesBackToTheCubesValues() throws IOException {
        SeverityCube cube = ReportCubes.small();
        JsonNode d = data(HtmlReport.of(cube).render(), "explorer");

        assertEquals(4, d.get("metrics").size());
        assertEquals("mpi_latesender", d.get("metrics").get(2).get("id").asText());
        assertEquals(1, d.get("metrics").get(2).get("parent").asInt());
        assertEquals(10.0, d.get("metrics").get(0).get("total").asDouble(), 1e-12);
        assertEquals(2.0, d.get("metrics").get(2).get("total").asDouble(), 1e-12);
        assertEquals(0, d.get("timeMetric").asInt());
        assertEquals(List.of(-1, 0, 0), ints(d.get("paths").get("parent")));
        assertEquals(14, d.get("paths").get("callsite").get(1).asInt());

        JsonNode ls = d.get("data").get(2);
        assertEquals(List.of(1), ints(ls.get("paths")), "Late Sender is non-zero on MPI_Recv only");
        assertEquals(2.0, ls.get("sums").get(0).asDouble(), 1e-12);
        assertEquals(List.of(0.0, 0.5, 0.5, 1.0), doubles(ls.get("perLocation")));
        assertEquals(List.of(0.0, 0.5, 0.5, 1.0), doubles(ls.get("rows").get(0)));
        assertEquals(0, ls.get("omittedRows").asInt());

        JsonNode visits = d.get("data").get(3);
        assertEquals(List.of(0, 1, 2), ints(visits.get("paths")));
        assertEquals(406.0, visits.get("sums").get(1).asDouble(), 0.0);
        assertEquals("work</script><b>x</b>", d.get("regions").get(2).get(0).asText());
    }

    @Test
    void markupInNamesCannotCloseTheDataBlock() {
        String html = HtmlReport.of(ReportCubes.small()).render();
        int opened = count(html, "<script");
        int closed = count(html, "</script>");
        assertEquals(opened, closed, "every script element closes exactly once");
        assertTrue(html.contains("work\\u003C/script\\u003E") || html.contains("work\\u003c/script\\u003e"), "escaped in JSON");
    }

    @Test
    void pageLoadsNothingFromOutside() {
        String html = HtmlReport.of(ReportCubes.small()).communication(new long[][]{{0, 1}, {1, 0}}, null).render();
        assertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none'"), "CSP forbids network access");
        assertFalse(Pattern.compile("\\s(src|href)=\"(https?:)?//").matcher(html).find(), "no external src/href");
        assertFalse(html.contains("@import") || html.contains("url(http"), "no external CSS");
    }

    @Test
    void communicationMatrixEmbedsOnlyNonZeroCells() throws IOException {
        long[][] msgs = {{0, 8, 0}, {8, 0, 1}, {0, 0, 0}};
        long[][] bytes = {{0, 4_177_920, 0}, {4_177_920, 0, 16}, {0, 0, 0}};
        JsonNode c = data(HtmlReport.of(ReportCubes.small()).communication(msgs, bytes).render(), "comm");
        assertEquals(3, c.get("ranks").asInt());
        assertTrue(c.get("hasBytes").asBoolean());
        List<Long> cells = new ArrayList<>();
        c.get("cells").forEach(n -> cells.add(n.asLong()));
        assertEquals(List.of(0L, 1L, 8L, 4_177_920L, 1L, 0L, 8L, 4_177_920L, 1L, 2L, 1L, 16L), cells);
    }

    @Test
    void rowBudgetGivesEveryMetricItsLargestRowsFirst() throws IOException {
        // 4 locations per row, room for 6 rows. Largest rows: time MPI_Recv (6 s), mpi MPI_Recv, ls MPI_Recv,
        // visits MPI_Recv (406); second largest: time work (3 s), visits work (40); main is left out of both
        JsonNode d = data(HtmlReport.of(ReportCubes.small()).maxEmbeddedRowValues(24).render(), "explorer");
        assertEquals(List.of(1, 2), ints(d.get("data").get(0).get("rowPaths")));
        assertEquals(List.of(1), ints(d.get("data").get(1).get("rowPaths")));
        assertEquals(List.of(1), ints(d.get("data").get(2).get("rowPaths")));
        assertEquals(List.of(1, 2), ints(d.get("data").get(3).get("rowPaths")));
        assertEquals(1, d.get("data").get(0).get("omittedRows").asInt());
        assertEquals(1, d.get("data").get(3).get("omittedRows").asInt());
        assertEquals(List.of(1.0, 1.0, 0.5, 0.5), doubles(d.get("data").get(0).get("rows").get(1)));
        // sums and per-location totals are always complete
        assertEquals(3, d.get("data").get(0).get("sums").size());
        assertEquals(List.of(1.75, 2.25, 2.25, 3.75), doubles(d.get("data").get(0).get("perLocation")));
    }

    @Test
    void budgetSmallerThanOneRowEmbedsNoRows() throws IOException {
        JsonNode d = data(HtmlReport.of(ReportCubes.small()).maxEmbeddedRowValues(3).render(), "explorer");
        for (JsonNode metric : d.get("data")) {
            assertEquals(0, metric.get("rows").size());
            assertEquals(metric.get("paths").size(), metric.get("omittedRows").asInt());
        }
    }

    @Test
    void differenceCubeIsMarkedForDivergingColours() throws IOException {
        String html = HtmlReport.of(ReportCubes.small()).difference(true).render();
        assertTrue(data(html, "explorer").get("difference").asBoolean());
        assertTrue(html.contains("Difference explorer"));
    }

    @Test
    void summaryPartitionsTimeOverTheMetricTree() {
        String html = HtmlReport.of(ReportCubes.small()).render();
        // time 10 s = 4 s outside MPI + 4 s MPI not Late Sender + 2 s Late Sender
        assertTrue(html.contains("Where the time goes"));
        assertTrue(html.matches("(?s).*Time <span class=\"self\">\\(excluding MPI\\)</span></td><td class=\"num\">4.00 s</td><td class=\"num\">40.0 %.*"), "time remainder row");
        assertTrue(html.matches("(?s).*MPI <span class=\"self\">\\(excluding Late Sender\\)</span></td><td class=\"num\">4.00 s</td><td class=\"num\">40.0 %.*"), "MPI remainder row");
        assertTrue(html.matches("(?s).*Late Sender <span class=\"self\">\\(in MPI\\)</span></td><td class=\"num\">2.00 s</td><td class=\"num\">20.0 %.*"), "Late Sender row");
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    private static List<Integer> ints(JsonNode a) {
        List<Integer> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asInt()));
        return out;
    }

    private static List<Double> doubles(JsonNode a) {
        List<Double> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asDouble()));
        return out;
    }
}
