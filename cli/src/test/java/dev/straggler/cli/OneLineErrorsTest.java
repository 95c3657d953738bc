package dev.straggler.cli;

import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Resource and format failures end in one line on stderr and a non-zero exit, never a stack trace. */
class OneLineErrorsTest {
    @TempDir
    Path tmp;

    /** Runs the command in a JVM of its own with a small heap (the suite's classpath, Straggler's launcher flags). */
    private static Run java(String heap, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + heap, "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-Darrow.enable_unsafe_memory_access=true", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void runningOutOfMemoryIsOneLineThatSaysHowToGetMore() throws Exception {
        Path store = tmp.resolve("mid");
        assertEquals(0, run("generate", "late-sender", "-n", "2", "-p", "reps=50000", "-o", store.toString(), "-q").code());
        Run r = java("16m", "analyze", store.toString(), "-q");
        assertEquals(Main.OUT_OF_MEMORY, r.code(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().matches("straggler: needs more memory than the \\d+ MiB heap: rerun with STRAGGLER_HEAP=1g "
                + "\\(the launcher's -Xmx\\), or with --threads 1 where the command has it\\R?"), r.err());
        assertTrue(!r.err().contains("Exception") && !r.err().contains("Unsafe"), r.err());
    }

    @Test
    void damagedStoreManifestNamesTheFileAndTheFieldInWords() throws Exception {
        Path store = tmp.resolve("s");
        assertEquals(0, run("import", CliTest.SAMPLE.toString(), "-o", store.toString(), "-q").code());
        Path manifest = store.resolve("manifest.json");
        Files.writeString(manifest, Files.readString(manifest).replaceFirst("\"events\" : 17,", "\"events\" : \"seventeen\","));
        Run r = run("analyze", store.toString(), "-q");
        assertEquals(1, r.code());
        assertEquals("straggler: " + manifest + ": line 10, column 16: field locations[0].events: \"seventeen\" is not "
                + "a whole number", r.err().strip());
    }

    @Test
    void truncatedAnalysisJsonSaysItIsTruncated() throws Exception {
        Path json = tmp.resolve("a.json");
        assertEquals(0, run("analyze", CliTest.SAMPLE.toString(), "-q", "--json", json.toString()).code());
        Path cut = tmp.resolve("cut.json");
        Files.writeString(cut, Files.readString(json).substring(0, 500));
        Run r = run("diff", json.toString(), cut.toString(), "-q");
        assertEquals(1, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("straggler: " + cut + ": line "), r.err());
        assertTrue(r.err().strip().endsWith("the JSON ends early (the file is truncated)"), r.err());
    }

    /** Found by the mutation fuzzer: a misspelled key in a store's definitions surfaced as a NullPointerException. */
    @Test
    void misspelledDefinitionsFieldIsNamedInWords() throws Exception {
        Path store = tmp.resolve("d");
        assertEquals(0, run("import", CliTest.SAMPLE.toString(), "-o", store.toString(), "-q").code());
        Path defs = store.resolve("definitions.json");
        Files.writeString(defs, Files.readString(defs).replace("\"communicators\"", "\"communicaTors\""));
        Run r = run("analyze", store.toString(), "-q");
        assertEquals(1, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("straggler: " + defs + ": line "), r.err());
        assertTrue(r.err().strip().endsWith("a required field of TraceDefinitions is missing (misspelled or damaged?)"),
                r.err());
    }

    /** A class whose static initialiser failed; used twice, as the JVM reports it the second time. */
    static final class FailsToInitialise {
        static {
            if (Boolean.TRUE) {
                throw new OutOfMemoryError("Java heap space");
            }
        }

        static void use() {
        }
    }

    @Test
    void aClassWhoseInitialiserRanOutOfMemoryCountsAsOutOfMemory() {
        Throwable first = null;
        Throwable second = null;
        try {
            FailsToInitialise.use();
        } catch (Throwable t) {
            first = t;
        }
        try {
            FailsToInitialise.use();
        } catch (Throwable t) {
            second = t;
        }
        assertTrue(first instanceof OutOfMemoryError, String.valueOf(first));
        assertTrue(second instanceof NoClassDefFoundError, String.valueOf(second));
        assertTrue(Main.isOutOfMemory(second), String.valueOf(second));
        assertTrue(!Main.isOutOfMemory(new NoClassDefFoundError("Could not initialize class X")));
    }
}
