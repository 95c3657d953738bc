package dev.straggler.cli.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The explorer of a hybrid run as drawn in headless Chromium: the per-location chart lists each process's threads
 * together under it, although the trace numbers its locations master, master, worker, worker (OTF2 ids).
 */
class ThreadsBrowserTest {
    @TempDir
    Path tmp;

    /** Two ranks of two threads; locations in trace order: rank 0, rank 1, rank 0's worker, rank 1's worker. */
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=100
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 ibar paradigm=OPENMP role=IMPLICIT_BARRIER
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=0 thread=1
            location 3 rank=1 thread=1
            0 0 ENTER main
            0 10 THREAD_FORK model=openmp threads=2
            0 10 ENTER par
            0 60 ENTER ibar
            0 90 LEAVE ibar
            0 90 LEAVE par
            0 90 THREAD_JOIN model=openmp
            0 100 LEAVE main
            1 0 ENTER main
            1 10 THREAD_FORK model=openmp threads=2
            1 10 ENTER par
            1 30 ENTER ibar
            1 90 LEAVE ibar
            1 90 LEAVE par
            1 90 THREAD_JOIN model=openmp
            1 100 LEAVE main
            2 10 ENTER par
            2 20 ENTER ibar
            2 90 LEAVE ibar
            2 90 LEAVE par
            3 10 ENTER par
            3 90 ENTER ibar
            3 90 LEAVE ibar
            3 90 LEAVE par
            """;

    @Test
    void threadsAreDrawnUnderTheirProcess() throws Exception {
        var r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "threads"), AnalysisOptions.defaults());
        Path page = tmp.resolve("report.html");
        HtmlReport.of(r.cube()).write(page);
        String dom = Chromium.dom(page, "#metric=omp_ibarrier_wait");
        assertTrue(dom.contains("Per thread, by process"), "the chart says what its bars are");
        Matcher chart = Pattern.compile("id=\"explorer-chart\"(.*?)</svg>", Pattern.DOTALL).matcher(dom);
        assertTrue(chart.find(), "no explorer chart");
        List<String> labels = new ArrayList<>();
        Matcher t = Pattern.compile(">(\\d+\\.\\d+)</text>").matcher(chart.group(1));
        while (t.find()) {
            labels.add(t.group(1));
        }
        assertEquals(List.of("0.0", "0.1", "1.0", "1.1"), labels, "rank.thread along the axis");
        // waiting at the implicit barrier: rank 0's worker 40 µs (location 2), rank 1's master 60 µs (location 1)
        Matcher bars = Pattern.compile("<title>Location (\\d+\\.\\d+)[^<]*?: ([^<]+)</title>").matcher(chart.group(1));
        List<String> seen = new ArrayList<>();
        while (bars.find()) {
            seen.add(bars.group(1));
        }
        assertEquals(List.of("0.1", "1.0"), seen, "bars in the same order, not in the trace's location order");
    }
}
