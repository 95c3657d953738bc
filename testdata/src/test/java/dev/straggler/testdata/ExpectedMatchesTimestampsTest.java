package dev.straggler.testdata;

import dev.straggler.testdata.scenario.Metrics;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The closed-form wait states of every exact scenario equal what its trace's timestamps imply under Scalasca's
 * definitions, as recomputed by the independent {@link TraceWaitStates} oracle, at several rank counts and
 * parameter variants (communicator splits where a scenario has them, else a network with latency, call overhead
 * and exit stagger); for the hybrid scenarios so do the OpenMP metrics, per thread ({@link OpenMpOracle}), also with
 * other team sizes and OpenMP overheads.
 */
class ExpectedMatchesTimestampsTest {

    static Stream<Arguments> cases() {
        List<Arguments> l = new ArrayList<>();
        for (Scenario s : Scenarios.all()) {
            if (s.scalingFamily()) {
                continue;
            }
            if (s.name().equals("deep-calltree")) {
                l.add(Arguments.of(s.name(), 3, Map.of("iterations", "3", "calls", "5", "imbalance", "1e-5")));
                l.add(Arguments.of(s.name(), 4, Map.of("iterations", "2", "calls", "3", "stagger", "1e-6")));
                continue;
            }
            for (int n : new int[] {1, 2, 3, 4, 7}) {
                if (n >= s.minRanks()) {
                    l.add(Arguments.of(s.name(), n, Map.of()));
                }
            }
            if (s.parameters().stream().anyMatch(p -> p.name().equals("comm"))) {
                l.add(Arguments.of(s.name(), 6, Map.of("comm", "halves")));
                l.add(Arguments.of(s.name(), 5, Map.of("comm", "halves", "stagger", "3e-6")));
            } else {
                l.add(Arguments.of(s.name(), 5, Map.of("latency", "2e-6", "overhead", "5e-7", "stagger", "3e-6")));
            }
        }
        l.add(Arguments.of("late-receiver", 4, Map.of("mode", "send", "bytes", "100000")));
        l.add(Arguments.of("late-receiver", 4, Map.of("mode", "send", "bytes", "8")));
        l.add(Arguments.of("late-sender", 4, Map.of("mode", "send", "bytes", "8", "overhead", "0.02")));
        l.add(Arguments.of("late-sender-nonblocking", 4, Map.of("bytes", "100000")));
        l.add(Arguments.of("late-receiver-nonblocking", 3, Map.of("eager", "1000000")));
        l.add(Arguments.of("waitall-late-senders", 5, Map.of("bytes", "70000")));
        l.add(Arguments.of("wrong-order-different", 5, Map.of("bytes", "70000")));
        l.add(Arguments.of("imbalance-at-barrier", 8, Map.of("dist", "linear", "stagger", "1e-4")));
        l.add(Arguments.of("imbalance-at-alltoall", 8, Map.of("dist", "peak", "peak", "5", "bytes", "4096")));
        l.add(Arguments.of("late-broadcast", 8, Map.of("root", "3", "peak", "3", "stagger", "2e-6")));
        l.add(Arguments.of("early-reduce", 8, Map.of("root", "2", "peak", "2")));
        l.add(Arguments.of("early-scan", 6, Map.of("dist", "cyclic2")));
        l.add(Arguments.of("clock-violation", 4, Map.of("skew.drift", "1e-3")));
        l.add(Arguments.of("imbalance-at-barrier", 4, Map.of("skew.rank", "2", "skew.offset", "0.001")));
        l.add(Arguments.of("gyro-like", 20, Map.of("steps", "3", "noise", "0.05", "units", "100")));
        l.add(Arguments.of("gyro-like", 12, Map.of("steps", "2", "group", "5", "stagger", "1e-6")));
        l.add(Arguments.of("graph500-like", 5, Map.of("nbfs", "3", "noise", "0.1")));
        l.add(Arguments.of("graph500-like", 3, Map.of("nbfs", "2", "latency", "2e-6", "overhead", "5e-7")));
        for (String hybrid : List.of("omp-imbalance-explicit-barrier", "omp-imbalance-implicit-barrier",
                "omp-critical-contention", "omp-serial-phase", "hybrid-omp-to-late-sender")) {
            l.add(Arguments.of(hybrid, 3, hybrid.startsWith("hybrid") ? Map.of("threads", "1", "slow_thread", "0")
                    : Map.of("threads", "1")));
            l.add(Arguments.of(hybrid, 2, Map.of("threads", "5", "omp.fork", "3e-6", "omp.fork_stagger", "2e-6",
                    "omp.join", "4e-6", "omp.barrier", "1e-6", "reps", "2")));
            l.add(Arguments.of(hybrid, 3, Map.of("threads", "3", "skew.rank", "1", "skew.offset", "0.002",
                    "skew.drift", "1e-4")));
        }
        // a stagger longer than the critical section: late threads find the lock free
        l.add(Arguments.of("omp-critical-contention", 2, Map.of("omp.fork_stagger", "0.0015")));
        // the slow thread is rank 0's master; a rendezvous message
        l.add(Arguments.of("hybrid-omp-to-late-sender", 4, Map.of("slow_thread", "0", "bytes", "100000")));
        return l.stream();
    }

    @ParameterizedTest(name = "{0} on {1} ranks {2}")
    @MethodSource("cases")
    void closedFormEqualsTheTimestampsOfTheGeneratedTrace(String name, int ranks, Map<String, String> values) throws Exception {
        Scenario s = Scenarios.byName(name);
        MemoryTrace trace = new MemoryTrace(name);
        GeneratedTrace g = s.generate(new ScenarioParams(ranks, 7, values), trace);
        assertTrue(g.expected().exact());
        Map<String, Long> actual = new TraceWaitStates(trace).values;
        Map<String, Double> expected = new TreeMap<>();
        for (ExpectedSeverities.Entry e : g.expected().entries()) {
            if (!Metrics.WAIT_STATES.contains(e.metric()) && !Metrics.OPENMP.contains(e.metric())) {
                continue; // root causes: checked against the analysis in the patterns module
            }
            expected.merge(e.metric() + "|" + String.join("/", e.callpath()) + "|" + e.rank() + "|" + e.thread(),
                    e.value(), Double::sum);
        }
        TreeSet<String> keys = new TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        StringBuilder diff = new StringBuilder();
        for (String k : keys) {
            double want = expected.getOrDefault(k, 0.0);
            double got = actual.getOrDefault(k, 0L) / 1e9;
            if (Math.abs(want - got) > 1e-9 * Math.max(Math.abs(want), Math.abs(got)) + 1e-12) {
                diff.append("\n  ").append(k).append(": expected ").append(want).append(", trace implies ").append(got);
            }
        }
        if (diff.length() > 0) {
            fail(name + " on " + ranks + " ranks " + values + ":" + diff);
        }
        assertEquals(Metrics.WAIT_STATES, g.expected().metrics().subList(0, Metrics.WAIT_STATES.size()));
    }
}
