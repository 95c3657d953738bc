package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import dev.straggler.patterns.reduce.FilterFiles;
import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.filter.RegionFilter;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code straggler study} on the GYRO-like family at p = 32, 64, 128, 192 (2048 work units dealt to ranks,
 * sub-communicators of 16): only 192 does not divide the work, so only its run waits, in Wait at N×N of the
 * transpose inside each of its 12 sub-communicators, caused by the extra units of nl_compute. The expected values
 * come from the scenario's closed form.
 */
class StudyCommandTest {
    @TempDir
    static Path tmp;
    static Run result;
    static JsonNode doc;
    static Path out;

    @BeforeAll
    static void study() throws Exception {
        Path runs = tmp.resolve("runs");
        Run g = run("generate", "gyro-like", "-n", "32,64,128,192", "-o", runs.toString(), "-q");
        assertEquals(0, g.code(), g.err());
        out = tmp.resolve("study");
        List<String> args = new ArrayList<>(List.of("study", "-o", out.toString(), "-q"));
        // given largest first: the study orders runs by process count itself
        for (int p : new int[]{192, 32, 128, 64}) {
            args.add(runs.resolve("gyro-like.p" + p + ".r0").toString());
        }
        result = run(args.toArray(String[]::new));
        assertEquals(0, result.code(), result.err());
        doc = new ObjectMapper().readTree(out.resolve("study.json").toFile());
    }

    private static double expectedTransposeWait(int p) throws java.io.IOException {
        ExpectedSeverities e = Scenarios.byName("gyro-like").generate(ScenarioParams.of(p), new MemoryTrace("gyro")).expected();
        return e.entries().stream().filter(x -> x.metric().equals("mpi_wait_nxn")
                        && x.callpath().get(x.callpath().size() - 1).equals("MPI_Alltoall"))
                .mapToDouble(ExpectedSeverities.Entry::value).sum();
    }

    @Test
    void runsAreOrderedByProcessCountAndOnlyTheRunThatDoesNotDivideTheWorkWaits() throws Exception {
        JsonNode runs = doc.get("runs");
        assertEquals(4, runs.size());
        int[] p = {32, 64, 128, 192};
        for (int i = 0; i < 4; i++) {
            assertEquals(p[i], runs.get(i).get("processes").asInt());
        }
        for (int i = 0; i < 3; i++) {
            assertFalse(runs.get(i).has("largestWaitState"), runs.get(i).toString());
        }
        assertEquals("Wait at N\u00d7N", runs.get(3).get("largestWaitState").asText());
        assertEquals(expectedTransposeWait(192), runs.get(3).get("largestWaitSeconds").asDouble(), 1e-9);
    }

    @Test
    void growthNamesWaitAtNxNInTheTransposeAndTheCommunicatorsOfSixteen() throws Exception {
        JsonNode growth = doc.get("growth");
        double expected = expectedTransposeWait(192);
        assertTrue(expected > 0);
        JsonNode sizes = growth.get("communicatorSizes");
        assertEquals(1, sizes.size(), sizes.toString());
        assertEquals(16, sizes.get(0).get("size").asInt());
        assertEquals(expected, sizes.get(0).get("change").asDouble(), 1e-9);
        assertTrue(result.out().contains("Wait at N x N at gyro-like/main/timestep/transpose/MPI_Alltoall"), result.out());
        assertTrue(result.out().contains("waiting grew most in communicators of 16 processes"), result.out());
    }

    @Test
    void popTableHeadsTheStudyWithOnlyTheLargestRunImbalanced() {
        JsonNode pop = doc.get("pop").get("runs");
        assertEquals(4, pop.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(1.0, pop.get(i).get("loadBalance").asDouble(), 1e-12, "p divides the 2048 work units");
        }
        assertTrue(pop.get(3).get("loadBalance").asDouble() < 1, pop.get(3).toString());
        assertTrue(result.out().indexOf("POP efficiencies") < result.out().indexOf("Run "), result.out());
    }

    @Test
    void causeOfTheLargestRunsWaitingIsTheExtraComputeWork() {
        String cause = doc.get("runs").get(3).get("cause").asText();
        assertTrue(cause.startsWith("100.0 % of all Wait at N\u00d7N waiting"), cause);
        assertTrue(cause.contains("nl_compute"), cause);
        assertTrue(result.out().contains("Why, in gyro-like.p192.r0: 100.0 % of all Wait at N\u00d7N"), result.out());
    }

