package dev.straggler.spark;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.testdata.Scenarios;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The root-cause stage on Spark (delay costs, propagation, critical path and its impact) gives the single-machine
 * engine's result value for value, whichever task holds which location: on every shared real trace (whose
 * single-machine result reproduces Scalasca's), on every simulator scenario, with one task, with tasks that hand
 * costs and collective arrivals to each other, and with more location partitions than tasks can run at once.
 */
class SparkRootCausesTest {
    private static final AnalysisOptions OPTIONS = AnalysisOptions.defaults().withRootCauses(true);

    @TempDir
    static Path dir;

    static AnalysisResult local(Path trace) throws IOException {
        return SparkAnalysisTest.local(trace, OPTIONS);
    }

    static AnalysisResult spark(Path trace, int partitions) throws IOException {
        return SparkAnalysisTest.spark(trace, partitions, OPTIONS);
    }

    /**
     * A root-cause stage that cannot fit in the executors' heaps (here a budget of 1 KiB in local mode) is not
     * started, nor are the marks read for it: judged from a sample before the read, the wait states are complete, on
     * both ways the driver forms the cube, and the result says why the root causes are missing instead of the job
     * failing in an executor.
     */
    @Test
    void aStageThatCannotFitTheExecutorsKeepsTheWaitStatesAndSaysWhy() throws IOException {
        Path trace = Path.of("..", "samples", "recorded", "stencil", "traces.otf2");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(trace), "no " + trace);
        AnalysisResult full = spark(trace, 2);
        AnalysisOptions tight = OPTIONS.withHeapBudget(1024);
        AnalysisResult collected = SparkAnalysisTest.spark(trace, 2, tight);
        AnalysisResult streamed = SparkAnalysis.runWritingCube(LocalSpark.get(), trace, false, tight, 2,
                dir.resolve("tight.cubex")).result();
        assertTrue(full.cube().total("delay") > 0, "the sample has delays when its root causes fit");
        for (AnalysisResult r : List.of(collected, streamed)) {
            String why = Analysis.rootCausesProblem(r.cube());
            assertTrue(why != null && why.startsWith("they would need about") && why.contains("per executor")
                    && why.contains("projected from a sample of") && why.contains("--no-root-causes"),
                    String.valueOf(why));
            assertFalse(Analysis.rootCausesAnalysed(r.cube()));
            assertEquals(full.cube().total("mpi_latesender"), r.cube().total("mpi_latesender"), 0.0);
            assertEquals(full.cube().total("time"), r.cube().total("time"), 0.0);
        }
    }

    @TestFactory
    Stream<DynamicTest> everySharedTraceGivesTheSingleMachineRootCauses() throws IOException {
        return SparkAnalysisTest.sharedTraces().stream().map(t -> DynamicTest.dynamicTest(
                t.getParent().getFileName().toString(), () -> {
                    AnalysisResult expected = local(t);
                    AnalysisResult actual = spark(t, 2);
                    Results.assertSame(expected, actual);
                    assertEquals(Analysis.rootCausesAnalysed(expected.cube()),
                            Analysis.rootCausesAnalysed(actual.cube()));
                }));
    }

    /**
     * The recorded samples (samples/recorded: Score-P 8.4 traces of our own programs that reproduce Scalasca's values
     * on one machine): many sends between two synchronisation points, the MPI operations and the OpenMP constructs the
     * shared traces lack, Pthreads; Spark gives the single-machine result, root causes and most severe instances'
     * causes included.
     */
    @TestFactory
    Stream<DynamicTest> everyRecordedSampleGivesTheSingleMachineRootCauses() throws IOException {
        Path recorded = Path.of("..", "samples", "recorded");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(recorded), "no " + recorded);
        List<Path> traces;
        try (Stream<Path> dirs = Files.list(recorded)) {
            traces = dirs.map(d -> d.resolve("traces.otf2")).filter(Files::exists).sorted().toList();
        }
        assertFalse(traces.isEmpty(), "no recorded traces in " + recorded);
        return traces.stream().map(t -> DynamicTest.dynamicTest(t.getParent().getFileName().toString(), () -> {
            AnalysisResult expected = local(t);
            AnalysisResult actual = spark(t, 2);
            Results.assertSame(expected, actual);
            assertEquals(expected.causes(), actual.causes());
        }));
    }

    /**
     * The delay behind each of the most severe instances (AnalysisResult#causes: the delaying rank's stretch, its call
     * paths' seconds, the waiting propagated) is the single-machine engine's, bit for bit, also where the delaying
     * location is held by another task than the waiting one: on two real traces and a hybrid one.
     */
    @TestFactory
    Stream<DynamicTest> theMostSevereInstancesGetTheSingleMachineDelayCauses() throws IOException {
        java.util.Set<String> names = java.util.Set.of("npb-bt.S-4", "npb-mg.S-8", "bt-mz.S-2x2");
        return SparkAnalysisTest.sharedTraces().stream()
                .filter(t -> names.contains(t.getParent().getFileName().toString()))
                .map(t -> DynamicTest.dynamicTest(t.getParent().getFileName().toString(), () -> {
                    AnalysisResult expected = local(t);
                    assertFalse(expected.causes().isEmpty(), "the trace has instances with a delay to compare");
                    assertEquals(expected.causes(), spark(t, 2).causes());
                }));
    }

    @TestFactory
    Stream<DynamicTest> everySimulatorScenarioGivesTheSingleMachineRootCauses() {
        return Scenarios.all().stream().filter(s -> !s.scalingFamily()).map(s -> DynamicTest.dynamicTest(s.name(),
                () -> {
                    Path store = SparkAnalysisTest.generate(dir, s, Math.max(6, s.minRanks()));
                    Results.assertSame(local(store), spark(store, 2));
                }));
    }

    @Test
    void rootCausesDoNotDependOnHowLocationsAreSpreadOverTasks() throws IOException {
        // 1: one task holds all; 2: both tasks hand over costs and arrivals; 5: more location partitions than the two
        // tasks that can run at once, regrouped for the replay
        Path trace = SparkAnalysisTest.sharedTraces().stream().filter(p -> p.toString().contains("lulesh"))
                .findFirst().orElseThrow();
        AnalysisResult reference = local(trace);
        assertTrue(reference.cube().total("delay") > 0, "the trace has delay costs to compare");
        for (int partitions : new int[] {1, 2, 5}) {
            Results.assertSame(reference, spark(trace, partitions));
        }
    }

    @Test
    void aScalingFamilyAtManyRanksGivesTheSingleMachineRootCauses() throws IOException {
        Path store = SparkAnalysisTest.generate(dir, Scenarios.byName("gyro-like"), 64);
        Results.assertSame(local(store), spark(store, 2));
    }

    @Test
    void anImpossibleCommunicationOrderKeepsTheWaitStatesAndSaysWhyAsOnOneMachine() throws IOException {
        Path trace = dir.resolve("impossible.txt");
        Files.writeString(trace, dev.straggler.testdata.HandTraces.IMPOSSIBLE_ORDER);
        AnalysisResult expected = local(trace);
        assertTrue(expected.warnings().stream().anyMatch(w -> w.startsWith("root causes not computed")),
                expected.warnings().toString());
        for (int partitions : new int[] {1, 2}) {
            AnalysisResult actual = spark(trace, partitions);
            Results.assertSame(expected, actual);
            assertEquals(expected.warnings(), actual.warnings());
        }
    }
}
