package dev.straggler.patterns.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.replay.TraceBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextReportTest {

    @Test
    void reportShowsTheMetricTreeAndTheWorstCallPathsAndRanks() throws IOException {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").compute("work", 1, 100).callSend("MPI_Send", 100, 110, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callRecv(20, 120, 0, 0, 8).leave(200);
        AnalysisResult r = Analysis.run(b.build(), AnalysisOptions.defaults().withThreads(1));
        String text = TextReport.render(r, 80);
        assertTrue(text.contains("Late Sender"), text);
        assertTrue(text.contains("main/MPI_Recv"), text);
        assertTrue(text.contains("ranks: 1 8.000e-08 s (100%)"), text);
        assertTrue(text.lines().allMatch(l -> l.length() <= 80), text);
        assertTrue(text.lines().count() < 50, text);
    }

    @Test
    void traceWithoutMpiSaysSo() throws IOException {
        TraceBuilder b = new TraceBuilder(1);
        b.rank(0).enter(0, "main").leave(100);
        String text = TextReport.render(Analysis.run(b.build(), AnalysisOptions.defaults()), 80);
        assertTrue(text.contains(Analysis.NO_MPI_WARNING), text);
    }

    /** Rank 0 computes in "work" until 100, then sends; rank 1 waits in MPI_Recv from 20 to 100: Late Sender 80. */
    private static TraceBuilder lateSender() {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").compute("work", 1, 100).callSend("MPI_Send", 100, 110, 1, 0, 8).leave(200);
        b.rank(1).enter(0, "main").callRecv(20, 120, 0, 0, 8).leave(200);
        return b;
    }

    @Test
    void reportWithoutRootCausesSaysHowToGetThem() throws IOException {
        String text = TextReport.render(Analysis.run(lateSender().build(), AnalysisOptions.defaults()), 80);
        assertTrue(text.contains("--root-causes"), text);
        assertFalse(text.contains("Root causes\n"), text);
        assertTrue(text.lines().allMatch(l -> l.length() <= 80), text);
    }

    @Test
    void rootCausesNameTheDelayingCallPathAndRank() throws IOException {
        // the sender's excess before its send is work's 99 ticks against nothing on the receiver; the short-term
        // cost is that delay scaled to the 80-tick wait: all of the waiting, on rank 0's main/work
        AnalysisResult r = Analysis.run(lateSender().build(), AnalysisOptions.defaults().withRootCauses(true));
        String text = TextReport.render(r, 80);
        assertFalse(text.contains("--root-causes"), text);
        String section = text.substring(text.indexOf("Root causes\n"));
        assertTrue(section.contains("100.0% of all waiting (8.000e-08 s)"), section);
        assertTrue(section.contains("main/work"), section);
        assertTrue(section.contains("on rank 0: 8.000e-08 s short-term, 0 s propagated"), section);
        assertTrue(text.lines().allMatch(l -> l.length() <= 80), text);
    }
}
