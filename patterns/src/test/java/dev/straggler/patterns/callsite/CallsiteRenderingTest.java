package dev.straggler.patterns.callsite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CallsiteRenderingTest {

    @Test
    void textHasMpiPSectionsAndAnAllRowWithTheCoefficientOfVariation() throws Exception {
        TraceProfile p = CallsiteProfiler.profile(TwoRankTrace.trace());
        String text = CallsiteText.render(p, CallsiteText.Options.defaults());
        assertTrue(text.contains("@--- MPI Time (seconds) "), text);
        assertTrue(text.contains("@--- Callsites: 4 "), text);
        assertTrue(text.contains("@--- Callsite Time statistics (all, milliseconds): 4 "), text);
        // Allreduce All row: 2 calls, 40 ns = 0.000040 ms total, COV 0.71.
        assertTrue(text.lines().anyMatch(l -> l.startsWith("Allreduce") && l.contains(" All ") && l.trim().endsWith("0.71")), text);
        assertTrue(text.contains("@--- Phases (depth 1)"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("solve ") && l.contains("MPI_Send") && l.contains("2048-4095")), text);
    }

    @Test
    void jsonCarriesPerRankRowsAllRowsPhasesAndCommunication() throws Exception {
        TraceProfile p = CallsiteProfiler.profile(TwoRankTrace.trace());
        JsonNode j = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(CallsiteJson.toJson(p)));
        assertEquals(CallsiteJson.SCHEMA, j.get("schema").asText());
        assertEquals(2, j.get("ranks").asInt());
        JsonNode send = null;
        for (JsonNode c : j.get("callsites")) {
            if (c.get("call").asText().equals("MPI_Send")) {
                send = c;
            }
        }
        assertEquals(2, send.get("all").get("count").asInt());
        assertEquals(14e-9, send.get("perRank").get(0).get("total").asDouble(), 1e-18);
        assertEquals("solve", send.get("frames").get(0).get("function").asText());
        assertEquals(4, j.get("phases").get("phases").size());
        assertEquals(6, j.get("communication").size());
    }
}
