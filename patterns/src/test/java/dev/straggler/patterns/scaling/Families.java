package dev.straggler.patterns.scaling;

import dev.straggler.patterns.callsite.CallsiteProfiler;
import dev.straggler.patterns.callsite.TraceProfile;
import dev.straggler.testdata.GeneratedTrace;
import dev.straggler.testdata.ScalingFamily;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Generates a scaling family of the simulator in memory and profiles every run. */
final class Families {
    /** One run: its expectations and its profile. */
    record Run(String name, int processes, GeneratedTrace generated, TraceProfile profile) {
    }

    private Families() {
    }

    static List<Run> profile(String family, List<Integer> ps, int repetitions, long seed, Map<String, String> values,
                             CallsiteProfiler.Options o) throws IOException {
        List<MemoryTrace> traces = new ArrayList<>();
        List<ScalingFamily.Run> runs = ScalingFamily.generate(Scenarios.byName(family), ps, repetitions, seed, values,
                (name, p, r) -> {
                    MemoryTrace t = new MemoryTrace(name);
                    traces.add(t);
                    return (TraceWriter) t;
                });
        List<Run> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            ScalingFamily.Run r = runs.get(i);
            out.add(new Run(r.name(), r.processes(), r.trace(), CallsiteProfiler.profile(traces.get(i), o)));
        }
        return out;
    }
}
