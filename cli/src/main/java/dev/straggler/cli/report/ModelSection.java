package dev.straggler.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Objects;

/**
 * Scaling models: the Medya fit of total, computation and communication time with the crossover, and each
 * normal-form model's measurements, fitted curve and (where the fit has one) confidence band, extrapolated. Data: the
 * {@code straggler.model/1} JSON of {@link dev.straggler.patterns.scaling.ScalingJson}.
 */
public final class ModelSection implements HtmlSection {
    private final ObjectNode data;

    public ModelSection(ObjectNode modelJson) {
        this.data = Objects.requireNonNull(modelJson, "modelJson");
    }

    @Override
    public String id() {
        return "model";
    }

    @Override
    public String title() {
        return "Scaling models";
    }

    @Override
    public void writeBody(Appendable h) throws IOException {
        // the caption is the page script's: it names what the selected chart draws, a confidence band only where
        // one is drawn (the Medya fit has none, nor has a normal-form model fitted to as many runs as coefficients);
        // below the chart: why a simpler model was preferred, and where a fitted form turns over
        h.append("<p class=\"hint\" id=\"model-caption\">Measured values (dots) and fitted models (lines), extrapolated "
                + "to larger process counts; the x axis is logarithmic.</p>\n<div class=\"pane wide\">"
                + "<div class=\"pane-head\"><select id=\"model-pick\"></select><span class=\"opt\" id=\"model-formula\"></span>"
                + "</div><div class=\"stats\" id=\"model-stats\"></div><div class=\"chart\" id=\"model-chart\"></div>"
                + "<div class=\"stats\" id=\"model-notes\"></div></div>");
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
