package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The facts pipit's own test suite asserts for its ping-pong OTF2 trace (restated in shared/traces/README.md),
 * reproduced through the command line.
 */
class PipitValuesTest {
    static Path trace;

    @BeforeAll
    static void locate() {
        trace = Path.of(System.getProperty("straggler.shared", "../../shared"), "traces", "pipit-ping-pong", "traces.otf2");
        assumeTrue(Files.isRegularFile(trace), "shared traces not present: " + trace);
    }

    @Test
    void infoCountsMatchPipit() throws Exception {
        CliTest.Run r = run("info", trace.toString(), "--json", "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(120, j.get("events").asLong());
        assertEquals(2, j.get("ranks").asInt());
        assertEquals(2, j.get("locations").asInt());
        assertEquals(16, j.get("eventsByKind").get("MPI_SEND").asLong());
        assertEquals(16, j.get("eventsByKind").get("MPI_RECV").asLong());
        assertEquals(2095197216L, j.get("timerResolution").asLong());
    }

    @Test
    void communicationMatrixMatchesPipit() throws Exception {
        CliTest.Run r = run("comm-matrix", trace.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(8, j.get("messages").get(0).get(1).asLong());
        assertEquals(8, j.get("messages").get(1).get(0).asLong());
        assertEquals(4_177_920L, j.get("bytes").get(0).get(1).asLong());
        assertEquals(4_177_920L, j.get("bytes").get(1).get(0).asLong());
        assertEquals(0, j.get("messages").get(0).get(0).asLong());
        assertEquals(0, j.get("messages").get(1).get(1).asLong());
    }
}
