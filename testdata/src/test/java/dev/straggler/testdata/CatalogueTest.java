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
                "deep-calltree")) {
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
        for (String name : List.of("wrong-order-different", "graph500-like", "deep-calltree", "bt-like")) {
            ExpectedSeverities e = Scenarios.byName(name).expected(ScenarioParams.of(4));
            ExpectedSeverities back = ExpectedSeverities.fromJson(e.toJson());
            assertEquals(e, back, name);
        }
        String json = Scenarios.byName("late-sender").expected(ScenarioParams.of(2)).toJson();
        assertTrue(json.contains("\"format\" : \"straggler.expected/1\""), json);
        assertTrue(json.contains("\"metric\" : \"mpi_latesender\""), json);
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
