package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.AnalysisResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded sample omp-nested (samples/recorded: nested OpenMP parallel regions). Scalasca 2.6 refuses it; the
 * analysis had stopped with a thread's time longer than the run (the idle-thread walk, which knows one level of
 * parallel regions, gave an inner team's thread its master's serial time on top of its own). It now completes, and
 * says what it leaves out.
 */
class NestedTeamsSampleTest {
    @Test
    void nestedTeamsAreAnalysedWithoutTheirIdleThreadsAndSaySo() throws IOException {
        AnalysisResult r = ScalascaHybridTracesTest.analyseRecorded("omp-nested");
        assertTrue(r.warnings().stream().anyMatch(w -> w.contains("nested parallel regions")
                && w.contains("nor its idle threads")), r.warnings().toString());
        double run = r.summary().durationSeconds();
        for (double t : r.cube().perLocation(r.cube().metricIndex("time"))) {
            assertTrue(t <= run * (1 + 1e-12), "a thread's time " + t + " s exceeds the run's " + run + " s");
        }
        assertTrue(r.cube().total("mpi_wait_nxn") > 0 || r.cube().total("mpi_nxn_completion") > 0,
                "the MPI part is analysed");
    }
}
