package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.DeterminismTest;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.waitstate.WaitStates;
import dev.straggler.replay.Pools;
import dev.straggler.replay.Replay;
import dev.straggler.replay.ReplayOptions;
import dev.straggler.replay.SpillFile;
import dev.straggler.replay.ProgressListener;
import dev.straggler.trace.TraceSource;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The root causes of a trace whose locations spill their interval entries ({@code IntervalEntries}) or their
 * marks ({@code CallPathIntervals.spillMarks}) are those computed with everything on the heap, value for value: the
 * stage reads the blocks back in whatever order it needs them.
 */
class SpilledIntervalsTest {

    private static RootCauses.Result rootCauses(TraceSource trace, SpillFile spill, int threads) throws Exception {
        return rootCauses(trace, spill, null, threads);
    }

    /** The stage with the interval entries in {@code spill} and, when {@code marks} is given, the marks in it. */
    private static RootCauses.Result rootCauses(TraceSource trace, SpillFile spill, SpillFile marks, int threads)
            throws Exception {
        ExecutorService pool = Pools.fixed(threads, "spill-test");
        try {
            Replay replay = Replay.run(trace, ReplayOptions.defaults().withThreads(threads).withIntervals(true), pool);
            if (marks != null) {
                for (var d : replay.locations()) {
                    d.intervals().spillMarks(marks);
                    assertTrue(d.intervals().marksSpilled(), "location " + d.location() + " spilled its marks");
                }
            }
            SeverityCube cube = Analysis.emptyCube(replay.definitions(), replay.regions(), replay.callTree(), "t",
                    true);
            WaitStates.Result ws = WaitStates.run(replay, cube, pool, threads, 5, true, ProgressListener.NONE);
            return RootCauses.run(replay, ws.collectives(), ws.init(), ws.fin(), ws.lateSenderWaits(),
                    ws.lateReceiverWaits(), ws.instances(), pool, threads, true, spill,
                    ProgressListener.NONE);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void spilledIntervalEntriesGiveTheRootCausesOfEntriesOnTheHeap(@TempDir Path dir) throws Exception {
        // 4 ranks of 4,000 iterations: about 45,000 interval entries per location, past the spill's threshold
        var b = DeterminismTest.randomTrace(4, 4000, 13);
        RootCauses.Result heap = rootCauses(b.build(), null, 2);
        RootCauses.Result spilled;
        long written;
        try (SpillFile spill = new SpillFile(dir)) {
            spilled = rootCauses(b.build(), spill, 2);
            written = spill.bytes();
        }
        assertTrue(written > 0, "the locations spilled their entries");
        assertSameRootCauses(heap, spilled);
    }

    @Test
    void entriesWithinTheHeapAllowanceStayOnTheHeap(@TempDir Path dir) throws Exception {
        var b = DeterminismTest.randomTrace(4, 4000, 13);
        RootCauses.Result heap = rootCauses(b.build(), null, 2);
        long all;
        try (SpillFile spill = new SpillFile(dir)) {
            rootCauses(b.build(), spill, 2);
            all = spill.bytes();
        }
        RootCauses.Result kept;
        try (SpillFile spill = new SpillFile(dir)) {
            spill.allowOnHeap(Long.MAX_VALUE);
            kept = rootCauses(b.build(), spill, 2);
            assertEquals(0, spill.bytes(), "an allowance larger than the entries writes none of them");
        }
        assertSameRootCauses(heap, kept);
        RootCauses.Result part;
        try (SpillFile spill = new SpillFile(dir)) {
            // a block of entries is 4,096 x 12 bytes: an allowance of three lets the first location keep the blocks
            // past its threshold and the second one block until it is refused and writes them all; one thread, so
            // that the locations ask in their order
            spill.allowOnHeap(3L * 4096 * 12);
            part = rootCauses(b.build(), spill, 1);
            assertTrue(spill.bytes() > 0 && spill.bytes() < all, "some blocks written, fewer than without an"
                    + " allowance: " + spill.bytes() + " of " + all + " bytes");
        }
        assertSameRootCauses(heap, part);
    }

    @Test
    void spilledMarksGiveTheRootCausesOfMarksOnTheHeap(@TempDir Path dir) throws Exception {
        // 2 ranks of 12,000 iterations: about 84,000 marks per location, past the marks' spill threshold
        var b = DeterminismTest.randomTrace(2, 12_000, 29);
        RootCauses.Result heap = rootCauses(b.build(), null, 2);
        RootCauses.Result spilled;
        try (SpillFile marks = new SpillFile(dir)) {
            spilled = rootCauses(b.build(), null, marks, 2);
        }
        assertSameRootCauses(heap, spilled);
    }

    @Test
    void spilledMarksOfOpenMpThreadsGiveTheRootCausesOfMarksOnTheHeap(@TempDir Path dir) throws Exception {
        // 2 ranks of 4 threads, 36,000 repetitions of a parallel region and an exchange: every thread holds more than
        // the marks' spill threshold (forks, barriers and joins; the masters' sends and receives too)
        dev.straggler.trace.MemoryTrace trace = new dev.straggler.trace.MemoryTrace("hybrid");
        dev.straggler.testdata.Scenarios.byName("hybrid-omp-to-late-sender").generate(
                new dev.straggler.testdata.ScenarioParams(2, 1, java.util.Map.of("reps", "36000", "threads", "4")),
                trace);
        RootCauses.Result heap = rootCauses(trace, null, 2);
        RootCauses.Result spilled;
        try (SpillFile marks = new SpillFile(dir)) {
            spilled = rootCauses(trace, null, marks, 2);
        }
        assertSameRootCauses(heap, spilled);
    }

    private static void assertSameRootCauses(RootCauses.Result heap, RootCauses.Result spilled) {
        double delay = 0;
        for (int l = 0; l < heap.severities().length; l++) {
            Int2DoubleOpenHashMap[] a = heap.severities()[l];
            Int2DoubleOpenHashMap[] s = spilled.severities()[l];
            assertEquals(a.length, s.length);
            for (int m = 0; m < a.length; m++) {
                assertEquals(a[m], s[m], "location " + l + ", metric " + m);
                if (a[m] != null) {
                    for (double v : a[m].values()) {
                        delay += Math.abs(v);
                    }
                }
            }
        }
        assertTrue(delay > 0, "the trace has root causes to compare");
        assertEquals(heap.causes(), spilled.causes());
        assertEquals(List.copyOf(heap.problems()), List.copyOf(spilled.problems()));
    }
}
