package dev.straggler.trace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What was measured: the application, its process count and free parameters (problem size, input, ...),
 * used when experiments are compared across sizes.
 */
public record Experiment(String application, int processes, Map<String, String> parameters) {

    public Experiment {
        application = application == null ? "" : application;
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNullElse(parameters, Map.of())));
    }

    public static Experiment of(String application, int processes) {
        return new Experiment(application, processes, Map.of());
    }
}
