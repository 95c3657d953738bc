package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.util.Objects;

/**
 * Heatmap of point-to-point traffic between ranks: sender down, receiver across, colour by bytes or by
 * message count (log scale). Only non-zero cells are embedded, as (sender, receiver, messages, bytes)
 * quadruples, because communication matrices of real codes are sparse (neighbour exchanges); the page
 * draws on a canvas and bins ranks when there are more ranks than pixels.
 */
public final class CommMatrixSection implements HtmlSection {
    private final long[][] messages;
    private final long[][] bytes;

    /**
     * @param messages messages[sender][receiver]; square
     * @param bytes    bytes[sender][receiver]; same shape as messages, or null when only counts are known
     */
    public CommMatrixSection(long[][] messages, long[][] bytes) {
        this.messages = Objects.requireNonNull(messages, "messages");
        this.bytes = bytes;
        int n = messages.length;
        for (int i = 0; i < n; i++) {
            if (messages[i].length != n || (bytes != null && (bytes.length != n || bytes[i].length != n))) {
                throw new IllegalArgumentException("communication matrices must both be " + n + " x " + n + " (row " + i + ")");
            }
        }
    }

    @Override
    public String id() {
        return "comm";
    }

    @Override
    public String title() {
        return "Communication matrix";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        // row s of the canvas is sender s, drawn from the top; column r is receiver r, from the left (comm.js): the
        // axis titles say so with their arrows
        h.append("<p class=\"hint\">Point-to-point messages from each sending rank (rows, rank 0 at the top) to each "
                + "receiving rank (columns, rank 0 at the left). Hover a cell for its values.</p>\n<div class=\"pane-head\">"
                + "<span class=\"opt\"><label><input type=\"radio\" name=\"comm-mode\" value=\"bytes\" checked> bytes</label>"
                + "<label><input type=\"radio\" name=\"comm-mode\" value=\"messages\"> messages</label></span>"
                + "<span id=\"comm-total\"></span></div>\n<div class=\"comm-wrap\"><div class=\"comm-plot\">"
                + "<div class=\"comm-axes\"><span id=\"comm-rows\">sender \u2193</span>"
                + "<span id=\"comm-cols\">receiver \u2192</span></div><canvas id=\"comm-canvas\"></canvas></div>"
                + "<div id=\"comm-legend\" class=\"legend\"></div></div><div id=\"comm-tip\" class=\"tip\"></div>");
    }

    @Override
    public boolean hasData() {
        return true;
    }

    @Override
    public String scriptResource() {
        return "comm.js";
    }

    @Override
    public void writeData(JsonGenerator g) throws IOException {
        int n = messages.length;
        g.writeStartObject();
        g.writeNumberField("ranks", n);
        g.writeBooleanField("hasBytes", bytes != null);
        g.writeArrayFieldStart("cells");
        for (int s = 0; s < n; s++) {
            for (int r = 0; r < n; r++) {
                long b = bytes == null ? 0 : bytes[s][r];
                if (messages[s][r] != 0 || b != 0) {
                    g.writeNumber(s);
                    g.writeNumber(r);
                    g.writeNumber(messages[s][r]);
                    g.writeNumber(b);
                }
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }
}
