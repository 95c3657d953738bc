package dev.straggler.patterns.scaling;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rank correlation of hybrid MPI+OpenMP runs (simulated, 2 to 8 ranks of 4 threads): every share is of MPI time
 * and at most 100 %, so the delays of OpenMP waiting and of idle threads, which explain time outside MPI, are not
 * rows of it, while the Late Sender's are.
 */
class WaitStateScalingOnHybridRunsTest {
    @Test
    void sharesOfMpiTimeStayWithinMpiTimeOnHybridRuns() throws Exception {
        List<SeverityCube> cubes = new ArrayList<>();
        for (int p : new int[] {2, 4, 8}) {
            MemoryTrace t = new MemoryTrace("hybrid-" + p);
            Scenarios.byName("hybrid-omp-to-late-sender").generate(new ScenarioParams(p, 1,
                    Map.of("threads", "4", "omp.fork", "2e-6", "omp.join", "3e-6")), t);
            cubes.add(Analysis.run(t, AnalysisOptions.defaults().withThreads(1).withRootCauses(true)).cube());
        }
        WaitStateScaling.Result r = WaitStateScaling.analyse(cubes, new RankCorrelation.Options(0));
        List<String> labels = new ArrayList<>();
        for (RankCorrelation.Row row : r.analysis().rows()) {
            labels.add(r.keys().get(row.key()).label());
            for (RankCorrelation.Point pt : row.series()) {
                assertTrue(pt.share() <= 1.0 + 1e-12, row.key() + ": share " + pt.share() + " of MPI time");
            }
        }
        assertTrue(labels.stream().anyMatch(l -> l.startsWith("Late Sender delay")), labels.toString());
        assertFalse(labels.stream().anyMatch(l -> l.startsWith("Idle threads") || l.contains("OpenMP barrier delay")),
                labels.toString());
    }
}
