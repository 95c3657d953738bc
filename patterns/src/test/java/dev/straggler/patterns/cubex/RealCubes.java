package dev.straggler.patterns.cubex;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The Score-P/Scalasca experiments under {@code <shared>/traces/real}, each with Scalasca's own dump. */
final class RealCubes {
    private RealCubes() {
    }

    /** Experiment folders that hold a scout.cubex; skips the calling test when the shared folder is absent. */
    static List<Path> experiments() throws IOException {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path real = Path.of(shared, "traces", "real");
        Assumptions.assumeTrue(Files.isDirectory(real), "no real traces at " + real + " (shared folder absent)");
        try (Stream<Path> s = Files.list(real)) {
            List<Path> dirs = s.filter(d -> Files.isRegularFile(d.resolve("scout.cubex"))).sorted().toList();
            Assumptions.assumeFalse(dirs.isEmpty(), "no experiment with scout.cubex under " + real);
            return dirs;
        }
    }

    /** The value printed with 6 significant digits, allowing for the rounding of the print. */
    static boolean sameAtSixDigits(double actual, double printed) {
        return Math.abs(actual - printed) <= 6e-6 * Math.abs(printed) + 1e-12;
    }
}
