package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded sample omp-tasks (samples/recorded: OpenMP tasks run inside implicit barriers). Scalasca 2.6's
 * {@code scout.hyb} crashes on it (its log is kept beside the trace), so there are no values to compare; what must
 * hold is that no part exceeds its whole: the waiting at a barrier, from which the tasks run inside it are left out,
 * stays within the barrier's own time on every call path and thread.
 */
class TasksSampleTest {
    @Test
    void barrierWaitingStaysWithinTheBarriersOwnTimeWhenTasksRunInside() throws IOException {
        AnalysisResult r = ScalascaHybridTracesTest.analyseRecorded("omp-tasks");
        SeverityCube c = r.cube();
        String[][] pairs = {{"omp_ibarrier_wait", "omp_ibarrier"}, {"omp_ebarrier_wait", "omp_ebarrier"}};
        double tasksInBarriers = 0;
        for (int p = 0; p < c.callPaths().size(); p++) {
            var names = c.pathNames(p);
            boolean taskInBarrier = names.size() >= 2 && names.get(names.size() - 1).startsWith("!$omp task ")
                    && names.get(names.size() - 2).contains("barrier");
            for (int l = 0; l < c.locations().size(); l++) {
                if (taskInBarrier) {
                    tasksInBarriers += c.get(c.metricIndex("time"), p, l);
                }
                for (String[] pair : pairs) {
                    double part = c.get(c.metricIndex(pair[0]), p, l);
                    double whole = c.get(c.metricIndex(pair[1]), p, l);
                    assertTrue(part <= whole * (1 + 1e-12) + 1e-15, pair[0] + " " + part + " s exceeds " + pair[1]
                            + " " + whole + " s at " + String.join("/", names) + ", location " + l);
                }
            }
        }
        assertTrue(tasksInBarriers > 0, "the sample runs tasks inside barriers");
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("task records are not analysed")), "the report says"
                + " what tasks change: " + r.warnings());
    }
}
