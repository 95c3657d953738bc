package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Objects;

/**
 * The rank-correlation scalability analysis: a table of callsites (or wait states) by r_s, and for the selected
 * one its rank scatter (rank of the task count against rank of the share) and its share of communication time
 * against the number of tasks. Data: the {@code straggler.scaling/1} JSON of
 * {@link dev.straggler.patterns.scaling.ScalingJson}.
 */
public final class ScalingSection implements HtmlSection {
    private final String id;
    private final String title;
    private final ObjectNode data;

    /** @param id element id (e.g. "scaling-callsites"); @param scalingJson from {@code ScalingJson.toJson} */
    public ScalingSection(String id, String title, ObjectNode scalingJson) {
        this.id = Objects.requireNonNull(id, "id");
        this.title = Objects.requireNonNull(title, "title");
        this.data = Objects.requireNonNull(scalingJson, "scalingJson");
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        String e = HtmlPage.esc(id);
        h.append("<p class=\"hint\">Spearman's r_s between the number of tasks and each entry's share of MPI "
                + "time, over all experiments (Vetter &amp; McCracken). Near +1: the share grows with p, the entry scales "
                + "badly. Click a row to plot it.</p>\n<div class=\"explorer scaling-root\" data-section=\"" + e + "\">"
                + "<div class=\"pane\"><div class=\"pane-head\" id=\"" + e + "-head\">Ranked by r_s</div><div class=\"tree\" id=\"" + e
                + "-rows\"></div></div><div class=\"pane\"><div class=\"pane-head\" id=\"" + e + "-title\"></div>"
                + "<div class=\"chart\" id=\"" + e + "-scatter\"></div><div class=\"chart\" id=\"" + e + "-curve\"></div>"
                + "</div></div>");
    }

    @Override
    public boolean hasData() {
        return true;
    }

    @Override
    public void writeData(JsonGenerator json) throws IOException {
        new ObjectMapper().writeTree(json, data);
    }

    @Override
    public String scriptResource() {
        return "scaling.js";
    }
}
