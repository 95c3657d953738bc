package dev.straggler.testdata;

import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceWriter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The catalogue's public surface: listing, parameters, errors, the expectations' JSON and scaling studies. */
class CatalogueTest {

    @Test
    void everyScenarioIsListedWithADescriptionAndDocumentedParameters() {
        var names = new HashSet<String>();
        for (Scenario s : Scenarios.all()) {
            assertTrue(names.add(s.name()), "duplicate " + s.name());
            assertFalse(s.description().isBlank(), s.name());
            assertTrue(s.parameters().stream().allMatch(p -> !p.description().isBlank()), s.name());
            assertTrue(s.parameters().stream().anyMatch(p -> p.name().equals("latency")), s.name());
            assertEquals(s.scalingFamily(), !s.defaultScale().isEmpty(), s.name());
        }
        for (String required : List.of("late-sender", "late-receiver", "imbalance-at-barrier", "imbalance-at-alltoall",
                "imbalance-at-allreduce", "imbalance-at-allgather", "late-broadcast", "late-scatter", "early-reduce",
                "early-gather", "early-scan", "wrong-order-different", "wrong-order-same", "right-order",
                "barrier-completion", "nxn-completion", "late-sender-nonblocking", "waitall-late-senders",
                "alltoallv-excluded", "size1-comm-excluded", "bt-like", "gyro-like", "sweep3d-like", "graph500-like",
                "deep-calltree", "omp-imbalance-explicit-barrier", "omp-imbalance-implicit-barrier",
                "omp-critical-contention", "omp-serial-phase", "hybrid-omp-to-late-sender")) {
            assertTrue(names.contains(required), required);
        }
    }

    @Test
    void unknownScenarioNamesTheKnownOnes() {
        var e = assertThrows(IllegalArgumentException.class, () -> Scenarios.byName("late-snder"));
        assertTrue(e.getMessage().contains("late-sender"), e.getMessage());
    }

