package dev.straggler.patterns.reduce;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The Score-P traces of {@code ../shared/traces/real} (system property {@code straggler.shared}); skips when absent. */
final class RealTraces {
    private RealTraces() {
    }

    static Path dir() {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path real = Path.of(shared, "traces", "real");
        Assumptions.assumeTrue(Files.isDirectory(real), real + " is absent: real-trace comparisons skipped");
        return real;
    }

    static Path folder(String name) {
        Path p = dir().resolve(name);
        Assumptions.assumeTrue(Files.isDirectory(p), p + " is absent");
        return p;
    }

    /**
     * Arguments the program was started with, from the {@code command:} line of {@code run_info.txt} (the words
     * after the executable, which follows mpirun's options): Score-P records them in ProgramBegin.
     */
    static int programArguments(Path dir) throws IOException {
        for (String l : Files.readAllLines(dir.resolve("run_info.txt"))) {
            if (l.startsWith("command:")) {
                String[] words = l.substring("command:".length()).trim().split("\\s+");
                for (int i = 0; i < words.length; i++) {
                    if (words[i].startsWith("/")) {
                        return words.length - i - 1;
                    }
                }
            }
        }
        return 0;
    }

    /** Every folder holding a trace and its scorep-score listing. */
    static List<Path> withScore() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.filter(p -> Files.isRegularFile(p.resolve("scorep_score.txt")) && Files.isRegularFile(p.resolve("traces.otf2")))
                    .sorted().toList();
        }
    }
}
