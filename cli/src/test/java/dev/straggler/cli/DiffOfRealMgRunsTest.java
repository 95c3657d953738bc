package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code diff} of the real NPB MG traces at 16 and 8 ranks (shared traces; skipped when absent): the run the issue
 * was found on. Its world communicators have sizes 16 and 8, so the waiting of one size vanishes and another's
 * appears: the two opposite changes must not both be "100 %".
 */
class DiffOfRealMgRunsTest {
    @TempDir
    Path tmp;

    @Test
    void mgSixteenAgainstEightComparesTheWholeRunWithHonestShares() throws Exception {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path mg16 = Path.of(shared, "traces", "real", "npb-mg.S-16");
        Path mg8 = Path.of(shared, "traces", "real", "npb-mg.S-8");
        Assumptions.assumeTrue(Files.isDirectory(mg16) && Files.isDirectory(mg8), "the real MG traces are absent");
        Path json = tmp.resolve("d.json");
        Path html = tmp.resolve("d.html");
        Run r = run("diff", mg16.toString(), mg8.toString(), "--json", json.toString(), "--html", html.toString(), "-q");
        assertEquals(0, r.code(), r.err());

        assertTrue(r.out().contains("note: the runs have different numbers of processes (16 vs 8), so the difference "
                + "is shown for the whole run (summed over processes) and per call path"), r.out());
        assertFalse(DiffAcrossProcessCountsCommandTest.SIGNED_ZERO.matcher(r.out()).find(), r.out());
        String page = Files.readString(html);
        assertFalse(page.contains("1 locations"), "the collapsed difference is no location");
        assertTrue(DiffAcrossProcessCountsCommandTest.data(page, "explorer").get("collapsed").asBoolean());

        // shares of the gross change: each row's change over the sum of the changes' magnitudes, signed
        JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("communicatorSizes");
        assertTrue(rows.size() >= 2, rows.toString());
        double gross = 0;
        for (JsonNode row : rows) {
            gross += Math.abs(row.get("waitingA").asDouble() - row.get("waitingB").asDouble());
        }
        for (JsonNode row : rows) {
            double share = row.get("shareOfGrossChangePercent").asDouble();
            assertTrue(share >= -100 && share <= 100, row.toString());
            assertEquals(100 * (row.get("waitingA").asDouble() - row.get("waitingB").asDouble()) / gross, share, 1e-9,
                    row.toString());
        }
    }
}