    @Test
    void unknownParameterNamesTheValidOnes() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> Scenarios.byName("late-sender").expected(ScenarioParams.of(4).with("extr", "1")));
        assertTrue(e.getMessage().contains("extra") && e.getMessage().contains("late-sender"), e.getMessage());
    }

    @Test
    void malformedValueNamesTheParameter() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> Scenarios.byName("late-sender").expected(ScenarioParams.of(4).with("extra", "soon")));
        assertTrue(e.getMessage().contains("extra=soon"), e.getMessage());
    }

    @Test
    void unsupportedRankCountsAndParameterCombinationsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Scenarios.byName("bt-like").expected(ScenarioParams.of(8)));
        assertThrows(IllegalArgumentException.class,
                () -> Scenarios.byName("wrong-order-same").expected(ScenarioParams.of(2).with("bytes", "1000000")));
        assertThrows(IllegalArgumentException.class,
                () -> Scenarios.byName("late-broadcast").expected(ScenarioParams.of(4).with("root", "4")));
    }

    @Test
    void expectationsSurviveAJsonRoundTrip() throws Exception {
        for (String name : List.of("wrong-order-different", "graph500-like", "deep-calltree", "bt-like",
                "hybrid-omp-to-late-sender")) {
            ExpectedSeverities e = Scenarios.byName(name).expected(ScenarioParams.of(4));
            ExpectedSeverities back = ExpectedSeverities.fromJson(e.toJson());
            assertEquals(e, back, name);
        }
        String json = Scenarios.byName("late-sender").expected(ScenarioParams.of(2)).toJson();
        assertTrue(json.contains("\"format\" : \"straggler.expected/1\""), json);
        assertTrue(json.contains("\"metric\" : \"mpi_latesender\""), json);
        assertFalse(json.contains("\"thread\""), "pure MPI expectations read as before");
        String hybrid = Scenarios.byName("hybrid-omp-to-late-sender").expected(ScenarioParams.of(2)).toJson();
        assertTrue(hybrid.contains("\"thread\" : 2") && hybrid.contains("\"delay_ompbarrier\""), hybrid);
    }

    private static final String PAR = "!$omp parallel @";

    @Test
    void explicitBarrierWaitIsTMinus1MinusTTimesDeltaPerRegion() {
        ExpectedSeverities e = Scenarios.byName("omp-imbalance-explicit-barrier").expected(ScenarioParams.of(2)
                .with("reps", "4").with("delta", "0.003").with("threads", "5"));
        List<String> barrier = List.of("main", "imbalance_kernel", PAR + "omp_imbalance.c:22",
                "!$omp barrier @omp_imbalance.c:27");
        for (int t = 0; t < 5; t++) {
            assertEquals(4 * (4 - t) * 0.003, e.value("omp_ebarrier_wait", barrier, 1, t), 1e-12, "thread " + t);
        }
        assertEquals(0, e.total("omp_ibarrier_wait"), "the team leaves the explicit barrier together");
        assertTrue(e.metrics().containsAll(dev.straggler.testdata.scenario.Metrics.OPENMP));
    }

    @Test
    void implicitBarrierWaitIsTMinus1MinusTTimesDeltaPerRegion() {
        ExpectedSeverities e = Scenarios.byName("omp-imbalance-implicit-barrier").expected(ScenarioParams.of(1)
                .with("reps", "2").with("delta", "0.004").with("threads", "3"));
        List<String> barrier = List.of("main", "imbalance_kernel", PAR + "omp_imbalance.c:22",
                "!$omp implicit barrier @omp_imbalance.c:28");
        for (int t = 0; t < 3; t++) {
            assertEquals(2 * (2 - t) * 0.004, e.value("omp_ibarrier_wait", barrier, 0, t), 1e-12, "thread " + t);
        }
    }

    @Test
    void criticalContentionIsKTimesCForTheKthAcquirer() {
        ExpectedSeverities e = Scenarios.byName("omp-critical-contention").expected(ScenarioParams.of(2)
                .with("reps", "3").with("critical", "0.002").with("threads", "4"));
        List<String> critical = List.of("main", "critical_kernel", PAR + "omp_critical.c:22",
                "!$omp critical @omp_critical.c:24");
        for (int k = 0; k < 4; k++) {
            assertEquals(3 * k * 0.002, e.value("omp_lock_contention_critical", critical, 1, k), 1e-12, "thread " + k);
        }
        assertEquals(2 * 3 * 6 * 0.002, e.total("omp_lock_contention_critical"), 1e-12, "T(T-1)/2 c per region");
    }

    @Test
    void serialPhaseIdlesEveryWorkerAndManagementIsTheForkAndJoinOverheads() {
        ExpectedSeverities e = Scenarios.byName("omp-serial-phase").expected(ScenarioParams.of(2).with("reps", "5")
                .with("serial", "0.03").with("threads", "3").with("omp.fork", "4e-6").with("omp.fork_stagger", "1e-6")
                .with("omp.join", "2e-6"));
        List<String> serial = List.of("main", "serial_phase");
        List<String> a = List.of("main", "phase_a", PAR + "omp_serial.c:22");
        assertEquals(0, e.value("omp_idle_threads", serial, 1, 0), "the master is never idle");
        for (int t = 0; t < 3; t++) {
            if (t > 0) {
                assertEquals(5 * 0.03, e.value("omp_idle_threads", serial, 1, t), 1e-12, "thread " + t);
            }
            assertEquals(5 * (4e-6 + t * 1e-6), e.value("omp_fork", a, 1, t), 1e-12, "thread " + t);
            assertEquals(5 * (4e-6 + t * 1e-6 + 2e-6), e.value("omp_management", a, 1, t), 1e-12, "thread " + t);
        }
    }

    @Test
    void hybridLateSenderWaitsDeltaAndScalascaRootCausesArePending() {
        ExpectedSeverities e = Scenarios.byName("hybrid-omp-to-late-sender").expected(ScenarioParams.of(3)
                .with("reps", "2").with("delta", "0.004").with("work", "0.01").with("threads", "4"));
        List<String> recv = List.of("main", "exchange", "MPI_Recv");
        List<String> ibar = List.of("main", "solve", PAR + "hybrid_exchange.c:22",
                "!$omp implicit barrier @hybrid_exchange.c:26");
        List<String> work = List.of("main", "solve", PAR + "hybrid_exchange.c:22", "work");
        for (int j = 1; j < 3; j++) {
            assertEquals(2 * 0.004, e.value("mpi_latesender", recv, j), 1e-12, "rank " + j);
            assertEquals(2 * 0.004, e.value("omp_idle_threads", recv, j, 3), 1e-12, "rank " + j + "'s workers");
        }
        for (int t : new int[] {0, 2, 3}) {
            assertEquals(2 * 0.004, e.value("omp_ibarrier_wait", ibar, 0, t), 1e-12, "thread " + t);
        }
        assertEquals(0, e.value("omp_ibarrier_wait", ibar, 0, 1), "the slow thread does not wait");
        assertEquals(2 * 3 * 0.004, e.value("delay_ompbarrier", work, 0, 1), 1e-12);
        assertEquals(2 * 2 * 0.004, e.value("delay_latesender_longterm", work, 0, 1), 1e-12);
        assertEquals(2 * 2 * 3 * 0.004, e.value("delay_ompidle_longterm", work, 0, 1), 1e-12);
        assertEquals(2 * 0.014, e.value("critical_path", work, 0, 1), 1e-12);
        assertEquals(0, e.total("delay_latesender") + e.total("delay_ompidle") + e.total("delay_ompbarrier_longterm"),
                "no short-term Late Sender delay, no idleness delay");
        assertTrue(Scenarios.byName("hybrid-omp-to-late-sender").expected(ScenarioParams.of(3).with("latency", "1e-6"))
                .metrics().stream().noneMatch(m -> m.startsWith("delay_")), "root causes only for the ideal model");
    }

    @Test
    void lateSenderClosedFormIsExtraPerRepetition() {
        ExpectedSeverities e = Scenarios.byName("late-sender").expected(ScenarioParams.of(4).with("reps", "5").with("extra", "0.25"));
        List<String> recv = List.of("main", "late_sender", "mpi_commpattern_sendrecv", "MPI_Recv");
        assertEquals(5 * 0.25, e.value("mpi_latesender", recv, 1), 1e-12);
        assertEquals(5 * 0.25, e.value("mpi_latesender", recv, 3), 1e-12);
        assertEquals(0, e.value("mpi_latesender", recv, 0));
        assertEquals(2 * 5 * 0.25, e.totals().get("mpi_latesender"), 1e-12);
    }

    @Test
    void scalingStudyWritesOneExperimentPerProcessCountAndRepetition() throws Exception {
        List<MemoryTrace> traces = new ArrayList<>();
        List<String> opened = new ArrayList<>();
        var runs = ScalingFamily.generate(Scenarios.byName("sweep3d-like"), List.of(2, 4), 2, 100,
                Map.of("iterations", "1", "kblocks", "2"), (name, p, r) -> {
                    opened.add(name);
                    MemoryTrace t = new MemoryTrace(name);
                    traces.add(t);
                    return (TraceWriter) t;
                });
        assertEquals(List.of("sweep3d-like.p2.r0", "sweep3d-like.p2.r1", "sweep3d-like.p4.r0", "sweep3d-like.p4.r1"), opened);
        assertEquals(4, runs.size());
        var experiment = traces.get(3).definitions().experiment();
        assertEquals("sweep3d-like", experiment.application());
        assertEquals(4, experiment.processes());
        assertEquals("1", experiment.parameters().get("repetition"));
        assertEquals("101", experiment.parameters().get("seed"));
        assertFalse(traces.get(2).readLocation(0).sameEvents(traces.get(3).readLocation(0)), "repetitions differ by their noise");
        assertThrows(IllegalArgumentException.class, () -> ScalingFamily.generate(Scenarios.byName("late-sender"),
                List.of(2), 1, 1, Map.of(), (n, p, r) -> new MemoryTrace(n)));
    }
}
