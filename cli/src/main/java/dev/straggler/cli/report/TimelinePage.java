package dev.straggler.cli.report;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A self-contained HTML page that draws a window of a trace on a canvas: one row per location, regions as nested
 * bars, messages as lines, the analysis' marks over the intervals they name. The page holds the window as the
 * Chrome/Perfetto trace-event JSON that {@code PerfettoExport} writes, so the page and the JSON file show the same
 * events by one definition; {@code timeline.js} reads it. No network access (Content-Security-Policy
 * {@code default-src 'none'}), no external library. See {@code docs/timeline.md}.
 */
public final class TimelinePage {
    private TimelinePage() {
    }

    /** Writes the trace-event JSON of the window to the stream (flushed, not closed). */
    @FunctionalInterface
    public interface TraceEvents {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes the page.
     *
     * @param title         the page's heading (the trace)
     * @param subtitle      what the window is (e.g. the instance it is centred on)
     * @param originSeconds the time of the JSON's ts 0 (the trace's first event) in seconds since the start of the
     *                      measurement, so that the page's axis counts as the command line does
     */
    public static void write(Path file, String title, String subtitle, double originSeconds, TraceEvents events)
            throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            text(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    + "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
                    + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    + "<title>" + HtmlPage.esc("Timeline \u2014 " + title) + "</title>\n<style>\n"
                    + HtmlPage.resource("timeline.css") + "</style>\n</head>\n<body>\n"
                    + "<header class=\"tl-head\"><h1>" + HtmlPage.esc(title) + "</h1><p>" + HtmlPage.esc(subtitle)
                    + "</p></header>\n"
                    + "<div id=\"tl-legend\" class=\"tl-legend\"></div>\n"
                    + "<div id=\"tl-status\" class=\"tl-status\">&nbsp;</div>\n"
                    + "<div id=\"tl-view\" class=\"tl-view\"><canvas id=\"tl-canvas\" class=\"tl-canvas\" tabindex=\"0\"></canvas></div>\n"
                    + "<p class=\"tl-help\">Wheel or <kbd>+</kbd>/<kbd>-</kbd>: zoom (around the pointer); drag or "
                    + "<kbd>\u2190</kbd>/<kbd>\u2192</kbd>: pan; <kbd>0</kbd>: the whole window. Times are seconds since "
                    + "the start of the measurement. Bars narrower than a pixel are merged into one bar per pixel "
                    + "(in the colour of the first); zoom in to separate them.</p>\n"
                    + "<script type=\"application/json\" id=\"tl-meta\">"
                    + String.format(Locale.ROOT, "{\"origin_s\":%s}", Double.toString(originSeconds))
                    + "</script>\n<script type=\"application/json\" id=\"tl-data\">");
            OutputStream json = new ScriptSafe(out);
            events.writeTo(json);
            json.flush();
            text(out, "</script>\n<script>\n" + HtmlPage.resource("timeline.js") + "</script>\n</body>\n</html>\n");
        }
    }

    private static void text(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * JSON inside a {@code <script>} element ends at the first {@code </script}: '<' (and '>' and '&', as
     * {@link HtmlPage} does) are written as unicode escapes. In JSON these characters occur only inside strings,
     * where the escape means the same character; as ASCII bytes they never occur inside a UTF-8 multi-byte sequence.
     */
    private static final class ScriptSafe extends FilterOutputStream {
        private static final byte[] LT = "\\u003c".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] GT = "\\u003e".getBytes(StandardCharsets.US_ASCII);
        private static final byte[] AMP = "\\u0026".getBytes(StandardCharsets.US_ASCII);

        ScriptSafe(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            byte[] e = escape((byte) b);
            if (e == null) {
                out.write(b);
            } else {
                out.write(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            int start = off;
            for (int i = off; i < off + len; i++) {
                byte[] e = escape(b[i]);
                if (e != null) {
                    out.write(b, start, i - start);
                    out.write(e);
                    start = i + 1;
                }
            }
            out.write(b, start, off + len - start);
        }

        @Override
        public void close() {
            // the page goes on after the JSON: the caller closes the underlying stream
        }

        private static byte[] escape(byte b) {
            return switch (b) {
                case '<' -> LT;
                case '>' -> GT;
                case '&' -> AMP;
                default -> null;
            };
        }
    }
}
