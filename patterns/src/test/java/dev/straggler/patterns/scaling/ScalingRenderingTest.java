package dev.straggler.patterns.scaling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScalingRenderingTest {

    @Test
    void rankCorrelationTextAndJsonCarryRowsSeriesAndRanks() throws Exception {
        RankCorrelation.Result r = RankCorrelation.analyse(RankCorrelationTest.family());
        String text = ScalingText.render(r, "callsite");
        assertTrue(text.lines().anyMatch(l -> l.endsWith("Alltoall@transpose") && l.trim().startsWith("+")), text);
        assertTrue(text.contains("p=128"), text);
        JsonNode j = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(ScalingJson.toJson(r, "callsite")));
        assertEquals(ScalingJson.SCALING_SCHEMA, j.get("schema").asText());
        JsonNode top = j.get("rows").get(0);
        assertEquals("Alltoall@transpose", top.get("key").asText());
        assertEquals(10, top.get("series").size());
        assertEquals(10, top.get("shareRanks").size());
        assertEquals(r.rows().get(0).rs(), top.get("rs").asDouble(), 1e-15);
    }

    @Test
    void modelJsonHasFitsCrossoverCurvesWithBandsAndDemand() throws Exception {
        List<ModelPoint> pts = new ArrayList<>();
        for (int p : new int[]{4, 8, 16, 32, 64}) {
            double comp = 1000.0 / p;
            double comm = 1 + 10 / Math.sqrt(p);
            pts.add(new ModelPoint("p" + p, p, comp + comm, comp, comm));
        }
        MedyaModel.Report medya = MedyaModel.analyse(pts, new int[]{1024});
        List<MeasurementSeries> series = List.of(new MeasurementSeries("time", List.of("main"),
                new double[]{4, 8, 16, 32, 64}, new double[]{251.5, 126.6, 64.1, 33.0, 17.9}));
        List<ModelSearch.SeriesModel> models = ModelSearch.fitAll(series, PmnfModeler.Options.defaults());
        JsonNode j = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(
                ScalingJson.toJson(medya, models, 1024, 0.95)));
        assertEquals(ScalingJson.MODEL_SCHEMA, j.get("schema").asText());
        assertEquals("AT", j.get("medya").get("crossover").get("kind").asText());
        assertEquals(1000, j.get("medya").get("computation").get("c1").asDouble(), 1e-6);
        JsonNode curve = j.get("models").get(0).get("curve");
        assertEquals(40, curve.get("p").size());
        assertEquals(1024, curve.get("p").get(39).asDouble(), 1e-9);
        assertTrue(curve.get("lower").get(39).asDouble() <= curve.get("fit").get(39).asDouble());
        String text = ScalingText.render(medya) + ScalingText.render(models, 1024, 0.95);
        assertTrue(text.contains("MPI overtakes computation at p = 729.8"), text);
    }

    /** A series that is zero in every run (no computation in a focus of MPI calls) has coefficients of zero, unsigned. */
    @Test
    void coefficientsThatRoundToZeroPrintWithoutASign() {
        List<ModelPoint> pts = new ArrayList<>();
        for (int p : new int[]{2, 4, 8}) {
            pts.add(new ModelPoint("p" + p, p, 1.0 / p + 0.3, 0, 1.0 / p + 0.3));
        }
        String text = ScalingText.render(MedyaModel.analyse(pts, new int[0]));
        String computation = text.lines().filter(l -> l.startsWith("computation")).findFirst().orElseThrow();
        assertFalse(computation.matches(".*-0\\.0+\\b.*"), computation);
    }
}
