package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CallsitesCommandTest {
    @TempDir
    Path tmp;

    @Test
    void sampleCallsitesHaveTheTimesWrittenInTheTrace() throws Exception {
        Path json = tmp.resolve("c.json");
        Run r = run("callsites", CliTest.SAMPLE.toString(), "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("@--- Aggregate Time"), r.out());
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, d.get("ranks").asInt());
        // rank 1 receives from 2.000 to 7.200 ms; rank 0 sends 4096 bytes from 7.000 to 7.100 ms; both ranks call MPI_Barrier
        assertEquals(0.0052, callsite(d, "MPI_Recv").get("total").asDouble(), 1e-12);
        assertEquals(4096, callsite(d, "MPI_Send").get("bytes").asDouble(), 0.0);
        assertEquals(2, callsite(d, "MPI_Barrier").get("count").asInt());
    }

    @Test
    void generatedLateSenderCountsEveryMessageOfTheScenario() throws Exception {
        Path trace = tmp.resolve("ls");
        // 4 ranks: 2 senders and 2 receivers, 5 repetitions of 100-byte messages, each receive waiting extra = 0.05 s
        assertEquals(0, run("generate", "late-sender", "-n", "4", "-p", "reps=5", "-p", "bytes=100", "-p", "mode=send",
                "-o", trace.toString(), "-q").code());
        Path json = tmp.resolve("c.json");
        Run r = run("callsites", trace.toString(), "--json", json.toString(), "--no-per-rank", "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        long calls = 0;
        double bytes = 0;
        for (JsonNode c : d.get("callsites")) {
            calls += c.get("all").get("count").asLong();
            bytes += c.get("all").get("bytes").asDouble();
        }
        assertEquals(2 * 5 + 2 * 5, calls);
        assertEquals(2 * 5 * 100, bytes, 0.0);
        assertEquals(2 * 5 * 0.05, d.get("mpiTimeTotal").asDouble(), 1e-3);
    }

    @Test
    void mpipReportIsReadAndPrintedInMpipsLayout() throws Exception {
        Path report = Path.of("..", "patterns", "src", "test", "resources", "dev", "straggler", "patterns", "mpip", "sample-k2.mpiP");
        Path json = tmp.resolve("m.json");
        Run r = run("callsites", report.toString(), "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode d = new ObjectMapper().readTree(json.toFile());
        // the report's Aggregate Time section: Waitall 2.53e+03 ms in 400 calls, Isend 805 ms in 4000 calls; totals
        // are rebuilt from per-rank count x mean, which mpiP prints with three significant digits, hence the tolerance
        assertEquals(4, d.get("ranks").asInt());
        assertEquals(400, callsite(d, "Waitall").get("count").asInt());
        assertEquals(2.53, callsite(d, "Waitall").get("total").asDouble(), 0.005);
        assertEquals(4000, callsite(d, "Isend").get("count").asInt());
        assertEquals(0.805, callsite(d, "Isend").get("total").asDouble(), 0.002);
    }

    private static JsonNode callsite(JsonNode d, String call) {
        for (JsonNode c : d.get("callsites")) {
            if (c.get("call").asText().equals(call)) {
                return c.get("all");
            }
        }
        throw new AssertionError("no callsite " + call);
    }
}
