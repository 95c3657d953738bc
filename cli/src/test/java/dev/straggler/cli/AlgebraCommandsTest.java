package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * diff, merge and mean on the hand-written Late Sender sample (a 5 ms Late Sender, docs in the file) and a copy in
 * which rank 0 sends 1 ms earlier, so that its Late Sender is 4 ms and every other time metric is unchanged.
 */
class AlgebraCommandsTest {
    static final double LATE_SENDER_A = 0.005;
    static final double LATE_SENDER_B = 0.004;

    @TempDir
    Path tmp;
    Path a;
    Path b;

    @BeforeEach
    void earlierSender() throws Exception {
        a = CliTest.SAMPLE;
        b = tmp.resolve("earlier.txt");
        String text = Files.readString(a)
                .replace("0 7000 LEAVE compute", "0 6000 LEAVE compute")
                .replace("0 7000 ENTER MPI_Send", "0 6000 ENTER MPI_Send")
                .replace("0 7010 MPI_SEND", "0 6010 MPI_SEND")
                .replace("0 7100 LEAVE MPI_Send", "0 6100 LEAVE MPI_Send")
                .replace("0 7100 ENTER compute", "0 6100 ENTER compute");
        Files.writeString(b, text);
    }

    @Test
    void diffOfAnExperimentWithItselfIsZeroEverywhere() throws Exception {
        Path json = tmp.resolve("self.json");
        Run r = run("diff", a.toString(), a.toString(), "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        assertEquals("straggler.diff/1", d.get("schema").asText());
        assertEquals(0.018, d.get("totalTime").get("a").asDouble(), 1e-12);
        for (JsonNode m : d.get("metrics")) {
            assertEquals(0.0, m.get("change").get("diff").asDouble(), 0.0, m.get("metric").asText());
        }
    }

    @Test
    void diffAttributesTheMillisecondToTheLateSenderInTheReceive() throws Exception {
        Path json = tmp.resolve("d.json");
        Path cube = tmp.resolve("d.cubex");
        Path html = tmp.resolve("d.html");
        Run r = run("diff", a.toString(), b.toString(), "--json", json.toString(), "--cube", cube.toString(),
                "--html", html.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("main/MPI_Recv"), r.out());
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        assertEquals(0.0, d.get("totalTime").get("diff").asDouble(), 1e-12);
        JsonNode ls = metric(d, "mpi_latesender");
        assertEquals(LATE_SENDER_A, ls.get("a").asDouble(), 1e-12);
        assertEquals(LATE_SENDER_B, ls.get("b").asDouble(), 1e-12);
        SeverityCube diff = CubexReader.read(cube);
        assertEquals(LATE_SENDER_A - LATE_SENDER_B, diff.total("mpi_latesender"), 1e-12);
        assertEquals(0.0, diff.total("time"), 1e-12);
        assertTrue(Files.readString(html).contains("<html"));
    }

    @Test
    void meanOfTwoRunsLiesHalfwayAndMergeKeepsTheLaterOperand() throws Exception {
        Path mean = tmp.resolve("mean.cubex");
        Path merged = tmp.resolve("merged.cubex");
        assertEquals(0, run("mean", a.toString(), b.toString(), "-o", mean.toString(), "-q").code());
        assertEquals(0, run("merge", a.toString(), b.toString(), "-o", merged.toString(), "-q").code());
        assertEquals((LATE_SENDER_A + LATE_SENDER_B) / 2, CubexReader.read(mean).total("mpi_latesender"), 1e-12);
        assertEquals(0.018, CubexReader.read(mean).total("time"), 1e-12);
        assertEquals(LATE_SENDER_B, CubexReader.read(merged).total("mpi_latesender"), 1e-12);
    }

    @Test
    void meanNeedsAnOutput() {
        assertEquals(2, run("mean", a.toString(), b.toString()).code());
    }

    private static JsonNode metric(JsonNode diff, String name) {
        for (JsonNode m : diff.get("metrics")) {
            if (m.get("metric").asText().equals(name)) {
                return m.get("change");
            }
        }
        throw new AssertionError("no metric " + name);
    }
}
