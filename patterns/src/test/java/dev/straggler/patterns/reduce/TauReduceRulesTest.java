package dev.straggler.patterns.reduce;

import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * tau_reduce's rule grammar (reference §4.2) and its fields, evaluated on the deep-calltree scenario whose values
 * are known in closed form: 2 ranks, 3 steps, each helper called {@code calls} times per kernel and lasting 50 ns
 * (5e-8 s), the kernel's own work 1e-4 s per step.
 */
class TauReduceRulesTest {
    static final int RANKS = 2;
    static final int STEPS = 3;
    static final int CALLS = 40;
    static MemoryTrace trace;
    static RegionStatistics stats;

    @BeforeAll
    static void generate() throws Exception {
        trace = new MemoryTrace("deep");
        Scenarios.byName("deep-calltree").generate(new ScenarioParams(RANKS, 1,
                Map.of("iterations", Integer.toString(STEPS), "calls", Integer.toString(CALLS), "depth", "3")), trace);
        stats = RegionStatistics.of(TraceProfiler.profile(trace));
    }

    private static Set<String> selected(String rules) throws TraceFormatException {
        TauReduceRules r = TauReduceRules.parse(rules, "test");
        double total = stats.totals(null).time();
        Set<String> out = new HashSet<>();
        for (int id : stats.presentRegions()) {
            if (r.selects(stats, id, total)) {
                out.add(stats.regions().get(id).name());
            }
        }
        return out;
    }

    static final Set<String> HELPERS = Set.of("vec_get", "index_of", "flux_limiter", "clamp");

    @Test
    void numcallsIsTheCallCountSummedOverRanks() throws Exception {
        // each helper: STEPS * CALLS per rank = 120, 240 over both ranks; the chain: STEPS per rank = 6
        assertEquals(HELPERS, selected("numcalls = " + (long) RANKS * STEPS * CALLS));
        assertEquals(HELPERS, selected("numcalls > 100"));
    }

    @Test
    void usecsPerCallIsInclusiveMicrosecondsPerCall() throws Exception {
        // helpers 0.05 µs; level_1 includes the kernel: 100 µs + 4 * 40 * 0.05 µs = 108 µs
        assertEquals(HELPERS, selected("usecs/call < 0.06"));
        int level1 = trace.definitions().regionId("level_1");
        assertEquals(108.0, TauReduceRules.value(TauReduceRules.Field.USECS_PER_CALL, stats, level1, 1), 1e-6);
        assertEquals(0.0, TauReduceRules.value(TauReduceRules.Field.USEC, stats, level1, 1), 1e-9);
        assertEquals(RANKS * STEPS * 108.0, TauReduceRules.value(TauReduceRules.Field.CUMUSEC, stats, level1, 1), 1e-6);
    }

    @Test
    void ampersandJoinsConditionsAndLinesAreAlternatives() throws Exception {
        assertEquals(Set.of(), selected("numcalls > 100 & usec > 1000"));
        assertEquals(Set.of("kernel"), selected("usec > 500 & numsubrs > 0"));
        Set<String> either = new HashSet<>(HELPERS);
        either.add("kernel");
        assertEquals(either, selected("# helpers, or the kernel\nnumcalls > 100\n\nusec > 500 & numsubrs > 0\n"));
    }

    @Test
    void numsubrsCountsCallsToOtherRegions() throws Exception {
        int kernel = trace.definitions().regionId("kernel");
        assertEquals(RANKS * STEPS * 4L * CALLS, stats.subroutineCalls(kernel));
    }

    @Test
    void groupPrefixRestrictsARuleToRegionsOfThatType() throws Exception {
        assertEquals(Set.of("MPI_Allreduce"), selected("MPI:numcalls = " + RANKS * STEPS));
        assertEquals(Set.of("solve_step", "exchange"), selected("COM:numcalls = " + RANKS * STEPS));
        assertEquals(Set.of("level_1", "level_2", "level_3", "kernel"), selected("USR:numcalls = " + RANKS * STEPS));
        assertEquals(selected("numcalls = " + RANKS * STEPS), selected("TAU_DEFAULT:numcalls = " + RANKS * STEPS));
    }

    @Test
    void defaultRuleIsTauReducesOwn() {
        assertEquals("numcalls > 1000000 & usecs/call < 2", TauReduceRules.defaults().format().strip());
        assertEquals(2, TauReduceRules.defaults().rules().get(0).conditions().size());
    }

    @Test
    void rulesRoundTripThroughTheirText() throws Exception {
        String text = "numcalls > 1000000 & usecs/call < 2\nUSR:percent < 0.5\ncumusec = 12.5 & stddev > 3\n";
        TauReduceRules r = TauReduceRules.parse(text, "t");
        assertEquals(text, r.format());
        assertEquals(r.rules(), TauReduceRules.parse(r.format(), "again").rules());
    }

    @Test
    void syntaxErrorsNameTheLine() {
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> TauReduceRules.parse("numcalls > 5\n\nnumcals > 3\n", "rules.txt"));
        assertTrue(e.getMessage().startsWith("rules.txt:3: unknown field 'numcals'"), e.getMessage());
        assertTrue(assertThrows(TraceFormatException.class, () -> TauReduceRules.parse("usec 5", "r"))
                .getMessage().contains("no operator"));
        assertTrue(assertThrows(TraceFormatException.class, () -> TauReduceRules.parse("usec < five", "r"))
                .getMessage().contains("not a number"));
        assertTrue(assertThrows(TraceFormatException.class, () -> TauReduceRules.parse("usec < 5 &", "r"))
                .getMessage().contains("empty condition"));
        assertTrue(assertThrows(TraceFormatException.class, () -> TauReduceRules.parse("NOPE:usec < 5", "r"))
                .getMessage().contains("unknown group 'NOPE'"));
    }

    @Test
    void hardwareCounterFieldsParseButCannotBeEvaluatedOnATrace() throws Exception {
        TauReduceRules r = TauReduceRules.parse("count > 10 & counts/call < 3", "r");
        assertEquals(2, r.rules().get(0).conditions().size());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.checkEvaluable("r"));
        assertTrue(e.getMessage().contains("hardware-counter field 'count'"), e.getMessage());
    }

    @Test
    void percentIsInclusiveTimeOverTheRunsTotal() throws Exception {
        int main = trace.definitions().regionId("main");
        double total = stats.totals(null).time();
        double p = TauReduceRules.value(TauReduceRules.Field.PERCENT, stats, main, total);
        assertEquals(100 * stats.inclusiveTime(main) / total, p, 1e-9);
        assertTrue(p > 90 && p <= 100, "main's share " + p);
        assertEquals(List.of(), TauReduceRules.parse("# only a comment\n", "c").rules());
    }
}
