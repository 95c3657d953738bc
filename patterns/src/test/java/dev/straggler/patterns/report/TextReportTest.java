package dev.straggler.patterns.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.scalasca.RealTraces;
import dev.straggler.replay.TraceBuilder;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void reportWithRootCausesTurnedOffSaysSoAndWhatIsMissing() throws IOException {
        String text = TextReport.render(Analysis.run(lateSender().build(), AnalysisOptions.defaults()), 80);
        assertTrue(text.contains("were not analysed (--no-root-causes)"), text);
        assertTrue(text.replace("\n", " ").contains("the critical path"), text);
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
        assertTrue(section.contains("100.0% of all waiting (8.000e-08 s of 8.000e-08 s)"), section);
        assertTrue(section.contains("main/work"), section);
        assertTrue(section.contains("on rank 0: 8.000e-08 s short-term, 0 s propagated"), section);
        assertTrue(text.lines().allMatch(l -> l.length() <= 80), text);
    }

    /**
     * Rank 1 waits for rank 0 in five functions f1..f5, f_k waiting k*10 ticks (Late Sender 10+20+30+40+50 = 150):
     * more call paths than a wait state's list shows by default.
     */
    private static TraceBuilder lateSenderInFiveFunctions() {
        TraceBuilder b = new TraceBuilder(2);
        TraceBuilder.Rank r0 = b.rank(0).enter(0, "main");
        TraceBuilder.Rank r1 = b.rank(1).enter(0, "main");
        long t = 0;
        for (int k = 1; k <= 5; k++) {
            // rank 1 enters its receive at t, rank 0 sends at t + 10k: a wait of 10k ticks in f_k
            r0.compute("work", t, t + 10 * k).enter(t + 10 * k, "f" + k)
                    .callSend("MPI_Send", t + 10 * k, t + 10 * k + 1, 1, k, 8).leave(t + 10 * k + 1);
            r1.enter(t, "f" + k).callRecv(t, t + 10 * k + 2, 0, k, 8).leave(t + 10 * k + 2);
            t += 10 * k + 3;
        }
        r0.leave(t);
        r1.leave(t);
        return b;
    }

    @Test
    void callPathListLongerThanShownSaysHowManyAreHiddenAndHowToSeeThem() throws IOException {
        AnalysisResult r = Analysis.run(lateSenderInFiveFunctions().build(), AnalysisOptions.defaults().withThreads(1));
        String text = TextReport.render(r, 100);
        String ls = text.substring(text.indexOf("Late Sender: "));
        // the three largest (f5, f4, f3) are listed; f2 and f1 (20 + 10 of the 150 ticks) are counted, not hidden
        assertTrue(ls.contains("main/f5/MPI_Recv"), ls);
        assertFalse(ls.contains("main/f1/MPI_Recv"), ls);
        assertTrue(ls.contains("+2 more call paths with 3.000e-08 s (20.0%) (--all lists them)"), ls);
    }

    @Test
    void allListsEveryCallPath() throws IOException {
        AnalysisResult r = Analysis.run(lateSenderInFiveFunctions().build(), AnalysisOptions.defaults().withThreads(1));
        String text = TextReport.render(r, 100, true);
        String ls = text.substring(text.indexOf("Late Sender: "));
        for (int k = 1; k <= 5; k++) {
            assertTrue(ls.contains("main/f" + k + "/MPI_Recv"), ls);
        }
        assertFalse(ls.contains("more call paths"), ls);
    }

    /** The wait-state part of a report: from its heading to the next empty line. */
    private static String waitStateList(String text) {
        int from = text.indexOf("Wait states (");
        assertTrue(from >= 0, text);
        int to = text.indexOf("\n\n", from);
        return text.substring(from, to < 0 ? text.length() : to);
    }

    private static String realReport(String folder) throws IOException {
        Optional<Path> dir = RealTraces.tracesDir();
        Assumptions.assumeTrue(dir.isPresent(), "shared traces absent (../shared/traces/real)");
        Path anchor = dir.get().resolve("real").resolve(folder).resolve("traces.otf2");
        Assumptions.assumeTrue(Files.exists(anchor), folder + " absent");
        try (TraceSource s = RealTraces.openOtf2(anchor).orElseThrow()) {
            return TextReport.render(Analysis.run(s, AnalysisOptions.defaults()), 100);
        }
    }

    @Test
    void waitStateListOfNpbMg16ShowsEveryWaitStateAboveTheThresholdAndNoCompletionTime() throws IOException {
        // Scalasca's trace.cubex of this run (of 8.48226 s execution): Late Sender 0.127312 s, its Wrong Order part
        // 0.112932 s, Wait at N x N 0.0542198 s, Late Receiver 0.0297468 s and Wait at Barrier 0.0242901 s (0.29 %)
        // are waiting above 0.1 %; N x N Completion (0.0480432 s) is completion time, not waiting (reference §1.4)
        String list = waitStateList(realReport("npb-mg.S-16"));
        assertTrue(list.contains("\nWait at Barrier: 0.024290 s (0.3%)"), list);
        assertFalse(list.contains("Completion"), list);
        long listed = list.lines().filter(l -> l.matches("[A-Z][^:]*: [0-9.e-]+ s \\(.*")).count();
        assertEquals(5, listed, list);
    }

    @Test
    void waitStateListOfLuleshShowsWaitAtBarrier() throws IOException {
        String list = waitStateList(realReport("lulesh-s8-8"));
        assertTrue(list.contains("\nWait at Barrier: "), list);
        assertFalse(list.contains("Completion"), list);
    }
}
