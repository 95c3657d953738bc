package dev.straggler.patterns.reduce;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.filter.FilteredTrace;
import dev.straggler.trace.filter.RegionFilter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wait-state analysis of a reduced trace equals the original's: every wait-state pattern on every MPI call
 * path, once the dropped functions are left out of the original's call paths.
 */
class FilteredAnalysisTest {

    @Test
    void deepCallTreeWithTheDefaultPlanKeepsEverySeverity() throws Exception {
        MemoryTrace t = deepCallTree();
        ReductionPlan plan = ReductionPlanner.plan(RegionStatistics.of(TraceProfiler.profile(t)), ReductionOptions.defaults());
        assertTrue(sameWaitStates(t, plan.asFilter(), plan.excludedNames()) > 0);
    }

    @Test
    void deepCallTreeUnderABudgetThatDropsComFunctionsKeepsEverySeverity() throws Exception {
        MemoryTrace t = deepCallTree();
        RegionStatistics s = RegionStatistics.of(TraceProfiler.profile(t));
        ReductionPlan plan = ReductionPlanner.plan(s, ReductionOptions.defaults().withBudget(0, false));
        assertTrue(plan.excludedNames().containsAll(List.of("solve_step", "exchange")), plan.excludedNames().toString());
        assertTrue(sameWaitStates(t, plan.asFilter(), plan.excludedNames()) > 0);
    }

    @Test
    void btWithTheWFilterKeepsEveryScalascaPatternValue() throws Exception {
        RegionFilter w = FilterFiles.read(RealTraces.dir().resolve("npb-W.filter"));
        try (TraceSource src = Traces.open(RealTraces.folder("npb-bt.S-4"))) {
            List<String> dropped = new ArrayList<>();
            FilteredTrace view = new FilteredTrace(src, w);
            for (var r : src.definitions().regions()) {
                if (view.excluded(r.id())) {
                    dropped.add(r.name());
                }
            }
            assertTrue(sameWaitStates(src, w, dropped) > 0);
        }
    }

    @Test
    void btUnderABudgetGuardedByItsOwnAnalysisKeepsEverySeverity() throws Exception {
        try (TraceSource src = Traces.open(RealTraces.folder("npb-bt.S-4"))) {
            CallTreeProfile p = TraceProfiler.profile(src);
            RegionStatistics s = RegionStatistics.of(p);
            boolean[] carries = WaitStates.fromCube(Analysis.run(src, AnalysisOptions.defaults()).cube(), p);
            ReductionPlan plan = ReductionPlanner.plan(s, ReductionOptions.defaults().withBudget(0, false), carries);
            // COM functions go too, but never two whose removal would fold call paths with wait states together
            assertTrue(plan.excludedNames().stream().anyMatch(n -> s.type(ReductionPlannerTest.id(s, n)) == ScoreType.COM),
                    plan.excludedNames().toString());
            assertTrue(plan.notes().stream().anyMatch(n -> n.contains("wait states")), plan.notes().toString());
            int compared = sameWaitStates(src, plan.asFilter(), plan.excludedNames());
            assertTrue(compared > 0);
        }
    }

    private static MemoryTrace deepCallTree() throws Exception {
        MemoryTrace t = new MemoryTrace("deep");
        Scenarios.byName("deep-calltree").generate(new ScenarioParams(4, 1,
                Map.of("iterations", "5", "calls", "60", "imbalance", "2e-4")), t);
        return t;
    }

    /** Compares every wait-state value; returns how many non-zero values were compared. */
    private static int sameWaitStates(TraceSource original, RegionFilter filter, List<String> dropped) throws Exception {
        SeverityCube before = Analysis.run(original, AnalysisOptions.defaults()).cube();
        SeverityCube after = Analysis.run(new FilteredTrace(original, filter), AnalysisOptions.defaults()).cube();
        Set<String> gone = new HashSet<>(dropped);
        Map<List<String>, Integer> afterPaths = new HashMap<>();
        for (int c = 0; c < after.callPaths().size(); c++) {
            afterPaths.put(after.pathNames(c), c);
        }
        int compared = 0;
        for (String metric : WaitStates.PATTERNS) {
            int mb = before.metricIndex(metric);
            int ma = after.metricIndex(metric);
            if (mb < 0) {
                continue;
            }
            // the collapsed call paths of the original, summed where several collapse into one
            Map<List<String>, double[]> expected = new HashMap<>();
            for (int c = 0; c < before.callPaths().size(); c++) {
                double[] row = before.rowOrNull(mb, c);
                if (row == null) {
                    continue;
                }
                List<String> collapsed = before.pathNames(c).stream().filter(n -> !gone.contains(n)).toList();
                double[] sum = expected.computeIfAbsent(collapsed, k -> new double[row.length]);
                for (int l = 0; l < row.length; l++) {
                    sum[l] += row[l];
                }
            }
            for (Map.Entry<List<String>, double[]> e : expected.entrySet()) {
                Integer c = afterPaths.get(e.getKey());
                double[] got = c == null ? null : after.rowOrNull(ma, c);
                for (int l = 0; l < e.getValue().length; l++) {
                    double want = e.getValue()[l];
                    double have = got == null ? 0 : got[l];
                    assertEquals(want, have, 1e-12 + 1e-9 * Math.abs(want), metric + " at " + e.getKey() + " location " + l);
                    compared += want != 0 ? 1 : 0;
                }
            }
            // nothing appears in the reduced trace that the original did not have
            for (int c = 0; c < after.callPaths().size(); c++) {
                if (after.rowOrNull(ma, c) != null && !expected.containsKey(after.pathNames(c))) {
                    double[] row = after.rowOrNull(ma, c);
                    for (double v : row) {
                        assertEquals(0, v, 1e-12, metric + " appears at " + after.pathNames(c));
                    }
                }
            }
        }
        return compared;
    }
}
