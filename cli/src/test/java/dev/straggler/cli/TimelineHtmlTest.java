package dev.straggler.cli;

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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code straggler timeline --html}: the page run in headless Chromium (skipped without it), its drawing read from
 * the data attributes it leaves on the body. The bundled sample (1 tick = 1 µs) around its Late Sender is the whole
 * 12 ms run: 2 locations with 7 regions each, one message (sent at 7.010 ms on rank 0, received at 7.200 ms on
 * rank 1) and the wait 2.000-7.200 ms marked on rank 1; every region is wider than a pixel at full view (the
 * shortest, MPI_Send, is 0.1 ms of 12 ms).
 */
class TimelineHtmlTest {
    private static final Pattern WINDOW = Pattern.compile("\\[(\\d+\\.\\d+), (\\d+\\.\\d+)] s since the start");

    @TempDir
    Path tmp;

    private Path samplePage(String name) {
        Path page = tmp.resolve(name);
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--instance", "mpi_latesender:1", "--html",
                page.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        return page;
    }

    private static String attr(String dom, String name) {
        Matcher m = Pattern.compile("<body[^>]*\\s" + name + "=\"([^\"]*)\"").matcher(dom);
        assertTrue(m.find(), "no " + name + " on the body: " + dom.substring(0, Math.min(dom.length(), 400)));
        return Chromium.unescape(m.group(1));
    }

    private static double num(String dom, String name) {
        return Double.parseDouble(attr(dom, name));
    }

    private static void assertDrawn(String dom) {
        assertFalse(dom.matches("(?s).*<body[^>]*data-error=.*"), () -> "the page failed: " + dom);
    }

    /** The page of a probe script run after the page's own. */
    private Path withProbe(Path page, String script) throws Exception {
        Path probed = tmp.resolve("probed-" + page.getFileName());
        Files.writeString(probed, Chromium.withProbe(Files.readString(page, StandardCharsets.UTF_8), script),
                StandardCharsets.UTF_8);
        return probed;
    }

    @Test
    void theLateSenderPageDrawsTwoRowsFourteenBarsTheMessageAndTheMarksOverTheWindowThatWasPrinted() throws Exception {
        Path page = tmp.resolve("ls.html");
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--instance", "mpi_latesender:1", "--html",
                page.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        Matcher w = WINDOW.matcher(r.out());
        assertTrue(w.find(), r.out());
        String dom = Chromium.dom(page, "");
        assertDrawn(dom);
        assertEquals("2", attr(dom, "data-rows"));
        assertEquals("14", attr(dom, "data-drawn-bars"));
        assertEquals("1", attr(dom, "data-drawn-messages"));
        // the barrier at 8 ms: one collective operation linking both ranks
        assertEquals("1", attr(dom, "data-drawn-collectives"));
        assertTrue(dom.contains("collective operation (its members linked)"), dom);
        // the wait state on rank 1 and the delay that caused it on rank 0, each named in the legend
        assertEquals("2", attr(dom, "data-marks"));
        assertTrue(dom.contains("wait state (analysis)") && dom.contains("delay that caused it (root causes)"), dom);
        // main, and the calls inside it
        assertEquals("2", attr(dom, "data-levels"));
        assertEquals(Double.parseDouble(w.group(1)), num(dom, "data-visible-from"), 5e-7);
        assertEquals(Double.parseDouble(w.group(2)), num(dom, "data-visible-to"), 5e-7);
        assertEquals(0.012, num(dom, "data-visible-to"), 1e-12);
    }

    /**
     * #view=2,7.2 ms: on rank 0 main, compute (1-7 ms), MPI_Send and the compute from 7.1 ms; on rank 1 main and
     * MPI_Recv (the compute that ends at 2 ms and the one that starts at 7.2 ms have nothing inside).
     */
    @Test
    void aViewInTheLinkShowsThatIntervalAndOnlyTheRegionsInsideIt() throws Exception {
        String dom = Chromium.dom(samplePage("v.html"), "#view=0.002,0.0072");
        assertDrawn(dom);
        assertEquals(0.002, num(dom, "data-visible-from"), 1e-12);
        assertEquals(0.0072, num(dom, "data-visible-to"), 1e-12);
        assertEquals("6", attr(dom, "data-drawn-bars"));
        assertEquals("1", attr(dom, "data-drawn-messages"));
        // the wait (2-7.2 ms) and the delay (1-7 ms) both reach into the view
        assertEquals("2", attr(dom, "data-marks"));
    }

    @Test
    void theWheelZoomsInAroundThePointerAndFewerBarsAreDrawn() throws Exception {
        // the pointer a quarter into the time axis, near 3 ms; the wheel turned towards the screen zooms in
        Path page = withProbe(samplePage("z.html"), """
                var c = document.getElementById('tl-canvas'), b = c.getBoundingClientRect();
                var x = Math.round(b.left + Number(c.dataset.plotLeft) + Number(c.dataset.plotWidth) / 4);
                c.dispatchEvent(new WheelEvent('wheel', {deltaY: -600, clientX: x, clientY: b.top + 60,
                    bubbles: true, cancelable: true}));
                // where the pointer was, as a fraction of the time axis (events carry whole pixels)
                document.body.dataset.probe = String((x - b.left - Number(c.dataset.plotLeft)) / Number(c.dataset.plotWidth));
                """);
        String dom = Chromium.dom(page, "");
        assertDrawn(dom);
        double f = Double.parseDouble(Chromium.probe(dom));
        assertEquals(0.25, f, 0.01);
        double from = num(dom, "data-visible-from");
        double to = num(dom, "data-visible-to");
        assertTrue(to - from < 0.006, from + " to " + to);
        // the time under the pointer (before: f of the whole 12 ms) stays under it
        assertEquals(f * 0.012, from + f * (to - from), 1e-12);
        assertTrue(Integer.parseInt(attr(dom, "data-drawn-bars")) < 14, attr(dom, "data-drawn-bars"));
    }