    @Test
    void modelsPredictTheNextRunAtTwiceTheLargest() {
        JsonNode model = doc.get("model");
        assertEquals(384, model.get("medya").get("predictions").get(0).get("tasks").asInt());
        assertEquals(384, doc.get("includeList").get("nextProcesses").asInt());
        // the family's time per process shrinks with p, so the prediction lies below the largest run's
        double at384 = model.get("medya").get("predictions").get(0).get("total").asDouble();
        double at192 = doc.get("runs").get(3).get("timePerProcess").asDouble();
        assertTrue(at384 > 0 && at384 < at192, at384 + " vs " + at192);
    }

    @Test
    void includeListKeepsMpiItsCallersAndTheFunctionThatCausesTheWaiting() throws Exception {
        Path file = out.resolve("next-run.filter");
        RegionFilter f = FilterFiles.read(file);
        assertFalse(f.excludes(new Region(0, "MPI_Alltoall", "MPI_Alltoall", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ALL)));
        // transpose calls MPI_Alltoall: on a path to communication, it is kept (the TAU/KOJAK policy)
        assertFalse(f.excludes(Region.function(1, "transpose")));
        // nl_compute never communicates, but it carries all the delay costs: kept so the next trace can say why
        assertFalse(f.excludes(Region.function(2, "nl_compute")));
        assertEquals(0, doc.get("includeList").get("dropped").size());
        JsonNode sizes = doc.get("includeList").get("runs");
        assertEquals(4, sizes.size());
        for (JsonNode r : sizes) {
            assertTrue(r.get("bytesWithList").asLong() <= r.get("bytes").asLong(), r.toString());
        }
    }

    @Test
    void withoutRootCausesTheIncludeListDropsTheFunctionThatNeverCommunicates() throws Exception {
        Path runs = tmp.resolve("runs");
        Path o = tmp.resolve("plain");
        Run r = run("study", "--no-root-causes", "--format", "tau", "-o", o.toString(), "-q",
                runs.resolve("gyro-like.p32.r0").toString(), runs.resolve("gyro-like.p64.r0").toString());
        assertEquals(0, r.code(), r.err());
        RegionFilter f = FilterFiles.read(o.resolve("next-run.tau"));
        assertTrue(f.excludes(Region.function(2, "nl_compute")));
        assertFalse(f.excludes(Region.function(1, "transpose")));
        // two process counts: no Medya fit, and the study says why instead of failing
        assertTrue(r.out().contains("Medya's three coefficients need runs at three or more process counts"), r.out());
        assertTrue(r.out().contains("Root causes not analysed (--no-root-causes)"), r.out());
        // no delay rows without root causes: the correlations are of wait states alone, and say so
        assertTrue(r.out().contains("\nWait states whose share of MPI time grows with p"), r.out());
    }

    /** With root causes the rank-correlation rows include the delays that cause the waiting, and the label says so. */
    @Test
    void theRankCorrelationsSayTheyIncludeTheDelays() {
        assertTrue(result.out().contains("\nWait states and their delays whose share of MPI time grows with p"),
                result.out());
    }

    @Test
    void oneProcessCountIsNotAStudy() {
        Path runs = tmp.resolve("runs");
        Run r = run("study", "-o", tmp.resolve("one").toString(), "-q", runs.resolve("gyro-like.p32.r0").toString(),
                runs.resolve("gyro-like.p32.r0").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("straggler: study needs runs at two or more process counts"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }

    @Test
    void pageRendersEverySectionInChromium() throws Exception {
        String dom = dev.straggler.cli.report.Chromium.dom(out.resolve("study.html"), "");
        for (String id : List.of("pop", "study-runs", "study-growth", "scaling-callsites", "scaling-wait-states", "model",
                "study-causes", "study-communicators", "study-include-list")) {
            assertTrue(dom.contains("id=\"" + id + "\""), id);
        }
        // the scripts ran: the scaling scatter and the model chart have their dots
        assertTrue(dom.contains("class=\"dot\""), "charts drawn");
        assertTrue(dom.contains("12.8 ms"), "the waiting of the p = 192 run is in the tables");
    }
}
