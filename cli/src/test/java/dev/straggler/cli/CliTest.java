package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliTest {
    static final Path SAMPLE = Path.of("..", "samples", "late-sender.txt");

    @TempDir
    Path tmp;

    /** Runs the command line with stdout and stderr captured. */
    record Run(int code, String out, String err) {
    }

    static synchronized Run run(String... args) {
        return capture(args);
    }

    /**
     * Main.run with System.out/err captured; anything thrown out of it becomes exit code 99 with its stack trace
     * on err. Callers serialise (System.out is global): {@link #run} on this class, the fuzzer on its own lock.
     */
    static Run capture(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code;
            try {
                code = Main.run(args);
            } catch (Throwable t) {
                t.printStackTrace(System.err);
                code = 99;
            }
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void infoJsonReportsTheSamplesCounts() throws Exception {
        Run r = run("info", SAMPLE.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(34, j.get("events").asLong());
        assertEquals(2, j.get("ranks").asInt());
        assertEquals(14, j.get("eventsByKind").get("ENTER").asLong());
        assertEquals(2, j.get("collectivesByOp").get("BARRIER").asLong());
        assertEquals(1_000_000, j.get("timerResolution").asLong());
        assertEquals(0.009, j.get("durationSeconds").asDouble(), 1e-12);
    }

    @Test
    void importedStoreDumpsTheSameEventsAsTheText() throws Exception {
        Path store = tmp.resolve("store");
        assertEquals(0, run("import", SAMPLE.toString(), "-o", store.toString(), "-q").code());
        Run fromText = run("dump", SAMPLE.toString(), "--definitions");
        Run fromStore = run("dump", store.toString(), "--definitions");
        assertEquals(fromText.out(), fromStore.out());
        assertTrue(fromStore.out().contains("1 7200 MPI_RECV from=0 comm=0 tag=42 bytes=4096"));
    }

    @Test
    void dumpFiltersByRankAndTimeWindow() {
        Run r = run("dump", SAMPLE.toString(), "-r", "0", "--from", "0.0075", "--to", "0.008");
        assertEquals(0, r.code());
        String[] lines = r.out().strip().split("\n");
        assertEquals(2, lines.length, r.out()); // rank 0 at 8000: LEAVE compute, ENTER MPI_Barrier
        for (String l : lines) {
            assertTrue(l.startsWith("0 "), l);
        }
    }

    @Test
    void missingInputIsOneLineOnStderrWithNonZeroExit() {
        Run r = run("info", tmp.resolve("nope").toString());
        assertEquals(1, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("straggler: ") && r.err().contains("no such file"), r.err());
    }

    @Test
    void invalidTraceIsNotImported() throws Exception {
        Path bad = tmp.resolve("bad.txt");
        Files.writeString(bad, "straggler-text 1\nregion 0 f\nlocation 0 rank=0\n0 5 ENTER f\n");
        Run r = run("import", bad.toString(), "-o", tmp.resolve("out").toString(), "-q");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("still open at the end"), r.err());
        assertFalse(Files.exists(tmp.resolve("out")));
    }

    @Test
    void validateExitsNonZeroOnProblems() throws Exception {
        Path bad = tmp.resolve("bad.txt");
        Files.writeString(bad, "straggler-text 1\nregion 0 f\nlocation 0 rank=0\n0 5 LEAVE f\n");
        Run r = run("validate", bad.toString());
        assertEquals(1, r.code());
        assertTrue(r.out().contains("location 0 (rank 0), event 0"), r.out());
    }

    @Test
    void unknownOptionIsAUsageError() {
        Run r = run("info", "--frobnicate");
        assertEquals(2, r.code());
    }

    @Test
    void stackTraceOnlyWithDebug() {
        Run quiet = run("info", tmp.resolve("nope").toString());
        Run debug = run("info", tmp.resolve("nope").toString(), "--debug");
        assertFalse(quiet.err().contains("\tat "));
        assertTrue(debug.err().contains("\tat "), debug.err());
    }

    @Test
    void commMatrixCountsTheSamplesSingleMessage() throws Exception {
        Run r = run("comm-matrix", SAMPLE.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(1, j.get("messages").get(0).get(1).asLong());
        assertEquals(0, j.get("messages").get(1).get(0).asLong());
        assertEquals(4096, j.get("bytes").get(0).get(1).asLong());
    }

    @Test
    void generatedScenarioIsAValidStoreWithItsExpectedValuesBeside() throws Exception {
        Path out = tmp.resolve("ls");
        Run r = run("generate", "late-sender", "-n", "4", "-o", out.toString(), "--expected", "-q");
        assertEquals(0, r.code(), r.err());
        assertEquals(0, run("validate", out.toString()).code());
        JsonNode expected = new ObjectMapper().readTree(tmp.resolve("ls.expected.json").toFile());
        assertEquals("late-sender", expected.get("scenario").asText());
        assertEquals(4, expected.get("ranks").asInt());
    }

    @Test
    void scalingFamilyWritesOneExperimentPerProcessCount() {
        Path out = tmp.resolve("fam");
        Run r = run("generate", "graph500-like", "-n", "2,4", "--repetitions", "2", "-o", out.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        for (String name : new String[]{"graph500-like.p2.r0", "graph500-like.p2.r1", "graph500-like.p4.r0", "graph500-like.p4.r1"}) {
            assertTrue(Files.isDirectory(out.resolve(name)), name);
        }
    }

    @Test
    void unknownScenarioIsRejectedWithTheListOfNames() {
        Run r = run("generate", "no-such-thing", "-o", tmp.resolve("x").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains("late-sender"), r.err());
    }

    @Test
    void analyzeFindsTheHandWrittenLateSenderAndBarrierWait() throws Exception {
        // samples/late-sender.txt: MPI_Recv entered at 2000 us, MPI_Send at 7000 us -> Late Sender 5 ms on rank 1;
        // barrier begins at 7501 (rank 1) and 8001 (rank 0) -> Wait at Barrier 0.5 ms on rank 1.
        Path json = tmp.resolve("a.json");
        Path cube = tmp.resolve("a.cubex");
        Path html = tmp.resolve("a.html");
        Run r = run("analyze", SAMPLE.toString(), "--json", json.toString(), "--cube", cube.toString(),
                "--html", html.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Late Sender"), r.out());
        var result = dev.straggler.patterns.report.AnalysisJson.read(json);
        assertEquals(0.005, result.total("mpi_latesender"), 1e-12);
        assertEquals(0.0005, result.total("mpi_barrier_wait"), 1e-12);
        var fromCube = dev.straggler.patterns.cubex.CubexReader.read(cube);
        assertEquals(0.005, fromCube.total("mpi_latesender"), 1e-12);
        assertTrue(Files.readString(html).contains("mpi_latesender"));
    }

    @Test
    void analyzeWithRootCausesChargesTheWaitToTheSendersExtraComputation() throws Exception {
        // samples/late-sender.txt: after MPI_Init (left by both at 1 ms) rank 0 computes 6 ms before its send,
        // rank 1 1 ms before its receive; the 5 ms difference is the delay and explains the whole 5 ms wait
        Path json = tmp.resolve("rc.json");
        Run r = run("analyze", SAMPLE.toString(), "--root-causes", "--json", json.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Root causes"), r.out());
        var cube = dev.straggler.patterns.report.AnalysisJson.read(json).cube();
        int compute = -1;
        for (int p = 0; p < cube.callPaths().size(); p++) {
            if (cube.pathNames(p).equals(java.util.List.of("main", "compute"))) {
                compute = p;
            }
        }
        assertEquals(0.005, cube.get(cube.metricIndex("delay_latesender"), compute, 0), 1e-12);
        assertEquals(0.005, cube.total("delay_latesender"), 1e-12);
    }

    @Test
    void analyzeWithRootCausesTurnedOffSaysSo() {
        Run r = run("analyze", SAMPLE.toString(), "-q", "--no-root-causes");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("were not analysed (--no-root-causes)"), r.out());
        assertFalse(r.out().contains("Root causes\n"), r.out());
    }

    @Test
    void theHtmlSummarySaysWhetherTheRootCausesWereComputed() throws Exception {
        Path on = tmp.resolve("on.html");
        Path off = tmp.resolve("off.html");
        assertEquals(0, run("analyze", SAMPLE.toString(), "-q", "--html", on.toString()).code());
        assertEquals(0, run("analyze", SAMPLE.toString(), "-q", "--no-root-causes", "--html", off.toString()).code());
        assertTrue(java.nio.file.Files.readString(on).contains("<th>Root causes</th><td>computed: delay costs"));
        assertTrue(java.nio.file.Files.readString(off).contains(
                "<th>Root causes</th><td>not analysed (--no-root-causes)</td>"));
    }

    @Test
    void analyzeSaysWhyByDefault() {
        Run r = run("analyze", SAMPLE.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\nRoot causes\n"), r.out());
        assertTrue(r.out().contains("is caused by delays on the processes waited for"), r.out());
    }

    @Test
    void demoWritesItsReports() {
        Path dir = tmp.resolve("demo");
        Run r = run("demo", "-o", dir.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Late Sender"), r.out());
        for (String f : new String[]{"bt-like.html", "bt-like.cubex", "bt-like.json"}) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), f);
        }
    }
}
