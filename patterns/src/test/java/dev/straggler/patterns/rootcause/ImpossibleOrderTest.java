package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.report.TextReport;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A damaged trace whose records no MPI run can have written: rank 0 passes a barrier and then sends, rank 1
 * receives that message before entering the barrier. The wait states are still reported; the root causes are
 * not, and a warning names the ranks and calls that block the backward replay.
 */
class ImpossibleOrderTest {
    private static final String TRACE = dev.straggler.testdata.HandTraces.IMPOSSIBLE_ORDER;

    @Test
    void impossibleCommunicationOrderKeepsTheWaitStatesAndSaysWhyRootCausesAreMissing() throws IOException {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "impossible"),
                AnalysisOptions.defaults().withThreads(1).withRootCauses(true));
        assertEquals(0.045, r.cube().total("mpi_latesender"), 1e-12);
        assertEquals(0.0, r.cube().total("delay"), 0.0);
        assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("root causes not computed: 2 rank(s)")
                && w.contains("rank 0 at a send in MPI_Send") && w.contains("rank 1 at a collective in MPI_Barrier")),
                r.warnings().toString());
    }

    @Test
    void aCubeWithoutItsRootCausesDoesNotClaimThemAndSaysWhy() throws IOException {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "impossible"),
                AnalysisOptions.defaults().withThreads(1).withRootCauses(true));
        assertFalse(Analysis.rootCausesAnalysed(r.cube()));
        assertTrue(Analysis.rootCausesProblem(r.cube()).startsWith("2 rank(s)"), Analysis.rootCausesProblem(r.cube()));
    }

    @Test
    void theTerminalReportSaysTheRootCausesCouldNotBeComputedAndWhy() throws IOException {
        AnalysisResult r = Analysis.run(TextTraceReader.read(new StringReader(TRACE), "impossible"),
                AnalysisOptions.defaults().withThreads(1).withRootCauses(true));
        String text = TextReport.render(r, 200, false).replace("\n", " ");
        assertTrue(text.contains("Root causes (why the waiting happens) could not be computed: 2 rank(s)"), text);
        assertFalse(text.contains("--no-root-causes"), text);
    }
}
