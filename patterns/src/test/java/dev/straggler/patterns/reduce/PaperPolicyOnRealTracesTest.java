package dev.straggler.patterns.reduce;

import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TAU/KOJAK paper's include list (reference §9.2) on real Score-P traces: every caller of every MPI call stays
 * instrumented, and every user function that never leads to MPI is dropped.
 */
class PaperPolicyOnRealTracesTest {
    @ParameterizedTest
    @ValueSource(strings = {"npb-bt.S-4", "npb-lu.S-4", "lulesh-s8-8"})
    void everyCallerOfMpiIsKeptAndEveryOtherUserFunctionDropped(String name) throws IOException {
        RegionStatistics s;
        try (TraceSource src = Traces.open(RealTraces.folder(name))) {
            s = RegionStatistics.of(TraceProfiler.profile(src));
        }
        ReductionPlan plan = ReductionPlanner.plan(s, ReductionOptions.defaults());
        CallTreeProfile t = s.profile();
        boolean[] leadsToMpi = new boolean[s.regions().size()];
        for (int n = 0; n < t.nodeCount(); n++) {
            if (s.type(t.region(n)) == ScoreType.MPI) {
                for (int a = t.parent(n); a >= 0; a = t.parent(a)) {
                    leadsToMpi[t.region(a)] = true;
                    assertFalse(plan.excluded()[t.region(a)], name + ": caller of MPI dropped: "
                            + s.regions().get(t.region(a)).name());
                }
            }
        }
        for (int r : s.presentRegions()) {
            if (s.type(r) == ScoreType.USR) {
                assertFalse(leadsToMpi[r]);
                assertTrue(plan.excluded()[r] || plan.decisions().stream().anyMatch(d -> d.region() == r
                        && d.reason().startsWith("shares its name")), name + ": user function kept: "
                        + s.regions().get(r).name());
            }
        }
    }
}
