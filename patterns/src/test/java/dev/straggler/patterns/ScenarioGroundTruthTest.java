package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Writer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every exact scenario of the simulator (testdata), on MPI_COMM_WORLD, on the halves of a split communicator and
 * on size-1 communicators, analysed and compared with its closed-form expectations: every expected value at
 * (metric, call path, rank, thread), and zero wherever a listed metric has no entry. The listed metrics are the wait
 * states, and for the root-cause scenarios also the delay costs, wait-state classes and critical-path metrics,
 * which are checked in addition at other rank counts and parameters; for the hybrid MPI+OpenMP scenarios also the
 * OpenMP metrics per thread and, where a scenario derives them, the root causes across threads.
 */
class ScenarioGroundTruthTest {
    /** The simulator's exact values include its network terms; they are reproduced to rounding. */
    private static final double RELATIVE = 1e-9;
    /** One tick of the 1 ns timer, far below any expected wait. */
    private static final double ABSOLUTE = 1.5e-9;

    @TestFactory
    Stream<DynamicTest> everyExactScenarioMatchesItsClosedForm() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Scenario s : Scenarios.all()) {
            if (s.scalingFamily()) {
                continue;
            }
            int ranks = Math.max(4, s.minRanks());
            tests.add(DynamicTest.dynamicTest(s.name(), () -> check(s, ScenarioParams.of(ranks))));
            if (s.parameters().stream().anyMatch(p -> p.name().equals("comm"))) {
                for (String comm : new String[]{"halves", "self"}) {
                    tests.add(DynamicTest.dynamicTest(s.name() + " comm=" + comm,
                            () -> check(s, ScenarioParams.of(ranks).with("comm", comm))));
                }
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> rootCauseScenariosMatchTheirClosedFormsAtOtherSizesAndParameters() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : List.of("imbalance-delay-barrier", "imbalance-delay-allreduce", "imbalance-delay-sends",
                "late-sender-chain", "critical-path-slowest-rank")) {
            for (int ranks : new int[] {2, 3, 5, 8}) {
                tests.add(rootCauses(name, ranks, Map.of()));
            }
        }
        tests.add(rootCauses("imbalance-delay-barrier", 6, Map.of("slow", "5", "work", "0")));
        tests.add(rootCauses("imbalance-delay-allreduce", 7, Map.of("slow", "3", "bytes", "100000")));
        tests.add(rootCauses("imbalance-delay-sends", 5, Map.of("slow", "0", "reps", "4")));
        tests.add(rootCauses("imbalance-delay-sends", 5, Map.of("slow", "4", "balanced", "0")));
        tests.add(rootCauses("late-sender-chain", 6, Map.of("ramp", "0")));
        tests.add(rootCauses("late-sender-chain", 5, Map.of("ramp", "0.01", "delay", "0.03")));
        tests.add(rootCauses("late-sender-chain", 7, Map.of("ramp", "0.003", "relay", "0.02", "delay", "0.004")));
        tests.add(rootCauses("critical-path-slowest-rank", 5, Map.of("slow", "3", "writer", "4", "reps", "1")));
        tests.add(rootCauses("critical-path-slowest-rank", 6,
                Map.of("slow", "0", "writer", "5", "bytes", "65536", "reps", "7")));
        tests.add(rootCauses("critical-path-slowest-rank", 3, Map.of("slow", "2", "writer", "1", "extra", "0.5")));
        return tests.stream();
    }

    /** Scenarios whose ranks run different call paths; their closed forms cover the critical-path metrics only. */
    @TestFactory
    Stream<DynamicTest> partitionScenariosMatchTheirClosedFormsAtOtherSizesAndParameters() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : List.of("critical-path-master-worker", "critical-path-extra-routine",
                "critical-path-producer-consumer", "critical-path-many-routines")) {
            for (int ranks : new int[] {2, 3, 5, 8}) {
                tests.add(criticalPath(name, ranks, Map.of()));
            }
        }
        // odd number of iterations (E = 3, O = 2); light workers whose work covers the path's (no intra)
        tests.add(criticalPath("critical-path-master-worker", 6, Map.of("reps", "5")));
        tests.add(criticalPath("critical-path-master-worker", 5, Map.of("work", "0.02", "delta", "0.005")));
        tests.add(criticalPath("critical-path-master-worker", 7,
                Map.of("manage", "0", "heavy", "0.05", "work", "0.001", "delta", "0.03", "reps", "6")));
        tests.add(criticalPath("critical-path-extra-routine", 6, Map.of("boundary", "5", "writer", "2", "reps", "1")));
        tests.add(criticalPath("critical-path-extra-routine", 3, Map.of("boundary", "0", "writer", "2",
                "compute", "0", "extra", "0.5")));
        tests.add(criticalPath("critical-path-producer-consumer", 5, Map.of("reps", "1")));
        tests.add(criticalPath("critical-path-producer-consumer", 3, Map.of("produce", "0.004", "consume", "0.0075")));
        // Scalasca's 128-entry time maps: the tie of the two shortest routines goes to the lower call-path id (r_1
        // lost, r_2 kept); a routine evicted and called again starts from zero (the default revisit); a last routine
        // equal to the smallest entry is dropped; write_output as long as the smallest routine stays out of the busy
        // rank's whole-run map (then it is headroom, not activity). Ties away from the start of the run are exact
        // with times in multiples of 1/512 s = 0.001953125 s.
        tests.add(criticalPath("critical-path-many-routines", 3, Map.of("routines", "129", "revisit", "0",
                "tail_extra", "0.0001")));
        tests.add(criticalPath("critical-path-many-routines", 4, Map.of("routines", "129")));
        tests.add(criticalPath("critical-path-many-routines", 5, Map.of("routines", "129", "order", "descending",
                "unit", "0.001953125", "tail", "0.01953125", "tail_extra", "0.001953125", "revisit", "0.5",
                "busy", "0", "writer", "4")));
        tests.add(criticalPath("critical-path-many-routines", 4, Map.of("routines", "140", "revisit", "0",
                "unit", "0.001953125", "tail", "0.0234375", "tail_extra", "0.0234375")));
        tests.add(criticalPath("critical-path-many-routines", 4, Map.of("routines", "140", "tail", "0.0011")));
        tests.add(criticalPath("critical-path-many-routines", 6, Map.of("routines", "200", "order", "descending",
                "unit", "0.00005", "tail", "0.005", "busy", "5", "writer", "2")));
        // with latency and call overhead only the wait states are predicted, exactly
        for (String name : List.of("critical-path-master-worker", "critical-path-extra-routine",
                "critical-path-producer-consumer", "critical-path-many-routines")) {
            Map<String, String> network = Map.of("latency", "2e-6", "overhead", "5e-7");
            tests.add(DynamicTest.dynamicTest(name + " on 5 ranks " + network,
                    () -> check(Scenarios.byName(name), new ScenarioParams(5, 1, network))));
        }
        return tests.stream();
    }

    private static DynamicTest criticalPath(String name, int ranks, Map<String, String> values) {
        return DynamicTest.dynamicTest(name + " on " + ranks + " ranks " + values, () -> {
            ScenarioParams p = new ScenarioParams(ranks, 1, values);
            Scenario s = Scenarios.byName(name);
            assertTrue(s.expected(p).metrics().contains("inter_partition_imbalance"),
                    "the closed forms must cover the critical-path metrics");
            check(s, p);
        });
    }

    private static DynamicTest rootCauses(String name, int ranks, Map<String, String> values) {
        return DynamicTest.dynamicTest(name + " on " + ranks + " ranks " + values, () -> {
            ScenarioParams p = new ScenarioParams(ranks, 1, values);
            Scenario s = Scenarios.byName(name);
            assertTrue(s.expected(p).metrics().contains("delay_latesender_longterm"),
                    "the closed forms must cover the root causes");
            check(s, p);
        });
    }

    /**
     * The hybrid MPI+OpenMP scenarios at other sizes, team sizes, OpenMP overheads, networks and clocks: their MPI
     * wait states, every OpenMP metric per thread and, where the closed form gives them, their root causes.
     */
    @TestFactory
    Stream<DynamicTest> hybridScenariosMatchTheirClosedFormsAtOtherSizesAndParameters() {
        List<DynamicTest> tests = new ArrayList<>();
        List<Map<String, String>> variants = List.of(Map.of("threads", "1"), Map.of("threads", "2"),
                Map.of("threads", "6", "reps", "2"),
                Map.of("omp.fork", "3e-6", "omp.fork_stagger", "2e-6", "omp.join", "4e-6", "omp.barrier", "1e-6"),
                Map.of("latency", "3e-6", "overhead", "1e-6", "stagger", "2e-6"),
                Map.of("skew.rank", "1", "skew.offset", "0.001", "skew.drift", "1e-4"));
        for (String name : HYBRID) {
            for (Map<String, String> v : variants) {
                Map<String, String> values = new java.util.HashMap<>(v);
                if (name.equals("hybrid-omp-to-late-sender") && "1".equals(v.get("threads"))) {
                    values.put("slow_thread", "0");
                }
                for (int ranks : new int[] {2, 3}) {
                    tests.add(DynamicTest.dynamicTest(name + " on " + ranks + " ranks " + values, () -> {
                        Scenario s = Scenarios.byName(name);
                        ExpectedSeverities e = s.expected(new ScenarioParams(ranks, 1, values));
                        assertTrue(e.metrics().contains("omp_idle_threads") && e.metrics().contains("omp_management"),
                                "the closed forms cover the OpenMP metrics");
                        check(s, new ScenarioParams(ranks, 1, values));
                    }));
                }
            }
        }
        tests.add(DynamicTest.dynamicTest("hybrid-omp-to-late-sender, the master slow", () -> check(
                Scenarios.byName("hybrid-omp-to-late-sender"), new ScenarioParams(4, 1, Map.of("slow_thread", "0")))));
        tests.add(DynamicTest.dynamicTest("omp-critical-contention, stagger longer than the section", () -> check(
                Scenarios.byName("omp-critical-contention"),
                new ScenarioParams(2, 1, Map.of("omp.fork_stagger", "0.0015", "threads", "5")))));
        return tests.stream();
    }

    static final List<String> HYBRID = List.of("omp-imbalance-explicit-barrier", "omp-imbalance-implicit-barrier",
            "omp-critical-contention", "omp-serial-phase", "hybrid-omp-to-late-sender");

    /** Written to OTF2 and read back, a hybrid trace gives the same analysis: its closed forms hold on the copy. */
    @TestFactory
    Stream<DynamicTest> hybridScenariosMatchTheirClosedFormsThroughOtf2(@TempDir Path dir) {
        return HYBRID.stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            Scenario s = Scenarios.byName(name);
            Path anchor = dir.resolve(name).resolve("traces.otf2");
            ExpectedSeverities expected;
            try (Otf2Writer w = new Otf2Writer(anchor)) {
                expected = s.generate(new ScenarioParams(3, 1, Map.of("threads", "3")), w).expected();
            }
            try (Otf2Archive a = Otf2Archive.open(anchor)) {
                compare(s.name(), expected, a);
            }
        }));
    }

    static void check(Scenario s, ScenarioParams p) throws IOException {
        MemoryTrace trace = new MemoryTrace(s.name());
        ExpectedSeverities expected = s.generate(p, trace).expected();
        compare(s.name() + " " + p.values(), expected, trace);
    }

    private static void compare(String what, ExpectedSeverities expected, TraceSource trace) throws IOException {
        if (!expected.exact()) {
            return;
        }
        AnalysisResult r = Analysis.run(trace, AnalysisOptions.defaults().withThreads(2).withRootCauses(true));
        SeverityCube c = r.cube();
        // The simulator's expected call paths start below the program region that PROGRAM_BEGIN enters (the
        // artificial measurement region Scalasca makes the root of the call tree).
        Map<List<String>, Integer> paths = new HashMap<>();
        for (int i = 0; i < c.callPaths().size(); i++) {
            List<String> names = c.pathNames(i);
            paths.put(names, i);
            int root = i;
            while (c.callPaths().get(root).parent() >= 0) {
                root = c.callPaths().get(root).parent();
            }
            Region rr = c.regions().get(c.callPaths().get(root).region());
            if (rr.role() == RegionRole.ARTIFICIAL && rr.paradigm() == Paradigm.MEASUREMENT_SYSTEM && names.size() > 1) {
                paths.put(names.subList(1, names.size()), i);
            }
        }
        // an entry names a rank and its OpenMP thread (0 in pure MPI programs); the cube, locations
        Map<List<Integer>, Integer> locations = new HashMap<>();
        c.locations().forEach(l -> locations.put(List.of(l.rank(), l.thread()), l.index()));
        List<String> failures = new ArrayList<>();
        Map<String, Double> seen = new HashMap<>();
        for (ExpectedSeverities.Entry e : expected.entries()) {
            int m = c.metricIndex(e.metric());
            Integer path = paths.get(e.callpath());
            Integer loc = locations.get(List.of(e.rank(), e.thread()));
            double ours = m < 0 || path == null || loc == null ? 0 : c.get(m, path, loc);
            seen.merge(e.metric(), ours, Double::sum);
            if (Math.abs(ours - e.value()) > RELATIVE * Math.abs(e.value()) + ABSOLUTE) {
                failures.add(e.metric() + " " + String.join("/", e.callpath()) + " rank " + e.rank()
                        + (e.thread() > 0 ? " thread " + e.thread() : "") + ": expected " + e.value() + " got " + ours);
            }
        }
        // a listed metric is zero wherever it has no entry: its total equals the sum of its entries
        for (String metric : expected.metrics()) {
            double total = c.total(metric);
            double entries = seen.getOrDefault(metric, 0.0);
            if (Math.abs(total - entries) > RELATIVE * Math.abs(total) + ABSOLUTE) {
                failures.add(metric + ": total " + total + " but expected entries sum to " + expected.total(metric));
            }
        }
        assertTrue(failures.isEmpty(), what + ":\n" + String.join("\n", failures));
    }
}
