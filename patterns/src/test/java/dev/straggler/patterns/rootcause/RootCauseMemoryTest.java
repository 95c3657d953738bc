package dev.straggler.patterns.rootcause;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The root-cause stage is skipped, with its reason, only when its marks would not fit in the free heap. */
class RootCauseMemoryTest {
    private static final long GIB = 1L << 30;

    @Test
    void aStageThatFitsInTheFreeHeapRuns() {
        // 10^7 marks need about 1.0 GiB; 6 GiB are free
        assertNull(RootCauseMemory.shortfall(10_000_000L, 0, 0, 16 * GIB, 10 * GIB));
    }

    @Test
    void theMessageRecordsTheStageFreesCountAsRoom() {
        // 32.7 M marks at 105 bytes: 3.19 GiB; 2.1 GiB free, and 1.15 GiB of records freed as the stage starts
        long marks = 32_666_496L;
        long free = (long) (2.1 * GIB);
        assertTrue(RootCauseMemory.shortfall(marks, 0, 0, 16 * GIB, 16 * GIB - free) != null);
        assertNull(RootCauseMemory.shortfall(marks, 0, (long) (1.15 * GIB), 16 * GIB, 16 * GIB - free));
    }

    @Test
    void marksInASpillFileLeaveTheStageLessToFind() {
        // the 1.2e8-event trace with its marks spilled: 32.7 M marks, 1.13 GiB of rows freed. At 105 bytes a mark the
        // stage needs 2.06 GiB, at 95 (spilled) 1.76 GiB: 1.85 GiB free is let through only for spilled marks. With
        // 45.7 bytes per mark free (1.39 GiB) the stage ended with an out-of-memory error: refused either way
        long marks = 32_666_496L;
        long released = 1_215_193_651L;
        long used = 16 * GIB - (long) (1.85 * GIB);
        assertTrue(RootCauseMemory.shortfall(marks, 0, 0, released, 16 * GIB, used) != null);
        assertNull(RootCauseMemory.shortfall(marks, 0, marks, released, 16 * GIB, used));
        String why = RootCauseMemory.shortfall(marks, 0, marks, released, 16 * GIB, 16 * GIB - (long) (1.39 * GIB));
        assertTrue(why != null && why.contains("; about 95 bytes each with the marks in a scratch file, 165 for an"
                + " OpenMP one, less the 1.1 GiB of message records"), why);
        // some locations' marks spilled, some too small to be: both counts are named
        assertTrue(RootCauseMemory.shortfall(marks, 0, marks / 2, released, 16 * GIB, 15 * GIB)
                .contains("; about 105 bytes each, 95 with the mark in a scratch file, 165 for an OpenMP one"));
    }

    @Test
    void openMpMarksCountForMoreThanMpiMarks() {
        // the hybrid trace of 10^8 events: 8.7 M MPI and 24.1 M OpenMP marks, 0.3 GiB of rows freed. At 105 and 165
        // bytes: 0.91 + 3.98 - 0.32 = 4.57 GB. With 3.98 GB free it ended with an out-of-memory error (refused here),
        // with 4.91 GB it completed
        long marks = 32_801_232L;
        long openMp = 24_113_344L;
        long released = 323_402_496L;
        assertTrue(RootCauseMemory.shortfall(marks, openMp, released, 16 * GIB, 16 * GIB - 3_980_000_000L) != null);
        assertNull(RootCauseMemory.shortfall(marks, openMp, released, 16 * GIB, 16 * GIB - 4_910_000_000L));
        // counted as MPI marks, the 3.98 GB would have been let through
        assertNull(RootCauseMemory.shortfall(marks, 0, released, 16 * GIB, 16 * GIB - 3_980_000_000L));
    }

    @Test
    void aStageThatDoesNotFitSaysHowMuchItNeedsAndWhatToDo() {
        // 10^8 marks at 105 bytes: 9.8 GiB, less 2 GiB of records freed: 7.8 GiB; 2 GiB are free
        String why = RootCauseMemory.shortfall(100_000_000L, 0, 2 * GIB, 16 * GIB, 14 * GIB);
        assertTrue(why.startsWith("they need about 7.8 GiB more memory for 100,000,000 marks (MPI records, and OpenMP forks"), why);
        assertTrue(why.contains("about 105 bytes each, 165 for an OpenMP one, less the 2.0 GiB of message records the stage frees)"), why);
        assertTrue(why.contains("only 2.0 GiB of the 16.0 GiB heap are free"), why);
        // 14 GiB in use and 7.8 more, with a tenth to spare: 24.0 GiB, asked for as 24g
        assertTrue(why.contains("STRAGGLER_HEAP=24g") && why.endsWith("or analyse with --no-root-causes"), why);
    }

    @Test
    void marksProjectedOverTheHeapSayHowMuchTheWholeTraceNeedsAndFromWhatShare() {
        // 333,333,333 marks (a trace of 10^9 events) at 140 bytes: 43.5 GiB; asks for 10 % more, rounded up
        String why = RootCauseMemory.projected(333_333_333L, 0, 0.0512, 16 * GIB);
        assertTrue(why.startsWith("they would need about 43.5 GiB of heap for about 333,333,333 marks"), why);
        assertTrue(why.contains("about 140 bytes each, 200 for an OpenMP one"), why);
        assertTrue(why.contains("projected from the first 5 % of the trace's events, more than the 16.0 GiB heap"), why);
        assertTrue(why.contains("STRAGGLER_HEAP=48g") && why.endsWith("or analyse with --no-root-causes"), why);
    }

    @Test
    void aDistributedStageIsSpreadOverItsExecutors() {
        // 272,000,000 marks at 280 bytes: 70.9 GiB, 17.7 GiB on each of 4 executors, 4.4 GiB on each of 16
        String why = RootCauseMemory.executorShortfall(272_000_000L, 4, 8 * GIB);
        assertTrue(why.startsWith("they would need about 17.7 GiB of heap per executor for 272,000,000 marks"), why);
        assertTrue(why.contains("about 280 bytes each, the records and Spark's copies of them included"), why);
        assertTrue(why.contains("over 4 executor(s) of 8.0 GiB") && why.contains("STRAGGLER_HEAP=20g"), why);
        assertNull(RootCauseMemory.executorShortfall(272_000_000L, 16, 8 * GIB));
    }
}
