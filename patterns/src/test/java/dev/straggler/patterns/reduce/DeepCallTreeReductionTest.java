package dev.straggler.patterns.reduce;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Options;
import dev.straggler.trace.otf2.Otf2Writer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The instrumentation-overhead scenario ({@code deep-calltree}): its closed-form ground truth says which functions
 * an include list must drop and keep, and how many calls each makes; the reduction estimate is checked against the
 * trace actually written with the plan.
 */
class DeepCallTreeReductionTest {
    /** scorep-score's proposal: the policy these expectations were derived for. */
    private static final ReductionOptions SHORT =
            ReductionOptions.defaults().withPolicy(ReductionOptions.Policy.SHORT_FUNCTIONS);

    static final int RANKS = 4;
    static MemoryTrace trace;
    static ExpectedSeverities.Filter truth;
    static RegionStatistics stats;
    static ReductionPlan plan;

    @BeforeAll
    static void generate() throws IOException {
        trace = new MemoryTrace("deep-calltree");
        ExpectedSeverities e = Scenarios.byName("deep-calltree")
                .generate(new ScenarioParams(RANKS, 3, Map.of("imbalance", "1e-4")), trace).expected();
        truth = e.filter();
        stats = RegionStatistics.of(TraceProfiler.profile(trace));
        plan = ReductionPlanner.plan(stats, SHORT);
    }

    @Test
    void shortFunctionPolicyDropsExactlyTheShortHelpers() {
        assertEquals(new HashSet<>(truth.exclude()), new HashSet<>(plan.excludedNames()));
        assertTrue(plan.keptNames().containsAll(truth.keep()), "kept: " + plan.keptNames());
    }

    @Test
    void visitsPerRankAreTheScenariosCallCounts() {
        for (Map.Entry<String, Long> c : truth.callsPerRank().entrySet()) {
            int r = trace.definitions().regionId(c.getKey());
            for (int k = 0; k < RANKS; k++) {
                assertEquals(c.getValue(), stats.visits(r, k), c.getKey() + " on rank " + k);
            }
        }
    }

    @Test
    void functionsAboveTheAllreduceAreComAndTheRestUsr() {
        for (String com : List.of("main", "solve_step", "exchange")) {
            assertEquals(ScoreType.COM, stats.type(trace.definitions().regionId(com)), com);
        }
        for (String usr : Stream.concat(truth.exclude().stream(), Stream.of("kernel", "level_1", "level_8")).toList()) {
            assertEquals(ScoreType.USR, stats.type(trace.definitions().regionId(usr)), usr);
        }
        assertEquals(ScoreType.MPI, stats.type(trace.definitions().regionId("MPI_Allreduce")));
    }

    @Test
    void droppedShareOfFunctionEventsIsTheScenariosFraction() {
        long function = 0;
        long dropped = 0;
        for (int r : stats.presentRegions()) {
            long enterLeave = 2 * stats.visits(r);
            function += enterLeave;
            dropped += plan.excluded(r) ? enterLeave : 0;
        }
        assertEquals(truth.shortCallEventFraction(), dropped / (double) function, 1e-12);
        assertTrue(dropped / (double) function > 0.98);
    }

    @Test
    void estimatedEventsAreExactlyThoseOfTheReducedTrace(@TempDir Path tmp) throws IOException {
        MemoryTrace reduced = new MemoryTrace("reduced");
        TraceReducer.Result r = TraceReducer.write(trace, plan.asFilter(), reduced, null);
        assertEquals(plan.before().events(), r.eventsBefore());
        assertEquals(plan.after().events(), r.eventsAfter());
        assertEquals(r.eventsAfter(), reduced.eventCount());
        long helperVisits = truth.exclude().stream().mapToLong(h -> truth.callsPerRank().get(h)).sum() * RANKS;
        assertEquals(r.eventsBefore() - 2 * helperVisits, r.eventsAfter());
        assertTrue(TraceValidator.validate(reduced).ok(), TraceValidator.validate(reduced).problems().toString());
    }

    @Test
    void estimatedBytesAreWithinFivePercentOfTheWrittenOtf2(@TempDir Path tmp) throws IOException {
        Path anchor = tmp.resolve("reduced").resolve("traces.otf2");
        TraceReducer.Result r;
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            r = TraceReducer.write(trace, plan.asFilter(), w, null);
        }
        long written = eventFileBytes(anchor.resolveSibling("traces"));
        double error = Math.abs(plan.after().bytes() - written) / (double) written;
        assertTrue(error < 0.05, "estimate " + plan.after().bytes() + " vs written " + written);
        // the count made while writing differs from the estimate only where a dropped event shared its timestamp
        assertEquals(r.bytesAfter(), plan.after().bytes(), 0.01 * r.bytesAfter());
        try (Otf2Archive a = Otf2Archive.open(anchor, Otf2Options.strict())) {
            assertEquals(r.eventsAfter(), a.eventCount());
            assertTrue(TraceValidator.validate(a).ok());
        }
    }

    static long eventFileBytes(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".evt")).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
        }
    }
}
