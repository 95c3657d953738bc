package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** The analysis (with root causes) of one simulated run; call paths are named from below the measurement root. */
record SimulatedRun(SeverityCube cube) {

    static SimulatedRun of(String scenario, int ranks, Map<String, String> values) throws IOException {
        MemoryTrace trace = new MemoryTrace(scenario);
        Scenarios.byName(scenario).generate(new ScenarioParams(ranks, 1, values), trace);
        return new SimulatedRun(Analysis.run(trace, AnalysisOptions.defaults().withThreads(2).withRootCauses(true))
                .cube());
    }

    /** The value of a metric at a call path (below the root) and rank. */
    double at(String metric, int rank, String... path) {
        List<String> names = List.of(path);
        for (int p = 0; p < cube.callPaths().size(); p++) {
            List<String> full = cube.pathNames(p);
            if (full.size() == names.size() + 1 && full.subList(1, full.size()).equals(names)) {
                return cube.get(cube.metricIndex(metric), p, rank);
            }
        }
        throw new AssertionError("no call path " + names);
    }

    double total(String metric) {
        return cube.total(metric);
    }
}
