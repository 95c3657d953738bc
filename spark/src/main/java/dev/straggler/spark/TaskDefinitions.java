package dev.straggler.spark;

import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A trace's definitions on an executor, read once per JVM and trace: the tasks that analyse locations need them
 * (communicator members) but not the events, and definitions never change.
 */
final class TaskDefinitions {
    private static final ConcurrentHashMap<String, TraceDefinitions> CACHE = new ConcurrentHashMap<>();

    private TaskDefinitions() {
    }

    static TraceDefinitions of(String trace, boolean lenient) {
        return CACHE.computeIfAbsent(trace + (lenient ? "\u0000lenient" : ""), k -> {
            try (TraceSource s = Traces.open(Path.of(trace), lenient)) {
                return s.definitions();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
