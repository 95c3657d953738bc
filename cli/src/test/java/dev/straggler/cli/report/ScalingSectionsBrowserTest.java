package dev.straggler.cli.report;

import dev.straggler.patterns.scaling.MeasurementSeries;
import dev.straggler.patterns.scaling.MedyaModel;
import dev.straggler.patterns.scaling.ModelPoint;
import dev.straggler.patterns.scaling.ModelSearch;
import dev.straggler.patterns.scaling.PmnfModeler;
import dev.straggler.patterns.scaling.RankCorrelation;
import dev.straggler.patterns.scaling.ScalingExperiment;
import dev.straggler.patterns.scaling.ScalingJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Renders the scaling and model sections in headless Chromium; skipped where none is installed. */
class ScalingSectionsBrowserTest {
    @TempDir
    Path tmp;

    static HtmlPage page() {
        List<ScalingExperiment> exps = new ArrayList<>();
        for (int p : new int[]{4, 8, 16, 32}) {
            exps.add(new ScalingExperiment("p" + p, p, Map.of("Alltoall @ transpose", 0.5 * p, "Sendrecv @ halo", 40.0), 40 + 0.5 * p));
        }
        RankCorrelation.Result rc = RankCorrelation.analyse(exps);
        List<ModelPoint> pts = new ArrayList<>();
        for (int p : new int[]{4, 8, 16, 32, 64}) {
            pts.add(new ModelPoint("p" + p, p, 1000.0 / p + 1 + 10 / Math.sqrt(p), 1000.0 / p, 1 + 10 / Math.sqrt(p)));
        }
        MedyaModel.Report medya = MedyaModel.analyse(pts, new int[]{1024});
        List<ModelSearch.SeriesModel> models = ModelSearch.fitAll(List.of(new MeasurementSeries("time", List.of("main", "solve"),
                new double[]{4, 8, 16, 32, 64}, new double[]{26.1, 13.4, 6.9, 3.6, 2.0})), PmnfModeler.Options.defaults());
        return new HtmlPage("Scaling", "test")
                .add(new ScalingSection("scaling-callsites", "Callsite scaling", ScalingJson.toJson(rc, "callsite")))
                .add(new ModelSection(ScalingJson.toJson(medya, models, 1024, 0.95)));
    }

    @Test
    void rankTableScatterAndShareCurveAreDrawn() throws Exception {
        String dom = renderedDom(page());
        assertEquals(2, count(dom, "class=\"srow\""), "one row per callsite");
        assertTrue(dom.contains("Alltoall @ transpose \u2014 r_s +1.000"), "the top row is selected");
        // 4 experiments: 4 dots in the rank scatter and 4 in the share curve, plus the model section's dots.
        String scaling = dom.substring(dom.indexOf("id=\"scaling-callsites-scatter\""), dom.indexOf("id=\"model\""));
        assertEquals(8, count(scaling, "class=\"dot\""));
        assertEquals(1, count(scaling, "class=\"curve\""), "mean share line");
    }

    @Test
    void modelSectionDrawsMedyaCurvesAndTheCrossover() throws Exception {
        String dom = renderedDom(page());
        String model = dom.substring(dom.indexOf("id=\"model-chart\""));
        assertEquals(3, count(model, "class=\"curve\""), "total, computation, communication");
        assertEquals(15, count(model, "class=\"dot\""), "5 runs x 3 measures");
        assertTrue(model.contains("class=\"vline\""), "crossover at p = 730 lies inside the plotted range");
        assertTrue(dom.contains("MPI overtakes computation at p = 729.8"));
    }

    /**
     * A model whose form peaks beyond the data (1 + 0.5·p^(-1/2)·log2(p)^2 at 2 … 16 peaks at p = e^4 ≈ 54.6): the
     * section says so under the chart and marks the turn, which lies inside the plotted range up to p = 128.
     */
    @Test
    void modelTurningOverBeyondTheDataIsFlaggedUnderTheChart() throws Exception {
        double[] p = {2, 4, 8, 16};
        double[] y = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            y[i] = 1 + 0.5 * Math.pow(p[i], -0.5) * Math.pow(Math.log(p[i]) / Math.log(2), 2);
        }
        List<ModelSearch.SeriesModel> models = ModelSearch.fitAll(List.of(new MeasurementSeries("time", List.of("main"),
                p, y)), PmnfModeler.Options.defaults());
        String dom = renderedDom(new HtmlPage("Models", "test").add(new ModelSection(ScalingJson.toJson(null, models,
                128, 0.95))));
        assertTrue(dom.contains("id=\"model-notes\""), "no notes under the model chart");
        String notes = dom.substring(dom.indexOf("id=\"model-notes\""));
        assertTrue(notes.startsWith("id=\"model-notes\">the fitted form turns over at p ≈ 55 (a peak), beyond the "
                + "measured 2–16: extrapolation unreliable"), notes.substring(0, Math.min(300, notes.length())));
        String chart = dom.substring(dom.indexOf("id=\"model-chart\""), dom.indexOf("id=\"model-notes\""));
        assertTrue(chart.contains("class=\"vline\"") && chart.contains("form turns over"), chart);
    }

    private String renderedDom(HtmlPage page) throws Exception {
        Path file = tmp.resolve("scaling.html");
        page.write(file);
        return Chromium.dom(file, "");
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
