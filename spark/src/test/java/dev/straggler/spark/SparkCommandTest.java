package dev.straggler.spark;

import dev.straggler.cli.Main;
import dev.straggler.testdata.Scenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code straggler analyze --engine spark}: the same outputs as the single-machine command, byte for byte. */
class SparkCommandTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static synchronized Run run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code = Main.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void terminalReportJsonCubeCsvAndHtmlEqualTheLocalEngines() throws IOException {
        LocalSpark.get(); // the engine uses the running session and leaves it running
        Path trace = SparkAnalysisTest.generate(dir, Scenarios.byName("imbalance-delay-sends"), 8);
        Run local = run("analyze", trace.toString(), "--quiet", "--json", dir.resolve("l.json").toString(),
                "--cube", dir.resolve("l.cubex").toString(), "--csv", dir.resolve("l.csv").toString(),
                "--html", dir.resolve("l.html").toString());
        Run spark = run("analyze", trace.toString(), "--quiet", "--engine", "spark", "--partitions", "3",
                "--json", dir.resolve("s.json").toString(), "--cube", dir.resolve("s.cubex").toString(),
                "--csv", dir.resolve("s.csv").toString(), "--html", dir.resolve("s.html").toString());
        assertEquals(0, local.code(), local.err());
        assertEquals(0, spark.code(), spark.err());
        assertEquals(local.out().replace("l.", "s."), spark.out());
        assertArrayEquals(Files.readAllBytes(dir.resolve("l.json")), Files.readAllBytes(dir.resolve("s.json")));
        // the cube archives differ only in their tar headers' time of writing: compare what they hold
        assertEquals(tarMembers(dir.resolve("l.cubex")), tarMembers(dir.resolve("s.cubex")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("l.csv")), Files.readAllBytes(dir.resolve("s.csv")));
        // the HTML report, communication matrix included (counted by Spark tasks, not by the driver)
        assertArrayEquals(Files.readAllBytes(dir.resolve("l.html")), Files.readAllBytes(dir.resolve("s.html")));
    }

    /** Each member of a tar archive, name and contents, without the headers' times. */
    static java.util.Map<String, String> tarMembers(Path tar) throws IOException {
        byte[] b = Files.readAllBytes(tar);
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        for (int at = 0; at + 512 <= b.length && b[at] != 0; ) {
            String name = new String(b, at, 100, StandardCharsets.US_ASCII).replace("\0", "");
            long size = Long.parseLong(new String(b, at + 124, 12, StandardCharsets.US_ASCII).replace("\0", "").trim(), 8);
            out.put(name, java.util.HexFormat.of().formatHex(b, at + 512, at + 512 + (int) size));
            at += 512 + (int) ((size + 511) / 512 * 512);
        }
        return out;
    }

    /** A copy of a shared trace with the given event files cut in half. */
    private Path damagedTrace(String... cuts) throws IOException {
        Path src = SparkAnalysisTest.sharedTraces().stream().filter(p -> p.toString().contains("npb-mg.S-4"))
                .findFirst().orElseThrow().getParent();
        Path copy = dir.resolve("damaged-" + cuts.length);
        try (java.util.stream.Stream<Path> files = Files.walk(src)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path to = copy.resolve(src.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        for (String cut : cuts) {
            Path evt = copy.resolve(cut);
            byte[] b = Files.readAllBytes(evt);
            Files.write(evt, java.util.Arrays.copyOf(b, b.length / 2));
        }
        return copy.resolve("traces.otf2");
    }

    private static String stragglerLines(String err) {
        return err.lines().filter(l -> l.startsWith("straggler:") || l.startsWith("  "))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    @Test
    void aDamagedTraceFailsWithTheLocalEnginesOneLine() throws IOException {
        LocalSpark.get();
        Path trace = damagedTrace("traces/1.evt");
        Run local = run("analyze", trace.toString(), "--quiet");
        Run spark = run("analyze", trace.toString(), "--quiet", "--engine", "spark");
        assertEquals(1, local.code());
        assertEquals(1, spark.code());
        assertEquals(stragglerLines(local.err()), stragglerLines(spark.err()));
        assertTrue(spark.err().contains("location 1 (rank 1)"), spark.err());
    }

    @Test
    void aLenientSparkRunSaysWhatItSkippedAsTheLocalOneDoes() throws IOException {
        LocalSpark.get();
        Path trace = damagedTrace("traces/1.evt", "traces/3.evt");
        Run local = run("analyze", trace.toString(), "--quiet", "--lenient");
        // four partitions: the two damaged locations are read by different tasks, whose skips must add up
        Run spark = run("analyze", trace.toString(), "--quiet", "--lenient", "--engine", "spark", "--partitions", "4");
        assertEquals(0, local.code(), local.err());
        assertEquals(0, spark.code(), spark.err());
        assertEquals(local.out(), spark.out());
        assertTrue(local.err().contains("2 part(s) of"), local.err());
        assertEquals(stragglerLines(local.err()), stragglerLines(spark.err()));
    }

    @Test
    void rootCauseReportsJsonCubeAndHtmlEqualTheLocalEngines() throws IOException {
        LocalSpark.get();
        Path trace = SparkAnalysisTest.generate(dir, Scenarios.byName("late-sender-chain"), 6);
        Run local = run("analyze", trace.toString(), "--quiet", "--root-causes", "--json",
                dir.resolve("rl.json").toString(), "--cube", dir.resolve("rl.cubex").toString(), "--html",
                dir.resolve("rl.html").toString());
        Run spark = run("analyze", trace.toString(), "--quiet", "--root-causes", "--engine", "spark",
                "--partitions", "2", "--json", dir.resolve("rs.json").toString(), "--cube",
                dir.resolve("rs.cubex").toString(), "--html", dir.resolve("rs.html").toString());
        assertEquals(0, local.code(), local.err());
        assertEquals(0, spark.code(), spark.err());
        assertTrue(local.out().contains("Root causes") && local.out().contains("Critical path"), local.out());
        assertEquals(local.out().replace("rl.", "rs."), spark.out());
        assertArrayEquals(Files.readAllBytes(dir.resolve("rl.json")), Files.readAllBytes(dir.resolve("rs.json")));
        assertEquals(tarMembers(dir.resolve("rl.cubex")), tarMembers(dir.resolve("rs.cubex")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("rl.html")), Files.readAllBytes(dir.resolve("rs.html")));
    }

    @Test
    void aCubeAloneIsWrittenByTheWorkersWithTheLocalEnginesReportAndFile() throws IOException {
        LocalSpark.get();
        Path trace = SparkAnalysisTest.sharedTraces().stream().filter(p -> p.toString().contains("npb-mg.S-4"))
                .findFirst().orElseThrow();
        Run local = run("analyze", trace.toString(), "--quiet", "--cube", dir.resolve("cl.cubex").toString());
        Run spark = run("analyze", trace.toString(), "--engine", "spark", "--partitions", "2", "--cube",
                dir.resolve("cs.cubex").toString());
        assertEquals(0, local.code(), local.err());
        assertEquals(0, spark.code(), spark.err());
        assertTrue(spark.err().contains("cs.cubex is written by the spark workers"), spark.err());
        assertEquals(local.out().replace("cl.", "cs."), spark.out());
        assertEquals(tarMembers(dir.resolve("cl.cubex")), tarMembers(dir.resolve("cs.cubex")));
    }

    @Test
    void aFocusOnACallPathKeepsTheWholeCubeOnTheDriver() throws IOException {
        LocalSpark.get();
        Path trace = SparkAnalysisTest.sharedTraces().stream().filter(p -> p.toString().contains("npb-mg.S-4"))
                .findFirst().orElseThrow();
        Run local = run("analyze", trace.toString(), "--quiet", "--focus", "mg3p", "--cube",
                dir.resolve("fl.cubex").toString());
        Run spark = run("analyze", trace.toString(), "--engine", "spark", "--partitions", "2", "--focus", "mg3p",
                "--cube", dir.resolve("fs.cubex").toString());
        assertEquals(0, local.code(), local.err());
        assertEquals(0, spark.code(), spark.err());
        assertFalse(spark.err().contains("is written by the spark workers"), spark.err());
        assertEquals(local.out().replace("fl.", "fs."), spark.out());
        assertEquals(tarMembers(dir.resolve("fl.cubex")), tarMembers(dir.resolve("fs.cubex")));
    }

    private static Path hybrid(String name) throws IOException {
        return SparkOpenMpTest.hybridTraces().stream().filter(p -> p.toString().contains(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void aHybridTracesReportJsonCubeCsvAndHtmlEqualTheLocalEngines() throws IOException {
        LocalSpark.get();
        Path trace = hybrid("bt-mz.S-2x2");
        Run local = run("analyze", trace.toString(), "--quiet", "--json",
                dir.resolve("hl.json").toString(), "--cube", dir.resolve("hl.cubex").toString(), "--csv",
                dir.resolve("hl.csv").toString(), "--html", dir.resolve("hl.html").toString());
        Run spark = run("analyze", trace.toString(), "--quiet", "--engine", "spark",
                "--partitions", "3", "--json", dir.resolve("hs.json").toString(), "--cube",
                dir.resolve("hs.cubex").toString(), "--csv", dir.resolve("hs.csv").toString(), "--html",
                dir.resolve("hs.html").toString());
        assertEquals(0, local.code(), local.err());
        assertEquals(0, spark.code(), spark.err());
        // root causes by default, the OpenMP delays among them
        assertTrue(local.out().contains("at OpenMP barriers"), local.out());
        assertEquals(local.out().replace("hl.", "hs."), spark.out());
        assertArrayEquals(Files.readAllBytes(dir.resolve("hl.json")), Files.readAllBytes(dir.resolve("hs.json")));
        assertEquals(tarMembers(dir.resolve("hl.cubex")), tarMembers(dir.resolve("hs.cubex")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("hl.csv")), Files.readAllBytes(dir.resolve("hs.csv")));
        assertArrayEquals(Files.readAllBytes(dir.resolve("hl.html")), Files.readAllBytes(dir.resolve("hs.html")));
        // the cube alone: written by the workers, the same file and report
        Run alone = run("analyze", trace.toString(), "--engine", "spark", "--partitions", "2",
                "--cube", dir.resolve("ha.cubex").toString());
        assertEquals(0, alone.code(), alone.err());
        assertTrue(alone.err().contains("ha.cubex is written by the spark workers"), alone.err());
        assertEquals(local.out().replace("wrote " + dir.resolve("hl.json") + "\n", "")
                .replace("wrote " + dir.resolve("hl.csv") + "\n", "")
                .replace("wrote " + dir.resolve("hl.html") + "\n", "").replace("hl.", "ha."), alone.out());
        assertEquals(tarMembers(dir.resolve("hl.cubex")), tarMembers(dir.resolve("ha.cubex")));
    }

    @Test
    void aSubmissionOfAHybridTraceComputesItsRootCausesAsTheLocalEngineDoes() throws IOException {
        LocalSpark.get();
        Path trace = hybrid("omp-kernels-2x4");
        Run local = run("analyze", trace.toString(), "--quiet", "--json", dir.resolve("subl.json").toString());
        // as spark-submit runs it: root causes asked for by default
        Run r = run(SubmitMain.commandLine(new String[] {trace.toString(), "--quiet", "--partitions", "2", "--json",
                dir.resolve("sub.json").toString()}));
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("root causes not computed"), r.err());
        assertTrue(Files.readString(dir.resolve("sub.json")).matches("(?s).*\"rootCauses\"\\s*:\\s*true.*"),
                "rootCauses true");
        assertArrayEquals(Files.readAllBytes(dir.resolve("subl.json")), Files.readAllBytes(dir.resolve("sub.json")));
        assertEquals(local.out().replace("subl.", "sub."), r.out());
    }

    @Test
    void anUnknownEngineIsAUsageError() throws IOException {
        Path trace = SparkAnalysisTest.generate(dir, Scenarios.byName("late-sender"), 4);
        Run r = run("analyze", trace.toString(), "--engine", "flink");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--engine must be local or spark"), r.err());
    }

    @Test
    void aMasterWithoutTheSparkEngineIsAUsageError() throws IOException {
        Path trace = SparkAnalysisTest.generate(dir, Scenarios.byName("late-sender"), 4);
        Run r = run("analyze", trace.toString(), "--master", "local[2]");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--engine spark"), r.err());
    }

    @Test
    void aYarnMasterWithoutSparksYarnSupportSaysToUseSparkSubmit() {
        IOException e = assertThrows(IOException.class, () -> SparkEngine.requireClusterManager("yarn"));
        assertTrue(e.getMessage().contains("spark-submit --master yarn"), e.getMessage());
        assertThrows(IOException.class, () -> SparkEngine.requireClusterManager("k8s://https://api:6443"));
    }

    @Test
    void localAndStandaloneMastersNeedNothingMore() throws IOException {
        SparkEngine.requireClusterManager("local[2]");
        SparkEngine.requireClusterManager("spark://head:7077");
    }

    @Test
    void aSubmissionRunsAnalyzeOnTheSparkEngine() {
        assertArrayEquals(new String[] {"analyze", "t.otf2", "--json", "r.json", "--root-causes", "--engine", "spark"},
                SubmitMain.commandLine(new String[] {"t.otf2", "--json", "r.json"}));
        assertArrayEquals(new String[] {"analyze", "t.otf2", "--engine=spark", "--root-causes"},
                SubmitMain.commandLine(new String[] {"t.otf2", "--engine=spark"}));
    }

    @Test
    void aSubmissionComputesRootCausesByDefault() throws Exception {
        var cmd = new picocli.CommandLine(new dev.straggler.cli.Main());
        var parsed = cmd.parseArgs(SubmitMain.commandLine(new String[] {"t.otf2"}));
        assertTrue(parsed.subcommand().commandSpec().findOption("--root-causes").<Boolean>getValue());
    }

    @Test
    void aSubmissionWithNoRootCausesLeavesThemOff() {
        assertArrayEquals(new String[] {"analyze", "t.otf2", "--no-root-causes", "--engine", "spark"},
                SubmitMain.commandLine(new String[] {"t.otf2", "--no-root-causes"}));
        assertArrayEquals(new String[] {"analyze", "t.otf2", "--root-causes=false", "--engine", "spark"},
                SubmitMain.commandLine(new String[] {"t.otf2", "--root-causes=false"}));
    }
}
