package dev.straggler.spark;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        try (TraceSource s = Traces.open(trace)) {
            return Analysis.run(s, OPTIONS);
        }
    }

    static AnalysisResult spark(Path trace, int partitions) throws IOException {
        return SparkAnalysis.run(LocalSpark.get(), trace, false, OPTIONS, partitions);
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
        // rank 0 sends after a barrier that rank 1 enters only after receiving: no run can have recorded this
        Path trace = dir.resolve("impossible.txt");
        Files.writeString(trace, """
                straggler-text 1
                clock resolution=1000
                region 0 main
                region 1 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
                region 2 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
                region 3 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
                location 0 rank=0
                location 1 rank=1
                comm 0 MPI_COMM_WORLD members=0,1
                0 0 ENTER main
                0 10 ENTER MPI_Barrier
                0 11 MPI_COLLECTIVE_BEGIN
                0 19 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
                0 20 LEAVE MPI_Barrier
                0 50 ENTER MPI_Send
                0 51 MPI_SEND to=1 comm=0 tag=0 bytes=8
                0 52 LEAVE MPI_Send
                0 100 LEAVE main
                1 0 ENTER main
                1 5 ENTER MPI_Recv
                1 60 MPI_RECV from=0 comm=0 tag=0 bytes=8
                1 61 LEAVE MPI_Recv
                1 70 ENTER MPI_Barrier
                1 71 MPI_COLLECTIVE_BEGIN
                1 79 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
                1 80 LEAVE MPI_Barrier
                1 100 LEAVE main
                """);
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
