package dev.straggler.spark;

import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cubex.CubexWriter;
import dev.straggler.patterns.report.TextReport;
import dev.straggler.testdata.Scenarios;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUBE4 file the Spark executors write, row by row, without the driver holding the cube, holds the single-machine
 * engine's file member for member, byte for byte (only the tar headers' times of writing differ), with root causes
 * and without, on shared real traces and on simulator scenarios; the terminal report printed from the sums the
 * driver keeps is the single-machine engine's, character for character.
 */
class StreamedCubeTest {
    @TempDir
    static Path dir;

    private static final AnalysisOptions WITH = AnalysisOptions.defaults().withRootCauses(true);
    private static final AnalysisOptions WITHOUT = AnalysisOptions.defaults().withRootCauses(false);

    private static int files;

    /** Writes both cubes and checks them and the terminal reports; returns the streamed analysis. */
    static AnalysisResult assertSameCube(Path trace, AnalysisOptions options, int partitions) throws IOException {
        return assertSameCube(dir, trace, options, partitions);
    }

    /** As above, writing the files in {@code dir}. */
    static AnalysisResult assertSameCube(Path dir, Path trace, AnalysisOptions options, int partitions)
            throws IOException {
        AnalysisResult local = SparkAnalysisTest.local(trace, options);
        Path expected = dir.resolve("local-" + files + ".cubex");
        Path actual = dir.resolve("spark-" + files++ + ".cubex");
        CubexWriter.write(local.cube(), expected);
        AnalysisResult streamed = SparkAnalysis.runWritingCube(LocalSpark.get(), trace, false, options, partitions,
                actual).result();
        Map<String, String> e = SparkCommandTest.tarMembers(expected);
        Map<String, String> a = SparkCommandTest.tarMembers(actual);
        assertEquals(e.keySet(), a.keySet(), "members");
        for (String member : e.keySet()) {
            assertEquals(e.get(member), a.get(member), member);
        }
        for (boolean all : new boolean[] {false, true}) {
            assertEquals(TextReport.render(local, 100, all), TextReport.render(streamed, 100, all),
                    "terminal report" + (all ? " (--all)" : ""));
        }
        assertEquals(local.warnings(), streamed.warnings());
        assertEquals(local.causes(), streamed.causes(), "delay causes of the most severe instances");
        // nothing is left beside the output
        try (Stream<Path> left = Files.list(dir)) {
            assertFalse(left.anyMatch(p -> p.getFileName().toString().contains(".rows-")), "row files removed");
        }
        return streamed;
    }

    static Path shared(String name) throws IOException {
        return SparkAnalysisTest.sharedTraces().stream().filter(p -> p.toString().contains(name)).findFirst()
                .orElseThrow();
    }

    @TestFactory
    Stream<DynamicTest> sharedTracesGiveTheSingleMachineCubeFile() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : new String[] {"npb-mg.S-4", "lulesh-s8-8"}) {
            Path trace = shared(name);
            tests.add(DynamicTest.dynamicTest(name + " with root causes", () -> assertSameCube(trace, WITH, 2)));
            tests.add(DynamicTest.dynamicTest(name + " without", () -> assertSameCube(trace, WITHOUT, 3)));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> simulatorScenariosGiveTheSingleMachineCubeFile() {
        return Stream.of("imbalance-at-allreduce", "late-sender-chain").flatMap(name -> Stream.of(
                DynamicTest.dynamicTest(name + " with root causes", () -> assertSameCube(
                        SparkAnalysisTest.generate(dir, Scenarios.byName(name), 6), WITH, 2)),
                DynamicTest.dynamicTest(name + " without", () -> assertSameCube(
                        SparkAnalysisTest.generate(dir, Scenarios.byName(name), 6), WITHOUT, 4))));
    }

    @Test
    void aTraceWithoutMpiGivesTheSingleMachineCubeFile() throws IOException {
        assertSameCube(SparkAnalysisTest.generate(dir, Scenarios.byName("deep-calltree"), 3), WITH, 2);
    }

    @Test
    void theFileDoesNotDependOnHowLocationsAndRowsAreSpread() throws IOException {
        // 1: one location partition and one row partition; 5: more partitions than tasks run at once
        Path trace = shared("npb-mg.S-4");
        for (int partitions : new int[] {1, 5}) {
            assertSameCube(trace, WITH, partitions);
        }
    }

    @Test
    void rootCausesThatCannotBeComputedAreSaidInTheFileAsOnOneMachine() throws IOException {
        Path trace = dir.resolve("impossible.txt");
        Files.writeString(trace, dev.straggler.testdata.HandTraces.IMPOSSIBLE_ORDER);
        AnalysisResult r = assertSameCube(trace, WITH, 2);
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("root causes not computed")), r.warnings().toString());
    }

    @Test
    void theDriverHoldsNoRowOfTheCube() throws IOException {
        AnalysisResult r = assertSameCube(shared("npb-mg.S-4"), WITH, 2);
        // the cube the driver returns answers the report's sums; a row it was never given is not made up as zeros
        int main = r.cube().childCallPaths(-1).get(0);
        assertTrue(r.cube().sumOverLocations(MetricTree.TIME, main) > 0);
        assertThrows(UnsupportedOperationException.class, () -> r.cube().rowOrNull(MetricTree.TIME, main));
        assertThrows(UnsupportedOperationException.class, () -> r.cube().get(MetricTree.TIME, main, 0));
    }
}
