package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.report.TextReport;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.Location;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.store.StoreWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A trace whose marks would not fit in the heap keeps its wait states and says why the root causes are missing,
 * decided while it is read: the marks of a trace of 10^9 events fill a 16 GiB heap before the root-cause stage
 * starts, and the analysis would otherwise end with an out-of-memory error and no result at all.
 */
class MarkBudgetAnalysisTest {
    private static Path store;

    @BeforeAll
    static void writeStore(@TempDir Path dir) throws Exception {
        MemoryTrace trace = new MemoryTrace("late-sender");
        Scenarios.byName("late-sender").generate(ScenarioParams.of(4), trace);
        store = dir.resolve("store");
        try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults())) {
            for (Location l : trace.definitions().locations()) {
                w.append(l.index(), trace.readLocation(l.index()));
            }
            w.finish(trace.definitions());
        }
    }

    private static AnalysisResult analyse(AnalysisOptions o) throws Exception {
        try (TraceSource s = StoreReader.open(store)) {
            return Analysis.run(s, o.withThreads(2));
        }
    }

    @Test
    void marksThatWouldNotFitLeaveTheWaitStatesAndSayWhy() throws Exception {
        AnalysisResult full = analyse(AnalysisOptions.defaults().withRootCauses(true));
        AnalysisResult tight = analyse(AnalysisOptions.defaults().withRootCauses(true).withHeapBudget(1024));
        assertTrue(full.cube().total("delay") > 0, "the scenario has delays when its root causes fit");
        assertNull(Analysis.rootCausesProblem(full.cube()));
        String why = Analysis.rootCausesProblem(tight.cube());
        assertTrue(why != null && why.startsWith("they would need about") && why.contains("projected from the first")
                && why.contains("--no-root-causes"), String.valueOf(why));
        assertFalse(Analysis.rootCausesAnalysed(tight.cube()));
        assertEquals(full.cube().total("mpi_latesender"), tight.cube().total("mpi_latesender"), 0.0);
        assertEquals(full.cube().total("time"), tight.cube().total("time"), 0.0);
    }

    @Test
    void theReportSaysTheRootCausesWereNotComputedBecauseOfTheHeap() throws Exception {
        AnalysisResult tight = analyse(AnalysisOptions.defaults().withRootCauses(true).withHeapBudget(1024));
        String text = TextReport.render(tight, 200, false).replace("\n", " ");
        assertTrue(text.contains("could not be computed: they would need about"), text);
    }

    /**
     * An OTF2 archive declares its locations' event records, not their events: the projection waits for a location
     * read whole (recorded sample {@code stencil}, 8 ranks, Score-P 8.4).
     */
    @Test
    void anOtf2TraceIsJudgedFromItsDeclaredRecords() throws Exception {
        Path trace = Path.of("..", "samples", "recorded", "stencil", "traces.otf2");
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(trace), "no " + trace);
        AnalysisResult r;
        try (TraceSource s = dev.straggler.trace.Traces.open(trace)) {
            r = Analysis.run(s, AnalysisOptions.defaults().withThreads(2).withRootCauses(true).withHeapBudget(1024));
        }
        String why = Analysis.rootCausesProblem(r.cube());
        assertTrue(why != null && why.startsWith("they would need about") && why.contains("projected from the first"),
                String.valueOf(why));
        assertTrue(r.cube().total("mpi_latesender") > 0);
    }
}
