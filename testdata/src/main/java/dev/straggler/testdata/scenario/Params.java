package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.sim.ClockSkew;
import dev.straggler.testdata.sim.NetworkModel;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A scenario's parameters resolved against its {@link ParamSpec}s: every parameter has a value, unknown names are
 * rejected, and values are read typed. Times are given in seconds and returned as timer ticks (ns).
 */
public final class Params {
    private final String scenario;
    private final int ranks;
    private final long seed;
    private final Map<String, String> values;

    private Params(String scenario, int ranks, long seed, Map<String, String> values) {
        this.scenario = scenario;
        this.ranks = ranks;
        this.seed = seed;
        this.values = values;
    }

    /** @throws IllegalArgumentException naming the scenario and the valid parameters for an unknown name */
    public static Params resolve(String scenario, List<ParamSpec> specs, ScenarioParams given) {
        Map<String, String> v = new LinkedHashMap<>();
        for (ParamSpec s : specs) {
            v.put(s.name(), s.defaultValue());
        }
        for (var e : given.values().entrySet()) {
            if (!v.containsKey(e.getKey())) {
                throw new IllegalArgumentException("scenario " + scenario + " has no parameter '" + e.getKey()
                        + "'; its parameters are " + specs.stream().map(ParamSpec::name).collect(Collectors.joining(", ")));
            }
            v.put(e.getKey(), e.getValue());
        }
        return new Params(scenario, given.ranks(), given.seed(), Collections.unmodifiableMap(v));
    }

    public int ranks() {
        return ranks;
    }

    public long seed() {
        return seed;
    }

    /** Every parameter's effective value. */
    public Map<String, String> values() {
        return values;
    }

    public String text(String name) {
        String s = values.get(name);
        if (s == null) {
            throw new IllegalStateException("scenario " + scenario + " reads undeclared parameter '" + name + "'");
        }
        return s;
    }

    /** A time parameter given in seconds, as ticks (ns). */
    public long ticks(String name) {
        double s = real(name);
        if (Math.abs(s) > 1e9) {
            throw bad(name, "must be a time below 1e9 s");
        }
        return Math.round(s * 1e9);
    }

    /** A time parameter that must not be negative, as ticks. */
    public long duration(String name) {
        long t = ticks(name);
        if (t < 0) {
            throw bad(name, "must not be negative");
        }
        return t;
    }

    /** A duration that must be longer than zero, in ticks. */
    public long positiveDuration(String name) {
        long t = duration(name);
        if (t == 0) {
            throw bad(name, "must be positive");
        }
        return t;
    }

    public double real(String name) {
        double v;
        try {
            v = Double.parseDouble(text(name));
        } catch (NumberFormatException e) {
            throw bad(name, "must be a number");
        }
        if (!Double.isFinite(v)) {
            throw bad(name, "must be a finite number");
        }
        return v;
    }

    public long integer(String name) {
        try {
            return Long.parseLong(text(name));
        } catch (NumberFormatException e) {
            throw bad(name, "must be an integer");
        }
    }

    /** An integer parameter within [min, max]. */
    public int count(String name, int min, int max) {
        long v = integer(name);
        if (v < min || v > max) {
            throw bad(name, "must be between " + min + " and " + max);
        }
        return (int) v;
    }

    public String choice(String name, String... allowed) {
        String v = text(name);
        for (String a : allowed) {
            if (a.equals(v)) {
                return v;
            }
        }
        throw bad(name, "must be one of " + String.join(", ", allowed));
    }

    public IllegalArgumentException bad(String name, String why) {
        return new IllegalArgumentException("scenario " + scenario + ": parameter " + name + "=" + values.get(name) + " " + why);
    }

    public NetworkModel network() {
        return new NetworkModel(duration("latency"), real("bandwidth"), integer("eager"), duration("overhead"),
                duration("stagger"));
    }

    public ClockSkew skew() {
        long rank = integer("skew.rank");
        if (rank < 0) {
            return ClockSkew.none();
        }
        if (rank >= ranks) {
            throw bad("skew.rank", "must be a rank below " + ranks + " (or -1 for none)");
        }
        return ClockSkew.of((int) rank, ticks("skew.offset"), real("skew.drift"));
    }

    /** The parameters every scenario has: the network model and the clock errors. */
    static List<ParamSpec> common(Map<String, String> defaults) {
        return List.of(
                new ParamSpec("latency", defaults.getOrDefault("latency", "2e-6"), "network latency per message or collective step, s"),
                new ParamSpec("bandwidth", defaults.getOrDefault("bandwidth", "1e9"), "network bandwidth, bytes/s"),
                new ParamSpec("eager", defaults.getOrDefault("eager", "16384"), "largest message sent eagerly, bytes; larger ones use rendezvous"),
                new ParamSpec("overhead", defaults.getOrDefault("overhead", "5e-7"), "minimum duration of any MPI call, s"),
                new ParamSpec("stagger", defaults.getOrDefault("stagger", "0"), "each rank leaves a collective this much later than the previous rank, s"),
                new ParamSpec("skew.rank", defaults.getOrDefault("skew.rank", "-1"), "rank whose clock is off (-1: none), to violate the clock condition"),
                new ParamSpec("skew.offset", defaults.getOrDefault("skew.offset", "0"), "that rank's clock offset, s (positive: ahead)"),
                new ParamSpec("skew.drift", defaults.getOrDefault("skew.drift", "0"), "that rank's clock drift, s per s"));
    }
}
