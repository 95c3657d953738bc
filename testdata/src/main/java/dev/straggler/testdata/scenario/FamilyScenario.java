package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.trace.Experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An application-like scaling family: meant to be generated at many process counts with repetitions and noise
 * ({@link dev.straggler.testdata.ScalingFamily}). Each has named callsites designed to scale badly and others
 * designed to scale well, described by {@link ExpectedSeverities.Scaling}.
 *
 * <p>Every family has {@code noise} (relative amplitude of the seeded jitter of its computations) and
 * {@code repetition} (which run of a repeated experiment this is; recorded in the experiment metadata).
 */
abstract class FamilyScenario extends SimulatedScenario {
    private final List<Integer> scale;

    FamilyScenario(String name, String description, List<ParamSpec> own, Map<String, String> commonDefaults,
                   List<Integer> scale) {
        super(name, description, true, withFamily(own), commonDefaults);
        this.scale = List.copyOf(scale);
    }

    private static List<ParamSpec> withFamily(List<ParamSpec> own) {
        List<ParamSpec> all = new ArrayList<>(own);
        if (all.stream().noneMatch(s -> s.name().equals("noise"))) {
            all.add(new ParamSpec("noise", "0.02", "relative amplitude of the seeded jitter of every computation"));
        }
        all.add(new ParamSpec("repetition", "0", "index of this run among repeated runs (metadata only)"));
        return all;
    }

    @Override
    public List<Integer> defaultScale() {
        return scale;
    }

    /** The parameters that describe the problem (size, iterations), written as experiment metadata. */
    protected abstract List<String> problemParameters();

    @Override
    protected Experiment experiment(Params p) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : problemParameters()) {
            m.put(k, p.text(k));
        }
        m.put("noise", p.text("noise"));
        m.put("repetition", p.text("repetition"));
        m.put("seed", Long.toString(p.seed()));
        return new Experiment(name(), p.ranks(), m);
    }

    protected double noise(Params p) {
        double a = p.real("noise");
        if (a < 0 || a >= 1) {
            throw p.bad("noise", "must be in [0, 1)");
        }
        return a;
    }

    static List<String> path(String... names) {
        List<String> l = new ArrayList<>(names.length + 1);
        l.add("main");
        l.addAll(List.of(names));
        return l;
    }

    static ExpectedSeverities.Callsite site(List<String> path, String measure, String trend, String law) {
        return new ExpectedSeverities.Callsite(path, measure, trend, law);
    }
}
