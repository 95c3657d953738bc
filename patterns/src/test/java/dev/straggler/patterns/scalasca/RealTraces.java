package dev.straggler.patterns.scalasca;

import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
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

    /**
     * Opens an OTF2 archive with the project's reader ({@code dev.straggler.trace.otf2.Otf2Archive}); empty while
     * that reader is not part of the build.
     */
    public static Optional<TraceSource> openOtf2(Path anchor) throws IOException {
        Class<?> c;
        try {
            c = Class.forName("dev.straggler.trace.otf2.Otf2Archive");
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
        try {
            return Optional.of((TraceSource) c.getMethod("open", Path.class).invoke(null, anchor));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("unexpected Otf2Archive API", e);
        }
    }
}
