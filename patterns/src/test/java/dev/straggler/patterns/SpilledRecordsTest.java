package dev.straggler.patterns;

import dev.straggler.replay.LocationData;
import dev.straggler.replay.Replay;
import dev.straggler.replay.ReplayOptions;
import dev.straggler.replay.SpillFile;
import dev.straggler.replay.TraceBuilder;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Point-to-point records moved to the scratch file once their location is complete ({@code ReplayOptions.recordHeap})
 * give the analysis of records kept on the heap, value for value: wait states, instances and root causes, for any
 * thread count. Reading them back is the locations' own business and their partners', in their own order.
 */
class SpilledRecordsTest {
    /**
     * 4 ranks of 9,000 ring iterations: per location 9,000 sends and 18,000 receives or the other way round, at least
     * one full unit of each.
     */
    private static TraceBuilder trace() {
        return DeterminismTest.randomTrace(4, 9_000, 41, true);
    }

    private static AnalysisResult analyse(TraceSource t, int threads, long recordHeap) throws Exception {
        AnalysisOptions o = AnalysisOptions.defaults().withThreads(threads).withRootCauses(true)
                .withRecordHeap(recordHeap);
        return Analysis.run(t, o);
    }

    @Test
    void aReplayWithoutRoomForRecordsMovesEveryFullUnitToTheScratchFile(@TempDir Path dir) throws Exception {
        try (SpillFile f = new SpillFile(dir); TraceSource t = trace().build()) {
            Replay replay = Replay.run(t, ReplayOptions.defaults().withThreads(2).withSpill(f, 0));
            for (LocationData d : replay.locations()) {
                long rows = d.sends().size() + d.receives().size();
                assertTrue(d.sends().size() > 8192 && d.receives().size() > 8192, "a full unit each: " + rows);
                // what stays is the last partial unit of each table
                assertTrue(d.messageRecordHeapBytes() < 8192L * (61 + 53),
                        "location " + d.location() + " kept " + d.messageRecordHeapBytes() + " bytes of rows");
            }
            assertTrue(f.bytes() > 0, "written: " + f.bytes());
        }
    }

    @Test
    void recordsWithinTheRoomStayOnTheHeap(@TempDir Path dir) throws Exception {
        try (SpillFile f = new SpillFile(dir); TraceSource t = trace().build()) {
            Replay replay = Replay.run(t, ReplayOptions.defaults().withThreads(2).withSpill(f, Long.MAX_VALUE));
            assertEquals(0, f.bytes());
            for (LocationData d : replay.locations()) {
                assertEquals(d.sends().size() * 61L + d.receives().size() * 53L, d.messageRecordHeapBytes());
            }
        }
    }

    @Test
    void marksThatFitOnlyInTheScratchFileGoThereAsTheirLocationsComplete(@TempDir Path dir) throws Exception {
        // 2 ranks of 12,000 iterations: about 84,000 marks per location (168,000 in all), past the marks' spill
        // threshold; a heap of 15 MB holds them at 60 bytes each, not at 115
        try (SpillFile f = new SpillFile(dir); TraceSource t = DeterminismTest.randomTrace(2, 12_000, 29).build()) {
            Replay replay = Replay.run(t, ReplayOptions.defaults().withThreads(2).withIntervals(true)
                    .withMarkBudget(115, 60, 15_000_000L).withSpill(f, Long.MAX_VALUE));
            assertTrue(!replay.marksDropped());
            for (LocationData d : replay.locations()) {
                assertTrue(d.intervals().marksSpilled(), "location " + d.location() + ": " + d.intervals().size());
            }
        }
        try (SpillFile f = new SpillFile(dir); TraceSource t = DeterminismTest.randomTrace(2, 12_000, 29).build()) {
            Replay replay = Replay.run(t, ReplayOptions.defaults().withThreads(2).withIntervals(true)
                    .withMarkBudget(115, 60, 5_000_000L).withSpill(f, Long.MAX_VALUE));
            assertTrue(replay.marksDropped(), "over the heap even at 60 bytes each");
        }
    }

    @Test
    void spilledRecordsGiveTheAnalysisOfRecordsOnTheHeap() throws Exception {
        AnalysisResult heap;
        try (TraceSource t = trace().build()) {
            heap = analyse(t, 2, Long.MAX_VALUE);
        }
        assertTrue(heap.causes().size() > 0 && heap.mostSevere().size() > 0, "causes and instances to compare");
        for (int threads : new int[]{1, 2}) {
            AnalysisResult spilled;
            try (TraceSource t = trace().build()) {
                spilled = analyse(t, threads, 0);
            }
            DeterminismTest.assertSameCube(heap.cube(), spilled.cube());
            assertEquals(heap.mostSevere(), spilled.mostSevere(), threads + " thread(s)");
            assertEquals(heap.causes(), spilled.causes(), threads + " thread(s)");
            assertEquals(heap.instanceCounts(), spilled.instanceCounts());
            assertEquals(heap.warnings(), spilled.warnings());
        }
    }
}
