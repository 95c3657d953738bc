package dev.straggler.patterns.reduce;

import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The policy on {@link HandTraces#twoCallersOfSend}: main → f|g → MPI_Send, main → h → leaf ×1000. */
class ReductionPlannerTest {
    /** scorep-score's proposal: the policy these expectations were derived for. */
    private static final ReductionOptions SHORT =
            ReductionOptions.defaults().withPolicy(ReductionOptions.Policy.SHORT_FUNCTIONS);

    private static RegionStatistics stats() throws IOException {
        return RegionStatistics.of(TraceProfiler.profile(HandTraces.twoCallersOfSend(List.of())));
    }

    @Test
    void callersOfMpiAreComAndTheOthersUsr() throws IOException {
        RegionStatistics s = stats();
        for (String com : List.of("main", "f", "g")) {
            assertEquals(ScoreType.COM, s.type(id(s, com)), com);
        }
        assertEquals(ScoreType.USR, s.type(id(s, "h")));
        assertEquals(ScoreType.USR, s.type(id(s, "leaf")));
        assertEquals(ScoreType.MPI, s.type(id(s, "MPI_Send")));
    }

    @Test
    void paperPolicyDropsEveryUserFunctionThatNeverLeadsToMpiHoweverLong() throws IOException {
        // h runs 20 µs per visit and never communicates: the TAU/KOJAK paper leaves it out with leaf
        ReductionPlan p = ReductionPlanner.plan(stats(), ReductionOptions.defaults());
        assertEquals(Set.of("h", "leaf"), Set.copyOf(p.excludedNames()));
        assertTrue(p.policy().contains("TAU/KOJAK"), p.policy());
    }

    @Test
    void functionsThatCauseWaitingAreKeptUnderThePaperPolicy() throws IOException {
        ReductionPlan p = ReductionPlanner.plan(stats(),
                ReductionOptions.defaults().withCauses(java.util.Map.of("h", "40.0 % of all delay costs")));
        assertEquals(List.of("leaf"), p.excludedNames());
        assertTrue(p.decisions().stream().anyMatch(d -> d.name().equals("h")
                && d.reason().equals("causes waiting: 40.0 % of all delay costs")));
    }

    @Test
    void shortFunctionPolicyDropsOnlyTheShortHeavyUserFunction() throws IOException {
        // leaf: 10 ns per visit and most of the bytes; h is long as a whole (20 µs per visit)
        ReductionPlan p = ReductionPlanner.plan(stats(), SHORT);
        assertEquals(List.of("leaf"), p.excludedNames());
        assertTrue(p.budgetMet());
    }

    @Test
    void budgetDropsUserFunctionsBeforeComAndNeverMergesCallPathsWithWaitStates() throws IOException {
        RegionStatistics s = stats();
        ReductionPlan p = ReductionPlanner.plan(s, SHORT.withBudget(0, false));
        Set<String> dropped = Set.copyOf(p.excludedNames());
        assertTrue(dropped.containsAll(Set.of("leaf", "h", "main")), dropped.toString());
        assertFalse(dropped.contains("MPI_Send"));
        // one of f and g goes; dropping the other too would make main/f/MPI_Send and main/g/MPI_Send one path
        assertNotEquals(dropped.contains("f"), dropped.contains("g"));
        assertFalse(p.budgetMet());
        assertTrue(p.notes().stream().anyMatch(n -> n.contains("fold call paths with wait states together")), p.notes().toString());
        assertTrue(p.notes().stream().anyMatch(n -> n.contains("out of reach")), p.notes().toString());
    }

    @Test
    void callPathsWithoutWaitStatesMayMerge() throws IOException {
        RegionStatistics s = stats();
        boolean[] none = new boolean[s.profile().nodeCount()];
        ReductionPlan p = ReductionPlanner.plan(s, SHORT.withBudget(0, false), none);
        assertTrue(p.excludedNames().containsAll(List.of("f", "g")), p.excludedNames().toString());
        assertFalse(p.excludedNames().contains("MPI_Send"));
    }

    @Test
    void budgetStopsAsSoonAsTheTraceFits() throws IOException {
        RegionStatistics s = stats();
        long withoutLeaf = s.totals(null).bytes() - s.bytes(id(s, "leaf"));
        ReductionPlan p = ReductionPlanner.plan(s, SHORT.withShortCall(0, 0)
                .withBudget(withoutLeaf, false));
        assertEquals(List.of("leaf"), p.excludedNames());
        assertTrue(p.budgetMet());
        assertEquals(withoutLeaf, p.after().bytes());
    }

    @Test
    void perRankBudgetBoundsTheLargestRank() throws IOException {
        RegionStatistics s = stats();
        ReductionPlan p = ReductionPlanner.plan(s, SHORT.withShortCall(0, 0)
                .withBudget(s.totals(null).maxBytes() - 1, true));
        assertTrue(p.after().maxBytes() < s.totals(null).maxBytes());
        assertTrue(p.budgetMet());
    }

    @Test
    void rulesReplaceTheDefaultCriterion() throws IOException, TraceFormatException {
        RegionStatistics s = stats();
        ReductionPlan p = ReductionPlanner.plan(s, SHORT
                .withRules(TauReduceRules.parse("numcalls = 1 & usec < 100000", "r")));
        // h is called once; main too, but it is COM and dropping it merges nothing, so the rule may take it
        assertEquals(Set.of("h", "main"), Set.copyOf(p.excludedNames()));
        assertTrue(p.decisions().stream().filter(d -> d.name().equals("h")).findFirst().orElseThrow()
                .reason().startsWith("rule: numcalls = 1"));
    }

    @Test
    void keptNamesAreNeverDropped() throws IOException {
        ReductionPlan p = ReductionPlanner.plan(stats(), SHORT.withKeep(Set.of("leaf")));
        assertEquals(List.of(), p.excludedNames());
    }

    @Test
    void estimateRemovesTheDroppedEnterLeaveRecords() throws IOException {
        RegionStatistics s = stats();
        ReductionPlan p = ReductionPlanner.plan(s, SHORT);
        assertEquals(p.before().events() - 2000, p.after().events());
        MemoryTrace reduced = new MemoryTrace("r");
        TraceReducer.Result r = TraceReducer.write(HandTraces.twoCallersOfSend(List.of()), p.asFilter(), reduced, null);
        assertEquals(p.after().events(), r.eventsAfter());
        assertEquals(p.after().bytes(), r.bytesAfter());
    }

    static int id(RegionStatistics s, String name) {
        return s.presentRegions().stream().filter(r -> s.regions().get(r).name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * main → solve → par (an OpenMP parallel region) → kernel, main → tiny ×1000: under any budget, solve stays,
     * since the team's call paths hang under it; the short user function below the region may go.
     */
    @Test
    void functionsOnACallPathToAnOpenMpConstructAreNeverDropped() throws Exception {
        StringBuilder t = new StringBuilder("""
                straggler-text 1
                region 0 main paradigm=USER role=FUNCTION
                region 1 solve paradigm=USER role=FUNCTION
                region 2 par paradigm=OPENMP role=PARALLEL
                region 3 kernel paradigm=USER role=FUNCTION
                region 4 tiny paradigm=USER role=FUNCTION
                location 0 rank=0
                0 0 ENTER main
                0 1 ENTER solve
                0 2 ENTER par
                0 3 ENTER kernel
                0 4 LEAVE kernel
                0 5 LEAVE par
                0 6 LEAVE solve
                """);
        for (int i = 0; i < 1000; i++) {
            t.append("0 ").append(10 + i).append(" ENTER tiny\n0 ").append(10 + i).append(" LEAVE tiny\n");
        }
        t.append("0 2000 LEAVE main\n");
        RegionStatistics s = RegionStatistics.of(TraceProfiler.profile(
                dev.straggler.trace.text.TextTraceReader.read(new java.io.StringReader(t.toString()), "omp")));
        ReductionPlan p = ReductionPlanner.plan(s, SHORT.withBudget(0, false));
        assertFalse(p.excludedNames().contains("solve"), p.excludedNames().toString());
        assertFalse(p.excludedNames().contains("main"), p.excludedNames().toString());
        assertFalse(p.excludedNames().contains("par"), "OpenMP constructs are never filtered");
        assertTrue(p.excludedNames().contains("tiny"), p.excludedNames().toString());
        assertTrue(p.decisions().stream().anyMatch(d -> d.name().equals("solve")
                && d.reason().equals("leads to an OpenMP construct")), p.decisions().toString());
    }
}
