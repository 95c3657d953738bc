package dev.straggler.trace.otf2;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The fixtures written by the official OTF2 library: {@code src/test/otf2/make_fixtures.py} runs once per test JVM
 * into {@code target/otf2-fixtures}. Tests that need them are skipped, saying why, when /usr/bin/python3 or its
 * {@code otf2} module (Debian package python3-otf2) is missing.
 */
final class Otf2Fixtures {
    static final Path SCRIPT = Path.of("src/test/otf2/make_fixtures.py");
    static final Path DIR = Path.of("target/otf2-fixtures");
    private static final String PYTHON = "/usr/bin/python3";
    private static String unavailable;
    private static boolean made;

    private Otf2Fixtures() {
    }

    /** The anchor file of a fixture ({@code records}, {@code mapped}, {@code nompi}). */
    static synchronized Path anchor(String name) {
        if (!made && unavailable == null) {
            unavailable = make();
            made = unavailable == null;
        }
        Assumptions.assumeTrue(unavailable == null, unavailable);
        return DIR.resolve(name).resolve("traces.otf2");
    }

    private static String make() {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return "OTF2 fixtures skipped: " + PYTHON + " is not installed";
        }
        try {
            if (run(PYTHON, "-c", "import otf2") != 0) {
                return "OTF2 fixtures skipped: the python3 'otf2' module (Debian package python3-otf2) is missing";
            }
            Files.createDirectories(DIR);
            StringBuilder out = new StringBuilder();
            int rc = run(out, PYTHON, SCRIPT.toString(), DIR.toString());
            if (rc != 0) {
                throw new IllegalStateException("make_fixtures.py failed (" + rc + "):\n" + out);
            }
            return null;
        } catch (IOException e) {
            return "OTF2 fixtures skipped: " + e;
        }
    }

    static int run(String... cmd) throws IOException {
        return run(new StringBuilder(), cmd);
    }

    static int run(StringBuilder output, String... cmd) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            // the program itself is missing: the test cannot check anything, which is not a failure of the code
            Assumptions.abort(cmd[0] + " is not installed (apt-get install otf2-tools python3-otf2): " + e.getMessage());
            throw e;
        }
        try {
            output.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish");
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** Copies a fixture archive (anchor, definitions, location files) to {@code target}, for tests that damage it. */
    static Path copy(String name, Path target) throws IOException {
        Path src = anchor(name).getParent();
        try (var files = Files.walk(src)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path to = target.resolve(src.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        return target.resolve("traces.otf2");
    }
}
