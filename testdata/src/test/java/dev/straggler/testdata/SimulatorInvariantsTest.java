package dev.straggler.testdata;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceValidator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulator's own invariants, on every scenario of the catalogue at several rank counts. */
class SimulatorInvariantsTest {

    /** Small problem sizes, so that every scenario runs in milliseconds. */
    static final Map<String, Map<String, String>> SMALL = Map.of(
            "deep-calltree", Map.of("iterations", "3", "calls", "10"),
            "bt-like", Map.of("niter", "2"),
            "gyro-like", Map.of("steps", "2", "noise", "0.05"),
            "sweep3d-like", Map.of("iterations", "1", "kblocks", "3", "noise", "0.05"),
            "graph500-like", Map.of("nbfs", "2", "noise", "0.05"));

    static Stream<Arguments> scenarios() {
        List<Arguments> l = new ArrayList<>();
        for (Scenario s : Scenarios.all()) {
            int[] sizes = s.name().equals("bt-like") ? new int[] {1, 4, 9} : new int[] {1, 2, 5, 8};
            for (int n : sizes) {
                if (n >= s.minRanks()) {
                    l.add(Arguments.of(s.name(), n));
                }
            }
        }
        return l.stream();
    }

    static MemoryTrace generate(String name, int ranks, long seed) throws Exception {
        return generate(name, ranks, seed, Map.of());
    }

    static MemoryTrace generate(String name, int ranks, long seed, Map<String, String> extra) throws Exception {
        MemoryTrace t = new MemoryTrace(name);
        Map<String, String> v = new HashMap<>(SMALL.getOrDefault(name, Map.of()));
        v.putAll(extra);
        Scenarios.byName(name).generate(new ScenarioParams(ranks, seed, v), t);
        return t;
    }

    /** Causality holds in true time; the clock-violation scenario breaks it on purpose through its skewed clock. */
    static final Map<String, String> TRUE_CLOCKS = Map.of("skew.rank", "-1");

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("scenarios")
    void traceIsWellFormedAndEnterLeaveBalance(String name, int ranks) throws Exception {
        MemoryTrace t = generate(name, ranks, 3);
        TraceValidator.Report r = TraceValidator.validate(t);
        assertTrue(r.ok(), () -> name + ": " + r.problems());
        for (int loc = 0; loc < t.definitions().locations().size(); loc++) {
            EventBatch b = t.readLocation(loc);
            int depth = 0;
            for (int i = 0; i < b.size; i++) {
                depth += b.kind[i] == EventKind.ENTER_CODE ? 1 : b.kind[i] == EventKind.LEAVE_CODE ? -1 : 0;
                assertTrue(depth >= 0, "more LEAVEs than ENTERs at rank " + loc);
            }
            assertEquals(0, depth, "unbalanced ENTER/LEAVE at rank " + loc);
        }
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("scenarios")
    void noReceiveCompletesBeforeItsMessageCouldArrive(String name, int ranks) throws Exception {
        MemoryTrace t = generate(name, ranks, 3, TRUE_CLOCKS);
        var net = Scenarios.byName(name);
        double latency = Double.parseDouble(net.parameters().stream().filter(p -> p.name().equals("latency"))
                .findFirst().orElseThrow().defaultValue());
        long lat = Math.round(latency * 1e9);
        TraceWaitStates w = new TraceWaitStates(t);
        for (TraceWaitStates.Recv r : w.receives) {
            assertTrue(r.time >= r.matched.time() + lat, () -> name + ": receive at rank " + r.rank + " at t=" + r.time
                    + " of a message sent at " + r.matched.time() + " by rank " + r.matched.rank());
            assertTrue(r.call.enter <= r.time && r.time <= r.call.leave, "receive record outside its call");
        }
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("scenarios")
    void collectivesEndOnlyAfterTheArrivalsTheyDependOn(String name, int ranks) throws Exception {
        MemoryTrace t = generate(name, ranks, 3, TRUE_CLOCKS);
        TraceWaitStates w = new TraceWaitStates(t);
        Map<String, List<TraceWaitStates.Coll>> instances = new HashMap<>();
        Map<String, Integer> seq = new HashMap<>();
        for (TraceWaitStates.Coll c : w.collectives) {
            int k = seq.merge(c.rank() + ":" + c.comm(), 1, Integer::sum);
            instances.computeIfAbsent(c.comm() + ":" + k, x -> new ArrayList<>()).add(c);
        }
        var defs = t.definitions();
        for (List<TraceWaitStates.Coll> inst : instances.values()) {
            var comm = defs.communicator(inst.get(0).comm());
            assertEquals(comm.size(), inst.size(), "every member takes part");
            long[] begin = new long[comm.size()];
            long[] end = new long[comm.size()];
            for (TraceWaitStates.Coll c : inst) {
                assertEquals(inst.get(0).op(), c.op(), "same operation on every member");
                int j = comm.localRank(c.rank());
                begin[j] = c.begin();
                end[j] = c.end();
            }
            long max = Long.MIN_VALUE;
            for (long b : begin) {
                max = Math.max(max, b);
            }
            CollectiveOp op = inst.get(0).op();
            int root = inst.get(0).root();
            long prefix = Long.MIN_VALUE;
            for (int j = 0; j < begin.length; j++) {
                prefix = Math.max(prefix, begin[j]);
                long dep = switch (op) {
                    case BCAST, SCATTER -> j == root ? begin[j] : Math.max(begin[j], begin[root]);
                    case REDUCE, GATHER -> j == root ? max : begin[j];
                    case SCAN -> prefix;
                    default -> max;
                };
                assertTrue(end[j] >= dep, name + ": " + op + " rank " + j + " of " + comm.name() + " ends at " + end[j]
                        + " before its prerequisites arrived at " + dep);
            }
        }
    }

    @ParameterizedTest(name = "{0} on {1} ranks")
    @MethodSource("scenarios")
    void sameSeedGivesIdenticalTraces(String name, int ranks) throws Exception {
        MemoryTrace a = generate(name, ranks, 11);
        MemoryTrace b = generate(name, ranks, 11);
        assertEquals(a.definitions(), b.definitions());
        for (int loc = 0; loc < a.definitions().locations().size(); loc++) {
            assertTrue(a.readLocation(loc).sameEvents(b.readLocation(loc)), "location " + loc + " differs");
        }
    }

    @Test
    void skewedClockRecordsReceivesBeforeTheirSends() throws Exception {
        TraceWaitStates w = new TraceWaitStates(generate("clock-violation", 2, 3));
        assertFalse(w.receives.isEmpty());
        for (TraceWaitStates.Recv r : w.receives) {
            assertTrue(r.time < r.matched.time(), "the sender's clock runs 0.1 s ahead, more than any transfer");
        }
    }

    @Test
    void noisyScenariosDependOnTheSeed() throws Exception {
        MemoryTrace a = generate("sweep3d-like", 4, 1);
        MemoryTrace b = generate("sweep3d-like", 4, 2);
        assertFalse(a.readLocation(0).sameEvents(b.readLocation(0)));
    }

    @Test
    void expectationsAreDeterministicAndDoNotNeedATrace() {
        for (Scenario s : Scenarios.all()) {
            if (s.name().equals("bt-like")) {
                continue;
            }
            ScenarioParams p = new ScenarioParams(6, 5, SMALL.getOrDefault(s.name(), Map.of()));
            assertEquals(s.expected(p).toJson(), s.expected(p).toJson(), s.name());
        }
    }
}
