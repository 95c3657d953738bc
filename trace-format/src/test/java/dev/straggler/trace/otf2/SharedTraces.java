package dev.straggler.trace.otf2;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The third-party traces in {@code ../shared/traces} (system property {@code straggler.shared}); tests using them
 * are skipped, saying so, when that folder is absent.
 */
final class SharedTraces {
    private SharedTraces() {
    }

    static Path dir(String relative) {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path p = Path.of(shared, "traces").resolve(relative);
        Assumptions.assumeTrue(Files.isDirectory(p), "shared trace folder " + p + " is absent");
        return p;
    }
}
