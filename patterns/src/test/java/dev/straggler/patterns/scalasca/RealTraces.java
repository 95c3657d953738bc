package dev.straggler.patterns.scalasca;

import dev.straggler.trace.TraceSource;
import dev.straggler.trace.otf2.Otf2Archive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Locates the shared real traces and opens their OTF2 archives. */
public final class RealTraces {
    private RealTraces() {
    }

    /** {@code <shared>/traces}, from the system property Surefire sets; empty when absent. */
    public static Optional<Path> tracesDir() {
        String shared = System.getProperty("straggler.shared");
        if (shared == null) {
            return Optional.empty();
        }
        Path p = Path.of(shared, "traces");
        return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
    }

    /** Opens an OTF2 archive with the project's reader; always present, kept optional for the callers. */
    public static Optional<TraceSource> openOtf2(Path anchor) throws IOException {
        return Optional.of(Otf2Archive.open(anchor));
    }
}
