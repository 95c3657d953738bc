package dev.straggler.testdata;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a user asks of a scenario: the number of ranks, the seed and {@code name=value} overrides of its
 * parameters (the others keep their defaults, see {@link Scenario#parameters()}).
 */
public record ScenarioParams(int ranks, long seed, Map<String, String> values) {

    public ScenarioParams {
        if (ranks < 1) {
            throw new IllegalArgumentException("ranks must be >= 1: " + ranks);
        }
        values = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNullElse(values, Map.of())));
    }

    public static ScenarioParams of(int ranks) {
        return new ScenarioParams(ranks, 1, Map.of());
    }

    public static ScenarioParams of(int ranks, long seed, Map<String, String> values) {
        return new ScenarioParams(ranks, seed, values);
    }

    /** A copy with one more override. */
    public ScenarioParams with(String name, String value) {
        Map<String, String> m = new LinkedHashMap<>(values);
        m.put(name, value);
        return new ScenarioParams(ranks, seed, m);
    }

    public ScenarioParams withRanks(int n) {
        return new ScenarioParams(n, seed, values);
    }

    public ScenarioParams withSeed(long s) {
        return new ScenarioParams(ranks, s, values);
    }

    /**
     * Parses {@code name=value} strings, as given on the command line.
     *
     * @throws IllegalArgumentException for an entry without '='
     */
    public static Map<String, String> parseAssignments(Iterable<String> assignments) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("parameter '" + a + "' is not of the form name=value");
            }
            m.put(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
        }
        return m;
    }
}
