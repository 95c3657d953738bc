package dev.straggler.testdata;

import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Generates a scaling study of a family: one experiment per (process count, repetition). Repetition r runs with
 * seed {@code seed + r} (so its noise differs) and records {@code repetition=r} in the experiment metadata.
 */
public final class ScalingFamily {

    /** Opens the writer an experiment is written to; the writer is closed by {@link #generate} after it finished. */
    @FunctionalInterface
    public interface Sink {
        TraceWriter open(String experimentName, int processes, int repetition) throws IOException;
    }

    /**
     * One generated experiment.
     *
     * @param name e.g. {@code bt-like.p16.r0}
     */
    public record Run(String name, int processes, int repetition, long seed, GeneratedTrace trace) {
    }

    private ScalingFamily() {
    }

    /** The experiment name of one run: {@code <scenario>.p<processes>.r<repetition>}. */
    public static String experimentName(Scenario s, int processes, int repetition) {
        return s.name() + ".p" + processes + ".r" + repetition;
    }

    /**
     * @param processCounts the p of each experiment; empty means {@link Scenario#defaultScale()}
     * @param values        parameter overrides shared by all runs
     * @throws IllegalArgumentException when the scenario is not a scaling family or a process count is not supported
     */
    public static List<Run> generate(Scenario family, List<Integer> processCounts, int repetitions, long seed,
                                     Map<String, String> values, Sink sink) throws IOException {
        Objects.requireNonNull(sink, "sink");
        if (!family.scalingFamily()) {
            throw new IllegalArgumentException("scenario " + family.name() + " is not a scaling family");
        }
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be >= 1: " + repetitions);
        }
        List<Integer> ps = processCounts.isEmpty() ? family.defaultScale() : processCounts;
        for (int p : ps) {
            // fail before anything is written
            family.expected(new ScenarioParams(p, seed, values));
        }
        List<Run> runs = new ArrayList<>();
        for (int p : ps) {
            for (int r = 0; r < repetitions; r++) {
                Map<String, String> v = new LinkedHashMap<>(values);
                v.put("repetition", Integer.toString(r));
                ScenarioParams params = new ScenarioParams(p, seed + r, v);
                String name = experimentName(family, p, r);
                GeneratedTrace g;
                try (TraceWriter w = sink.open(name, p, r)) {
                    g = family.generate(params, w);
                }
                runs.add(new Run(name, p, r, seed + r, g));
            }
        }
        return runs;
    }
}
