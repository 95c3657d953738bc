package dev.straggler.cli.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the cause → effect and critical-path views of {@link ReportCubes#rootCauses()} in headless Chromium and
 * inspects the DOM; clicks are made by a script appended to the page, which runs after the page's own scripts.
 * Skipped where no Chromium is installed.
 */
class RootCauseSectionsBrowserTest {
    @TempDir
    Path tmp;

    @Test
    void largestWaitStateIsOpenWithItsAnswerEffectAndCauses() throws Exception {
        String dom = renderedDom("", null);
        assertEquals(2, count(dom, "role=\"tab\""), "Late Sender and Wait at Barrier");
        assertTrue(dom.contains("class=\"rc-tab sel\" data-kind=\"mpi_latesender\""), "Late Sender is selected");
        String answer = text(element(dom, "causes-answer"));
        assertTrue(answer.startsWith("75.0 % of all Late Sender waiting (4.00 s) is caused by \u2026/solve/work on "
                + "ranks 2 and 3"), answer);
        assertEquals(1, count(element(dom, "causes-effects"), "data-row="), "one call path waits");
        assertEquals(2, count(element(dom, "causes-causes"), "data-row="), "work and MPI_Recv delay");
        // delay on ranks 1 (MPI_Recv), 2 and 3 (work); waiting on ranks 1, 2 and 3
        String chart = element(dom, "causes-chart");
        assertEquals(3, count(chart, "class=\"up\""));
        assertEquals(3, count(chart, "class=\"down\""));
    }

    @Test
    void clickingAWaitStateShowsItsCauses() throws Exception {
        String dom = renderedDom("", "document.querySelector('[data-kind=mpi_barrier_wait]').click();");
        assertTrue(dom.contains("class=\"rc-tab sel\" data-kind=\"mpi_barrier_wait\""));
        assertTrue(text(element(dom, "causes-answer")).startsWith("100.0 % of all Wait at Barrier waiting (600 ms)"));
        String chart = element(dom, "causes-chart");
        assertEquals(1, count(chart, "class=\"up\""), "only rank 3 delays");
        assertEquals(2, count(chart, "class=\"down\""), "ranks 0 and 1 wait");
    }

    @Test
    void clickingACauseShowsItAloneInThePerRankChart() throws Exception {
        String dom = renderedDom("", "document.querySelectorAll('#causes-causes [data-row]')[1].click();");
        assertTrue(text(element(dom, "causes-chart-what")).startsWith("delay: \u2026/solve/MPI_Recv"));
        String chart = element(dom, "causes-chart");
        assertEquals(1, count(chart, "class=\"up\""), "MPI_Recv delays on rank 1 only");
        assertEquals(3, count(chart, "class=\"down\""), "waiting still of all call paths");
    }

    @Test
    void linkCanNameTheWaitStateToOpen() throws Exception {
        String dom = renderedDom("#wait=mpi_barrier_wait", null);
        assertTrue(dom.contains("class=\"rc-tab sel\" data-kind=\"mpi_barrier_wait\""));
    }

    @Test
    void clickedWaitStateIsKeptInTheAddress() throws Exception {
        String dom = renderedDom("", "document.querySelector('[data-kind=mpi_barrier_wait]').click();"
                + "document.body.appendChild(Object.assign(document.createElement('output'), "
                + "{id: 'address', textContent: location.hash}));");
        assertTrue(dom.contains("<output id=\"address\">#wait=mpi_barrier_wait</output>"));
    }

    @Test
    void explorerLinkStillOpensItsMetricBesideTheCauseSection() throws Exception {
        String dom = renderedDom("#metric=critical_path", null);
        assertTrue(text(element(dom, "explorer-path-name")).startsWith("Critical path \u2014 "));
        assertTrue(dom.contains("class=\"rc-tab sel\" data-kind=\"mpi_latesender\""), "the cause view opens as usual");
    }

    @Test
    void criticalPathTreeOpensAtTheActivityWithTheLargestImpact() throws Exception {
        String dom = renderedDom("", null);
        String tree = element(dom, "critical-path-tree");
        assertEquals(4, count(tree, "data-path="), "main, solve and both callees are shown");
        assertEquals(1, count(tree, "class=\"row cp-row sel hot\""), "work is highlighted and selected");
        assertEquals("main/solve/work", text(element(dom, "critical-path-name")));
        String chart = element(dom, "critical-path-chart");
        assertEquals(4, count(chart, "class=\"busy\""), "time outside waiting on every rank");
        assertEquals(1, count(chart, "class=\"onpath\""), "work is on the path on rank 2 only");
    }

    @Test
    void clickingACallPathShowsItPerRank() throws Exception {
        String dom = renderedDom("", "[...document.querySelectorAll('#critical-path-tree [data-path]')]"
                + ".find(r => r.textContent.includes('MPI_Recv')).click();");
        assertEquals("main/solve/MPI_Recv", text(element(dom, "critical-path-name")));
        assertEquals(1, count(element(dom, "critical-path-chart"), "class=\"onpath\""), "on rank 3");
    }

    /** The page after its scripts ran, and then {@code clicks} when not null. */
    private String renderedDom(String fragment, String clicks) throws IOException, InterruptedException {
        String html = HtmlReport.of(ReportCubes.rootCauses()).render();
        if (clicks != null) {
            html = html.replace("</body>", "<script>" + clicks + "</script>\n</body>");
        }
        Path page = tmp.resolve("report.html");
        Files.writeString(page, html);
        return Chromium.dom(page, fragment);
    }

    /** The markup inside the element with this id (its tags balanced, as Chromium writes them). */
    private static String element(String dom, String id) {
        Matcher m = Pattern.compile("<(\\w+)[^>]* id=\"" + id + "\"[^>]*>").matcher(dom);
        assertTrue(m.find(), "no element " + id);
        Matcher tags = Pattern.compile("<(/?)" + m.group(1) + "\\b[^>]*>").matcher(dom);
        int depth = 1;
        int from = m.end();
        tags.region(from, dom.length());
        while (tags.find()) {
            depth += tags.group(1).isEmpty() ? 1 : -1;
            if (depth == 0) {
                return dom.substring(from, tags.start());
            }
        }
        throw new AssertionError("element " + id + " is not closed");
    }

    private static String text(String markup) {
        return markup.replaceAll("<[^>]*>", "").replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").strip();
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