    @Test
    void keysZoomPanAndReset() throws Exception {
        Path page = withProbe(samplePage("k.html"), """
                function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); }
                function at() { var d = document.body.dataset; return [d.visibleFrom, d.visibleTo, d.drawnBars].join(' '); }
                var seen = [];
                key('+'); seen.push(at());
                key('ArrowRight'); seen.push(at());
                key('0'); seen.push(at());
                document.body.dataset.probe = seen.join(';');
                """);
        String dom = Chromium.dom(page, "");
        assertDrawn(dom);
        String[] steps = Chromium.probe(dom).split(";");
        double[] zoomed = parse(steps[0]);
        double[] panned = parse(steps[1]);
        double[] reset = parse(steps[2]);
        double width = zoomed[1] - zoomed[0];
        assertTrue(width < 0.012 && Math.abs((zoomed[0] + zoomed[1]) / 2 - 0.006) < 1e-9, steps[0]);
        assertTrue(zoomed[2] < 14, steps[0]);
        // a pan keeps the width and moves the view later in time
        assertEquals(width, panned[1] - panned[0], 1e-12);
        assertTrue(panned[0] > zoomed[0], steps[1]);
        assertEquals(0, reset[0], 1e-12);
        assertEquals(0.012, reset[1], 1e-12);
        assertEquals(14, reset[2]);
    }

    @Test
    void thePointerOverTheWaitingReceiveNamesItsRegionStartAndDuration() throws Exception {
        // 4 ms is inside rank 1's MPI_Recv (2.0-7.2 ms); walk down the rows until the status names it
        Path page = withProbe(samplePage("h.html"), """
                var c = document.getElementById('tl-canvas'), b = c.getBoundingClientRect();
                var x = b.left + Number(c.dataset.plotLeft) + Number(c.dataset.plotWidth) / 3;
                for (var y = 0; y < b.height; y++) {
                  c.dispatchEvent(new MouseEvent('mousemove', {clientX: x, clientY: b.top + y, bubbles: true}));
                  if ((document.body.dataset.hover || '').indexOf('MPI_Recv') >= 0) break;
                }
                document.body.dataset.probe = document.getElementById('tl-status').textContent;
                """);
        String status = Chromium.probe(Chromium.dom(page, ""));
        assertEquals("rank 1 \u00b7 MPI_Recv [MPI] \u00b7 start 0.002000 s \u00b7 duration 5.200 ms", status);
    }

    @Test
    void aPageWrittenWithTheJsonFileHoldsThatFile() throws Exception {
        Path json = tmp.resolve("w.json");
        Path page = tmp.resolve("w.html");
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--instance", "mpi_latesender:1",
                "--perfetto", json.toString(), "--html", page.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("wrote " + json + " and " + page + ": "), r.out());
        Matcher m = Pattern.compile("(?s)<script type=\"application/json\" id=\"tl-data\">(.*?)</script>")
                .matcher(Files.readString(page));
        assertTrue(m.find());
        assertEquals(Files.readString(json), m.group(1));
    }

    /** A region named like the end of a script element stays a name: the page still draws all of it. */
    @Test
    void aRegionNamedLikeMarkupCannotEndTheEmbeddedData() throws Exception {
        Path trace = tmp.resolve("markup.txt");
        Files.writeString(trace, Files.readString(CliTest.SAMPLE).replace("region 1 compute", "region 1 </script><b>x")
                .replace("ENTER compute", "ENTER </script><b>x").replace("LEAVE compute", "LEAVE </script><b>x"));
        Path page = tmp.resolve("m.html");
        CliTest.Run r = CliTest.run("timeline", trace.toString(), "--html", page.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertFalse(Files.readString(page).contains("</script><b>"));
        String dom = Chromium.dom(page, "");
        assertDrawn(dom);
        assertEquals("14", attr(dom, "data-slices"));
        assertEquals("14", attr(dom, "data-drawn-bars"));
    }

    @Test
    void aRealTraceIsDrawnWithBarsMergedBelowAPixel() throws Exception {
        Path trace = Path.of(System.getProperty("straggler.shared", "../../shared"), "traces", "real", "npb-mg.S-4",
                "traces.otf2");
        assumeTrue(Files.isRegularFile(trace), "shared traces not present: " + trace);
        Path page = tmp.resolve("mg.html");
        CliTest.Run r = CliTest.run("timeline", trace.toString(), "--html", page.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        Matcher slices = Pattern.compile("([\\d,]+) region slices").matcher(r.out());
        assertTrue(slices.find(), r.out());
        long printed = Long.parseLong(slices.group(1).replace(",", ""));
        String dom = Chromium.dom(page, "");
        assertDrawn(dom);
        assertEquals("4", attr(dom, "data-rows"));
        assertEquals(printed, Long.parseLong(attr(dom, "data-slices")));
        long bars = Long.parseLong(attr(dom, "data-drawn-bars"));
        System.out.println("npb-mg.S-4, whole run: " + printed + " region slices, " + bars + " bars drawn, "
                + attr(dom, "data-drawn-messages") + " message lines");
        // thousands of slices on a canvas about 1,300 pixels wide: many merged, none lost from view entirely
        assertTrue(bars > 100 && bars < printed, bars + " bars of " + printed);
    }

    @Test
    void aDirectoryAsThePageIsRefusedInOneLine() {
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--html", tmp.toString(), "-q");
        assertEquals(1, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertEquals("straggler: --html " + tmp + ": is a directory; give the name of a file to write", r.err().strip());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    private static double[] parse(String step) {
        String[] f = step.split(" ");
        return new double[]{Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
    }
}
