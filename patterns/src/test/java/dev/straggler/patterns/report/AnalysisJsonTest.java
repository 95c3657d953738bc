package dev.straggler.patterns.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.DeterminismTest;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnalysisJsonTest {

    private static AnalysisResult analysed() throws IOException {
        return Analysis.run(DeterminismTest.randomTrace(4, 6, 7).build(), AnalysisOptions.defaults().withThreads(2));
    }

    private static byte[] json(AnalysisResult r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AnalysisJson.write(r, out);
        return out.toByteArray();
    }

    @Test
    void writtenDocumentRoundTripsEveryValue() throws IOException {
        AnalysisResult r = analysed();
        AnalysisResult back = AnalysisJson.read(new ByteArrayInputStream(json(r)), "test");
        SeverityCube a = r.cube();
        SeverityCube b = back.cube();
        assertEquals(a.metrics(), b.metrics());
        assertEquals(a.callPaths(), b.callPaths());
        for (int m = 0; m < a.metrics().size(); m++) {
            for (int c = 0; c < a.callPaths().size(); c++) {
                for (int l = 0; l < a.locations().size(); l++) {
                    assertEquals(a.get(m, c, l), b.get(m, c, l), 0.0);
                }
            }
        }
        assertEquals(r.summary(), back.summary());
        assertEquals(r.violations(), back.violations());
        assertEquals(r.mostSevere(), back.mostSevere());
        assertEquals(r.warnings(), back.warnings());
        assertEquals(r.instanceCounts(), back.instanceCounts());
    }

    /** Every number is the shortest text that reads back (checked above): no E notation, no trailing zeros. */
    @Test
    void numbersHaveNoExponentAndNoTrailingZeros() throws IOException {
        String doc = new String(json(analysed()), java.nio.charset.StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(":\\s*(-?[0-9][0-9.eE+-]*)").matcher(doc);
        int numbers = 0;
        while (m.find()) {
            String n = m.group(1);
            assertFalse(n.contains("E") || n.contains("+") || n.matches(".*\\.[0-9]*0"), n);
            numbers++;
        }
        assertTrue(numbers > 100, doc);
        // this trace's times are microseconds: plain from 1e-6 s on, 1.02e-7 below
        assertTrue(doc.matches("(?s).*\" : 0\\.00000[1-9][0-9]*,.*"), "no value between 1e-6 and 1e-5 written plainly");
    }

    @Test
    void whetherRootCausesWereAnalysedSurvivesTheRoundTrip() throws IOException {
        AnalysisResult with = Analysis.run(DeterminismTest.randomTrace(4, 6, 7).build(),
                AnalysisOptions.defaults().withThreads(2).withRootCauses(true));
        AnalysisResult back = AnalysisJson.read(new ByteArrayInputStream(json(with)), "test");
        assertTrue(Analysis.rootCausesAnalysed(back.cube()));
        AnalysisResult without = AnalysisJson.read(new ByteArrayInputStream(json(analysed())), "test");
        assertFalse(Analysis.rootCausesAnalysed(without.cube()));
    }

    @Test
    void documentHasTheSchemaFieldsAndMetricTotalsIncludeChildren() throws IOException {
        JsonNode root = new ObjectMapper().readTree(json(analysed()));
        assertEquals(AnalysisJson.SCHEMA, root.get("schema").asText());
        for (String f : new String[]{"trace", "clockViolations", "metrics", "callpaths", "values", "instances"}) {
            assertTrue(root.has(f), f);
        }
        double ls = 0;
        double p2p = 0;
        for (JsonNode m : root.get("metrics")) {
            assertTrue(m.has("name") && m.has("title") && m.has("unit") && m.has("parent") && m.has("total"));
            if (m.get("name").asText().equals("mpi_latesender")) {
                ls = m.get("total").asDouble();
            }
            if (m.get("name").asText().equals("mpi_point2point")) {
                p2p = m.get("total").asDouble();
            }
        }
        assertTrue(ls > 0 && p2p >= ls);
        JsonNode cp = root.get("callpaths").get(1);
        assertEquals(cp.get("path").size(), 2);
        assertEquals(cp.get("region").asText(), cp.get("path").get(1).asText());
    }

    @Test
    void anotherSchemaIsRejectedWithTheDocumentName() {
        IOException e = assertThrows(IOException.class, () -> AnalysisJson.read(
                new ByteArrayInputStream("{\"schema\":\"other/1\"}".getBytes()), "x.json"));
        assertTrue(e.getMessage().contains("x.json"));
    }
}
