package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded sample omp-nested (samples/recorded: nested OpenMP parallel regions). Scalasca 2.6 refuses it; the
 * analysis had stopped with a thread's time longer than the run (the idle-thread walk, which knows one level of
 * parallel regions, gave an inner team's thread its master's serial time on top of its own). It now completes, and
 * says what it leaves out.
 */
class NestedTeamsSampleTest {
    private static final Path TRACE = ScalascaHybridTracesTest.RECORDED.resolve("omp-nested").resolve("traces.otf2");

    @Test
    void nestedTeamsAreAnalysedWithoutTheirIdleThreadsAndSaySo() throws IOException {
        Assumptions.assumeTrue(Files.exists(TRACE), "no " + TRACE);
        Optional<TraceSource> source = RealTraces.openOtf2(TRACE);
        Assumptions.assumeTrue(source.isPresent(), "OTF2 reader not in the build");
        AnalysisResult r;
        try (TraceSource s = source.get()) {
            r = Analysis.run(s, AnalysisOptions.defaults().withThreads(2).withRootCauses(true));
        }
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
