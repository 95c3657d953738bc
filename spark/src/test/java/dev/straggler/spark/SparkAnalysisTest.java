package dev.straggler.spark;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Spark engine gives the single-machine engine's result value for value — every metric, call path and
 * location, the summary, the most severe instances, the warnings — on the shared real traces, on every simulator
 * scenario, and for any number of partitions.
 */
class SparkAnalysisTest {
    private static final AnalysisOptions OPTIONS = AnalysisOptions.defaults().withRootCauses(false);

    @TempDir
    static Path dir;

    static AnalysisResult local(Path trace) throws IOException {
        return local(trace, OPTIONS);
    }

    static AnalysisResult local(Path trace, AnalysisOptions options) throws IOException {
        try (TraceSource s = Traces.open(trace)) {
            return Analysis.run(s, options);
        }
    }

    static AnalysisResult spark(Path trace, int partitions) throws IOException {
        return spark(trace, partitions, OPTIONS);
    }

    static AnalysisResult spark(Path trace, int partitions, AnalysisOptions options) throws IOException {
        return SparkAnalysis.run(LocalSpark.get(), trace, false, options, partitions);
    }

    static List<Path> sharedTraces() throws IOException {
        String shared = System.getProperty("straggler.shared");
        Path traces = shared == null ? null : Path.of(shared, "traces");
        Assumptions.assumeTrue(traces != null && Files.isDirectory(traces),
                "shared traces not found (../shared/traces beside the checkout)");
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(traces, 3)) {
            s.filter(p -> p.getFileName().toString().equals("traces.otf2")).sorted().forEach(out::add);
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everySharedTraceGivesTheSingleMachineResult() throws IOException {
        // the hybrid MPI+OpenMP traces included: their threads get the OpenMP level as on one machine
        return sharedTraces().stream().map(t -> DynamicTest.dynamicTest(t.getParent().getFileName().toString(),
                () -> Results.assertSame(local(t), spark(t, 3))));
    }

    /** True for a trace with OpenMP regions, whose root causes the Spark engine leaves to the single-machine one. */
    static boolean hasOpenMp(Path trace) throws IOException {
        try (TraceSource s = Traces.open(trace, false)) {
            return SparkAnalysis.hasOpenMp(s.definitions());
        }
    }

    @TestFactory
    Stream<DynamicTest> everySimulatorScenarioGivesTheSingleMachineResult() {
        return Scenarios.all().stream().filter(s -> !s.scalingFamily()).map(s -> DynamicTest.dynamicTest(s.name(),
                () -> {
                    Path store = generate(s, Math.max(6, s.minRanks()));
                    Results.assertSame(local(store), spark(store, 4));
                }));
    }

    @Test
    void theResultDoesNotDependOnThePartitionCount() throws IOException {
        Path trace = sharedTraces().stream().filter(p -> p.toString().contains("npb-mg.S-16")).findFirst()
                .orElseThrow();
        AnalysisResult reference = local(trace);
        for (int partitions : new int[] {1, 2, 5, 16}) {
            Results.assertSame(reference, spark(trace, partitions));
        }
    }

    @Test
    void messagesMatchAcrossBlockEdges() throws IOException {
        // blocks of 3 records: most envelopes span many blocks, and their last blocks are partly filled
        for (String name : new String[] {"npb-cg.S-4", "lulesh-s8-8"}) {
            Path trace = sharedTraces().stream().filter(p -> p.toString().contains(name)).findFirst().orElseThrow();
            Results.assertSame(local(trace), SparkAnalysis.run(LocalSpark.get(), trace, false, OPTIONS, 3, 3));
        }
    }

    @Test
    void collectivesMatchAcrossChunkEdges() throws IOException {
        // 9,000 Allreduce instances on 16 ranks: chunks of 4,096 instances, the last one partly filled
        Path out = dir.resolve("allreduce-9000x16");
        if (!Files.exists(out)) {
            try (StoreWriter w = StoreWriter.create(out, StoreOptions.defaults())) {
                Scenarios.byName("imbalance-at-allreduce").generate(ScenarioParams.of(16).with("reps", "9000"), w);
            }
        }
        assertTrue(9000 > 2 * dev.straggler.patterns.waitstate.CollectiveChunk.instancesPerChunk(16));
        Results.assertSame(local(out), spark(out, 5));
    }

    @Test
    void aScalingFamilyAtManyRanksGivesTheSingleMachineResult() throws IOException {
        Path store = generate(Scenarios.byName("gyro-like"), 64);
        Results.assertSame(local(store), spark(store, 7));
    }

    @Test
    void aMissingTraceIsReportedByPath() {
        IOException e = assertThrows(IOException.class, () -> spark(dir.resolve("absent.otf2"), 2));
        assertTrue(e.getMessage().contains("absent.otf2"), e.getMessage());
    }

    @Test
    void aTraceWithoutMpiSaysSoAsOnOneMachine() throws IOException {
        Path trace = generate(Scenarios.byName("deep-calltree"), 3);
        AnalysisResult r = spark(trace, 2);
        Results.assertSame(local(trace), r);
        assertEquals(local(trace).warnings(), r.warnings());
    }

    static Path generate(Scenario s, int ranks) throws IOException {
        return generate(dir, s, ranks);
    }

    static Path generate(Path dir, Scenario s, int ranks) throws IOException {
        Path out = dir.resolve(s.name() + "-" + ranks);
        if (!Files.exists(out)) {
            try (StoreWriter w = StoreWriter.create(out, StoreOptions.defaults())) {
                s.generate(ScenarioParams.of(ranks), w);
            }
        }
        return out;
    }
}
