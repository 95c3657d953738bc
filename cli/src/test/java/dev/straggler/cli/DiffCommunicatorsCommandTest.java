package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The KOJAK paper's GYRO comparison (reference §9.2) on the simulator's GYRO-like family: 2048 work units divide
 * evenly over 128 ranks and not over 192, so the extra waiting at 192 is Wait at N x N in the MPI_Alltoall of the
 * sub-communicators of 16; its amount is the family's closed form.
 */
class DiffCommunicatorsCommandTest {
    @TempDir
    Path tmp;

    @Test
    void diffOf192Against128RanksNamesTheCommunicatorsOfSixteen() throws Exception {
        assertEquals(0, run("generate", "gyro-like", "-n", "128,192", "-o", tmp.toString(), "-q").code());
        Path json = tmp.resolve("d.json");
        Run r = run("diff", tmp.resolve("gyro-like.p192.r0").toString(), tmp.resolve("gyro-like.p128.r0").toString(),
                "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("waiting grew most in communicators of 16 processes"), r.out());
        assertTrue(r.out().contains("100.0 % of the gross change"), r.out());

        MemoryTrace t = new MemoryTrace("gyro");
        ExpectedSeverities e = Scenarios.byName("gyro-like").generate(ScenarioParams.of(192), t).expected();
        double expected = e.entries().stream().filter(x -> x.metric().equals("mpi_wait_nxn")
                && x.callpath().get(x.callpath().size() - 1).equals("MPI_Alltoall"))
                .mapToDouble(ExpectedSeverities.Entry::value).sum();
        JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("communicatorSizes");
        assertEquals(1, rows.size(), rows.toString());
        assertEquals(16, rows.get(0).get("size").asInt());
        assertEquals(12, rows.get(0).get("communicatorsA").asInt());
        assertEquals(expected, rows.get(0).get("change").asDouble(), 1e-9);
    }
}
