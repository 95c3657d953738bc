package dev.straggler.cli.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the page's scripts in headless Chromium and inspects the resulting DOM. Skipped where no Chromium is
 * installed ({@code apt-get install chromium}).
 */
class HtmlReportBrowserTest {
    @TempDir
    Path tmp;

    @Test
    void scriptsRenderTreesAndChartOfTheHottestCallPath() throws Exception {
        String dom = renderedDom(HtmlReport.of(ReportCubes.small())
                .communication(new long[][]{{0, 3}, {2, 0}}, new long[][]{{0, 300}, {200, 0}}), "#metric=time");
        // metric tree rows: Time, MPI, Late Sender, Visits
        assertEquals(4, count(dom, "class=\"row m-row") - count(dom, "class=\"row m-row hdr"), "metric rows");
        // time's hottest exclusive call path is MPI_Recv (6 s): selected, with one bar per rank
        assertTrue(dom.contains("Time \u2014 main/MPI_Recv (exclusive)"), "chart title names the selected path");
        assertEquals(4, count(section(dom, "explorer-chart"), "<rect"), "bars");
        assertTrue(dom.contains("<b>6.00 s</b>"), "sum over ranks is shown");
        assertTrue(dom.contains("work&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;"), "names are shown as text, not markup");
        assertTrue(dom.contains("2 ranks \u00b7 5 messages \u00b7 500 B"), "communication totals");
    }

    @Test
    void metricNamedInTheLinkIsOpened() throws Exception {
        String dom = renderedDom(HtmlReport.of(ReportCubes.small()), "#metric=mpi_latesender");
        assertTrue(dom.contains("Late Sender \u2014 main/MPI_Recv (exclusive)"), "Late Sender selected");
        // rank 0 has no Late Sender time: three bars
        assertEquals(3, count(section(dom, "explorer-chart"), "<rect"));
    }

    /** Without a link to a metric, the page opens the largest wait state, not the call path with the most time. */
    @Test
    void defaultViewOpensTheLargestWaitState() throws Exception {
        String dom = renderedDom(HtmlReport.of(ReportCubes.small()), "");
        assertTrue(dom.contains("Call tree: <b>Late Sender</b>") || dom.matches("(?s).*Call tree:\\s*(<[^>]+>)?\\s*Late Sender.*"),
                section(dom, "explorer"));
    }

    private String renderedDom(HtmlReport report, String fragment) throws IOException, InterruptedException {
        Path page = tmp.resolve("report.html");
        report.write(page);
        return Chromium.dom(page, fragment);
    }

    private static String section(String dom, String id) {
        Matcher m = Pattern.compile("id=\"" + id + "\"(.*?)</div>", Pattern.DOTALL).matcher(dom);
        assertTrue(m.find(), "no element " + id);
        return m.group(1);
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
