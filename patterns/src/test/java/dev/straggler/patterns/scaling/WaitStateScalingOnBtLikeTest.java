package dev.straggler.patterns.scaling;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.algebra.CauseMetrics;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.ScalingFamily;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceWriter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which wait state grows with p, on the BT-like family analysed by Straggler: the sweeps' pipeline fill shows as
 * Late Sender at their MPI_Wait (designed to scale badly), while the halo exchange's Late Sender shrinks with the
 * messages. Among the causes, the delay the sweeps wait for is the cells' computation upstream, and it grows too.
 */
class WaitStateScalingOnBtLikeTest {

    @Test
    void sweepLateSendersGrowWithPAndTheHaloExchangesShrink() throws Exception {
        List<MemoryTrace> traces = new ArrayList<>();
        ScalingFamily.generate(Scenarios.byName("bt-like"), List.of(4, 9, 16, 25, 36, 64), 2, 1, Map.of(), (n, p, r) -> {
            MemoryTrace t = new MemoryTrace(n);
            traces.add(t);
            return (TraceWriter) t;
        });
        List<SeverityCube> cubes = new ArrayList<>();
        for (MemoryTrace t : traces) {
            cubes.add(Analysis.run(t, AnalysisOptions.defaults().withRootCauses(true)).cube());
        }
        WaitStateScaling.Result r = WaitStateScaling.analyse(cubes, RankCorrelation.Options.defaults());
        List<RankCorrelation.Row> rows = r.analysis().rows().stream()
                .filter(x -> !CauseMetrics.isRootCause(r.keys().get(x.key()).metric())).toList();
        for (int i = 0; i < 3; i++) {
            WaitStateScaling.Key k = r.keys().get(rows.get(i).key());
            assertEquals("mpi_latesender", k.metric(), rows.get(i).key());
            assertEquals("MPI_Wait", k.path().get(k.path().size() - 1));
            assertTrue(k.path().get(k.path().size() - 2).matches("[xyz]_solve"), k.path().toString());
            assertTrue(rows.get(i).rs() > 0.9, rows.get(i).key() + " r_s " + rows.get(i).rs());
        }
        RankCorrelation.Row last = rows.get(rows.size() - 1);
        WaitStateScaling.Key k = r.keys().get(last.key());
        assertEquals("mpi_latesender", k.metric());
        assertEquals(List.of("copy_faces", "MPI_Waitall"), k.path().subList(k.path().size() - 2, k.path().size()));
        assertTrue(last.rs() < -0.9);
        assertTrue(r.denominators().stream().allMatch(d -> d.endsWith("mpi metric without Init/Finalize")));
        for (String sweep : List.of("x", "y", "z")) {
            RankCorrelation.Row cause = r.analysis().rows().stream()
                    .filter(x -> x.key().equals("Late Sender delay @ bt-like/main/adi/" + sweep + "_solve/"
                            + sweep + "_solve_cell")).findFirst().orElseThrow();
            assertTrue(cause.rs() > 0.9, cause.key() + " r_s " + cause.rs());
        }
    }
}
