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

    /**
     * The folders of pure-MPI runs with Scalasca 2.6's analysis beside them: {@code real/} (NPB, LULESH) and
     * {@code hpcg/} (ranks doing different work), sorted by folder name; those with a file {@code name}. Empty when
     * the shared traces are absent.
     */
    public static java.util.List<Path> mpiParityFolders(String name) throws IOException {
        Optional<Path> dir = tracesDir();
        java.util.List<Path> out = new java.util.ArrayList<>();
        if (dir.isEmpty()) {
            return out;
        }
        for (String group : new String[]{"real", "hpcg"}) {
            Path g = dir.get().resolve(group);
            if (!Files.isDirectory(g)) {
                continue;
            }
            try (java.util.stream.Stream<Path> s = Files.list(g)) {
                s.filter(p -> Files.exists(p.resolve(name)) && Files.exists(p.resolve("traces.otf2"))).forEach(out::add);
            }
        }
        out.sort(java.util.Comparator.comparing(p -> p.getFileName().toString()));
        return out;
    }

    /** Opens an OTF2 archive with the project's reader; always present, kept optional for the callers. */
    public static Optional<TraceSource> openOtf2(Path anchor) throws IOException {
        return Optional.of(Otf2Archive.open(anchor));
    }
}
