package dev.straggler.patterns.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.report.TextReport;
import dev.straggler.replay.TraceBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;

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
}
