package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scaling-model chart's caption says what the chart draws: the Medya fit (total, computation, communication)
 * has no confidence band, a normal-form model fitted to more runs than it has coefficients has one.
 */
class ModelCaptionBrowserTest {
    @TempDir
    Path tmp;

    /** For each model of the picker: its caption and whether a band is drawn. */
    private JsonNode captions() throws Exception {
        String probe = """
                const pick = document.getElementById('model-pick');
                const caption = () => (document.getElementById('model-caption') || document.querySelector('#model .hint')).textContent;
                const out = [];
                for (let i = 0; i < pick.options.length; i++) {
                  pick.value = String(i);
                  pick.dispatchEvent(new Event('change'));
                  out.push({label: pick.options[i].textContent, caption: caption(),
                    stats: document.getElementById('model-stats').textContent,
                    band: document.querySelector('#model-chart polygon.band') !== null});
                }
                document.body.dataset.probe = JSON.stringify(out);
                """;
        String html = Chromium.withProbe(ScalingSectionsBrowserTest.page().render(), probe);
        return new ObjectMapper().readTree(Chromium.probe(Chromium.dom(html, tmp)));
    }

    @Test
    void theMedyaChartDrawsNoBandAndItsCaptionPromisesNone() throws Exception {
        JsonNode medya = captions().get(0);
        assertTrue(medya.get("label").asText().startsWith("run time"), medya.toString());
        assertFalse(medya.get("band").asBoolean(), "the Medya fit has no band to draw");
        String caption = medya.get("caption").asText();
        assertFalse(caption.contains("band (shaded)"), caption);
        assertTrue(caption.contains("no confidence band"), caption);
    }

    @Test
    void aCaptionMentionsABandExactlyWhenOneIsDrawn() throws Exception {
        JsonNode all = captions();
        assertEquals(2, all.size(), "Medya and one normal-form model");
        boolean anyBand = false;
        for (JsonNode c : all) {
            boolean drawn = c.get("band").asBoolean();
            anyBand |= drawn;
            assertEquals(drawn, c.get("caption").asText().contains("confidence band (shaded)"), c.toString());
            assertEquals(drawn, c.get("stats").asText().contains("confidence band"), c.toString());
        }
        assertTrue(anyBand, "the normal-form model of 5 runs has its band drawn");
    }

    @Test
    void thePageWithoutScriptsPromisesNoBand() {
        String html = ScalingSectionsBrowserTest.page().render();
        String hint = html.substring(html.indexOf("<section id=\"model\""));
        hint = hint.substring(0, hint.indexOf("</p>"));
        assertFalse(hint.contains("band"), hint);
    }
}
