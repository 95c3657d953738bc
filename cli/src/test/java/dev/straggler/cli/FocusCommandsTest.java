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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --focus} on NPB MG class S (shared real traces), whose short runs spend 92-97 % of their time in MPI_Init:
 * what the default focus leaves out, that every command says which focus it used, and that one study page uses one
 * definition of computation and MPI everywhere.
 */
class FocusCommandsTest {
    @TempDir
    static Path tmp;

    private static Path mg(int p) {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path dir = Path.of(shared, "traces", "real", "npb-mg.S-" + p);
        Assumptions.assumeTrue(Files.isDirectory(dir), dir + " is absent: real-trace checks skipped");
        return dir;
    }

    @Test
    void popSaysWhichFocusItUsedAndHowMuchItLeftOut() throws Exception {
        Path json = tmp.resolve("pop.json");
        Path html = tmp.resolve("pop.html");
        Run r = run("pop", mg(16).toString(), "--json", json.toString(), "--html", html.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(html).contains("Focus: the run without MPI_Init/MPI_Finalize (left out: 92.1 %"),
                "the page says it too");
        assertTrue(r.out().contains("Focus: the run without MPI_Init/MPI_Finalize (left out: 92.1 %"), r.out());
        JsonNode run = new ObjectMapper().readTree(json.toFile()).get("runs").get(0);
        assertEquals("the run without MPI_Init/MPI_Finalize", run.get("focus").asText());
        assertTrue(run.get("parallelEfficiency").asDouble() > 0.05, "MPI_Init no longer makes it 0.5 %");
    }

    @Test
    void focusAllKeepsTheAdvisorsWholeRunNumbers() throws Exception {
        Path json = tmp.resolve("pop-all.json");
        Run r = run("pop", mg(16).toString(), "--focus", "all", "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Focus: the whole run"), r.out());
        // Cube's Advisor on the root call path of Scalasca's cube of this trace: PE 0.5 %, TE 4.4 %
        JsonNode run = new ObjectMapper().readTree(json.toFile()).get("runs").get(0);
        assertEquals(0.005, run.get("parallelEfficiency").asDouble(), 0.0005);
        assertEquals(0.044, run.get("transferEfficiency").asDouble(), 0.0005);
    }

    @Test
    void analyzePopLineNamesItsFocus() {
        Run r = run("analyze", mg(4).toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("POP (the run without MPI_Init/MPI_Finalize, "), r.out());
    }

    /** NPB BT-MZ on 2 ranks x 2 threads (shared hybrid trace): 30 % of its execution is OpenMP time, which POP leaves out. */
    @Test
    void analyzePopLineOfAHybridRunSaysItCoversMpiOnly() {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path dir = Path.of(shared, "traces", "hybrid", "bt-mz.S-2x2");
        Assumptions.assumeTrue(Files.isDirectory(dir), dir + " is absent: hybrid check skipped");
        Run r = run("analyze", dir.toString(), "-q", "--width", "200");
        assertEquals(0, r.code(), r.err());
        String pop = r.out().lines().filter(l -> l.startsWith("POP")).findFirst().orElseThrow();
        assertTrue(pop.contains("MPI only: OpenMP and other runtime time and idle threads count as neither "
                + "computation nor transfer"), pop);
        assertTrue(r.out().contains("POP hybrid (the same part of the run, 2 processes, 4 threads): hybrid parallel "
                + "efficiency"), r.out());
        Run table = run("pop", dir.toString());
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("Hybrid MPI+OpenMP (POP's multiplicative model")
                && table.out().contains("  OpenMP parallel efficiency"), table.out());
    }

    @Test
    void aFocusNamingNoCallPathIsOneLineAndNonZeroExit() {
        Run r = run("pop", mg(4).toString(), "--focus", "mg_mpi/nosuch", "-q");
        assertNotEquals(0, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("--focus 'mg_mpi/nosuch' names no call path"), r.err());
    }

    @Test
    void aCallPathFocusCoversOnlyItsSubtree() throws Exception {
        Path json = tmp.resolve("pop-mg3p.json");
        Run r = run("pop", mg(4).toString(), "--focus", "mg_mpi/mg3p", "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Focus: call path mg_mpi/mg3p"), r.out());
        assertTrue(r.out().contains("not available for a call-path focus"), r.out());
    }

    /**
     * The study of MG 2-16: the runs table, the Medya points and the POP table are computed from one definition, so
     * the runs table's computation share times its time per process is the Medya model's measured computation, and
     * neither counts MPI_Init.
     */
    @Test
    void studyUsesOneDefinitionOfComputationAndMpiOnEveryTableAndCurve() throws Exception {
        Path out = tmp.resolve("study");
        Run r = run("study", mg(2).toString(), mg(4).toString(), mg(8).toString(), mg(16).toString(), "-o",
                out.toString(), "--no-root-causes", "-q");
        assertEquals(0, r.code(), r.err());
        JsonNode doc = new ObjectMapper().readTree(out.resolve("study.json").toFile());
        assertEquals("the run without MPI_Init/MPI_Finalize", doc.get("focus").asText());
        JsonNode runs = doc.get("runs");
        JsonNode points = doc.get("model").get("medya").get("points");
        for (int i = 0; i < runs.size(); i++) {
            JsonNode run = runs.get(i);
            double time = run.get("timePerProcess").asDouble();
            assertEquals(time * run.get("computationShare").asDouble(), points.get(i).get("computation").asDouble(),
                    1e-9 * time, "computation of " + run.get("label").asText());
            assertEquals(time * run.get("mpiShare").asDouble(), points.get(i).get("communication").asDouble(),
                    1e-9 * time, "MPI of " + run.get("label").asText());
            assertTrue(run.get("outsideFocusShare").asDouble() > 0.9, "MPI_Init and MPI_Finalize: over 90 %");
        }
        // computation is a small share of MG's time in the focus; the study must not say the opposite
        assertTrue(r.out().contains("MPI overtakes computation") || r.out().contains("MPI already takes"), r.out());
        assertFalse(r.out().contains("communication does not overtake"), r.out());
        // a model the JSON flags as turning over beyond the runs is never shown growing without that flag
        java.util.Set<String> turning = new java.util.HashSet<>();
        for (JsonNode m : doc.get("model").get("models")) {
            if (m.hasNonNull("turnOver")) {
                turning.add(m.get("metric").asText() + (m.get("callPath").isEmpty() ? "" : " @ "));
            }
        }
        String growing = r.out().substring(r.out().indexOf("Normal-form models growing most"));
        growing = growing.substring(0, growing.indexOf("\n\n") < 0 ? growing.length() : growing.indexOf("\n\n"));
        for (String line : growing.lines().skip(1).toList()) {
            for (String t : turning) {
                if (!t.endsWith(" @ ") && line.contains("  " + t + " = ")) {
                    assertTrue(line.contains("turns over"), line);
                }
            }
        }
        boolean initSeries = false;
        for (JsonNode m : doc.get("model").get("models")) {
            initSeries |= m.get("metric").asText().equals("init_finalize");
        }
        assertTrue(initSeries, "MPI_Init/MPI_Finalize as a series of their own");
    }
}
