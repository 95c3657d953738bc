package dev.straggler.patterns.rootcause;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The root-cause stage is skipped, with its reason, only when its marks would not fit in the free heap. */
class RootCauseMemoryTest {
    private static final long GIB = 1L << 30;

    @Test
    void aStageThatFitsInTheFreeHeapRuns() {
        // 10^7 marks need about 0.7 GiB; 6 GiB are free
        assertNull(RootCauseMemory.shortfall(10_000_000L, 0, 0, 16 * GIB, 10 * GIB));
    }

    @Test
    void theMessageRecordsTheStageFreesCountAsRoom() {
        // 32.7 M marks at 75 bytes: 2.28 GiB; 2.1 GiB free, and 1.15 GiB of records freed as the stage starts
        long marks = 32_666_496L;
        long free = (long) (2.1 * GIB);
        assertTrue(RootCauseMemory.shortfall(marks, 0, 0, 16 * GIB, 16 * GIB - free) != null);
        assertNull(RootCauseMemory.shortfall(marks, 0, (long) (1.15 * GIB), 16 * GIB, 16 * GIB - free));
    }

    @Test
    void theCheckRefusesTheHeapInWhichTheStageFailedAndLetsThroughOneInWhichItCompleted() {
        // the 1.2e8-event trace: 32.7 M marks, 37.2 bytes per mark of rows freed; at 75 bytes a mark the stage is
        // counted 37.8 bytes per mark. It ended with an out-of-memory error with 29.3 bytes per mark free (a 3.6 GiB
        // heap) and completed with 43.4 (4 GiB) and with 35.0 (3.8 GiB, refused here: the margin)
        long marks = 32_666_496L;
        long released = 1_215_193_651L;
        assertTrue(RootCauseMemory.shortfall(marks, 0, released, 16 * GIB, 16 * GIB - 957_128_332L) != null);
        assertTrue(RootCauseMemory.shortfall(marks, 0, released, 16 * GIB, 16 * GIB - 1_143_327_360L) != null);
        assertNull(RootCauseMemory.shortfall(marks, 0, released, 16 * GIB, 16 * GIB - 1_417_725_926L));
    }

    @Test
    void collectiveMarksCountAsEveryMarkDidBeforeThePartnerFactsWaitedForTheRows() {
        // 10^7 marks, 4 M of them collective: 6 M at 75 bytes and 4 M at 105, 0.81 GiB; 0.75 GiB free is too little,
        // though 10^7 marks at 75 bytes (0.70 GiB) would fit
        long used = 16 * GIB - (long) (0.75 * GIB);
        assertNull(RootCauseMemory.shortfall(10_000_000L, 0, 0, 16 * GIB, used));
        assertTrue(RootCauseMemory.shortfall(10_000_000L, 0, 4_000_000L, 0, 16 * GIB, used, 1.0) != null);
        assertNull(RootCauseMemory.shortfall(10_000_000L, 0, 4_000_000L, 0, 16 * GIB, 16 * GIB - (long) (0.85 * GIB),
                1.0));
    }

    @Test
    void openMpMarksCountForMoreThanMpiMarks() {
        // the hybrid trace of 10^8 events: 8.7 M MPI and 24.1 M OpenMP marks, 0.3 GiB of rows freed. At 75 and 170
        // bytes: 0.65 + 4.10 - 0.32 = 4.43 GB. With 3.98 GB free it ended with an out-of-memory error (refused here),
        // with 4.91 GB and (its marks spilled) 4.51 GB it completed
        long marks = 32_801_232L;
        long openMp = 24_113_344L;
        long released = 323_402_496L;
        assertTrue(RootCauseMemory.shortfall(marks, openMp, released, 16 * GIB, 16 * GIB - 3_980_000_000L) != null);
        assertNull(RootCauseMemory.shortfall(marks, openMp, released, 16 * GIB, 16 * GIB - 4_910_000_000L));
        assertNull(RootCauseMemory.shortfall(marks, openMp, released, 16 * GIB, 16 * GIB - 4_510_000_000L));
        // counted as MPI marks, the 3.98 GB would have been let through
        assertNull(RootCauseMemory.shortfall(marks, 0, released, 16 * GIB, 16 * GIB - 3_980_000_000L));
    }

    @Test
    void aStageThatDoesNotFitSaysHowMuchItNeedsAndWhatToDo() {
        // 10^8 marks at 75 bytes: 6.98 GiB, less 2 GiB of records freed: 4.98 GiB; 2 GiB are free
        String why = RootCauseMemory.shortfall(100_000_000L, 0, 2 * GIB, 16 * GIB, 14 * GIB);
        assertTrue(why.startsWith("they need about 5.0 GiB more memory for 100,000,000 marks (MPI records, and OpenMP forks"), why);
        assertTrue(why.contains("about 75 bytes each, 105 for a collective one, 170 for an OpenMP one, less the 2.0 GiB of message records the stage frees)"), why);
        assertTrue(why.contains("only 2.0 GiB of the 16.0 GiB heap are free"), why);
        // 14 GiB in use and 4.98 more, with a tenth to spare: 20.9 GiB, asked for as 21g
        assertTrue(why.contains("STRAGGLER_HEAP=21g") && why.endsWith("or analyse with --no-root-causes"), why);
    }

    @Test
    void marksProjectedOverTheHeapSayHowMuchTheWholeTraceNeedsAndFromWhatShare() {
        // 333,333,333 marks (a trace of 10^9 events) at 60 bytes (the least: the whole analysis with the marks in
        // the scratch file): 18.6 GiB; asks for 10 % more, rounded up
        String why = RootCauseMemory.projected(333_333_333L, 0, 0.0512, 16 * GIB);
        assertTrue(why.startsWith("they would need about 18.6 GiB of heap for about 333,333,333 marks"), why);
        assertTrue(why.contains("about 60 bytes each with the marks in the scratch file, 205 for an OpenMP one"), why);
        assertTrue(why.contains("projected from the first 5 % of the trace's events, more than the 16.0 GiB heap"), why);
        assertTrue(why.contains("STRAGGLER_HEAP=21g") && why.endsWith("or analyse with --no-root-causes"), why);
    }

    @Test
    void marksInTheScratchFileCountTheStageNeedMeasuredThere() {
        // 30 M marks: on the heap 75 bytes each, 2.1 GiB; in the scratch file 50 each, 1.4 GiB
        long marks = 30_000_000L;
        assertTrue(RootCauseMemory.shortfall(marks, 0, 0, 0, 0, 16 * GIB, 16 * GIB - (long) (1.5 * GIB), 1.0) != null);
        assertNull(RootCauseMemory.shortfall(marks, 0, 0, marks, 0, 16 * GIB, 16 * GIB - (long) (1.5 * GIB), 1.0));
        String why = RootCauseMemory.shortfall(marks, 0, 0, marks, 0, 16 * GIB, 16 * GIB - GIB, 1.0);
        assertTrue(why != null && why.contains("105 for a collective one, 50 for one in the scratch file, 170"), why);
    }

    @Test
    void theHeapAskedForAddsWhatTheJvmKeepsOutOfTheUsableHeap() {
        // a heap given as a budget is taken as it is; this JVM's -Xmx is a survivor space larger than maxMemory
        org.junit.jupiter.api.Assertions.assertEquals(1.0, RootCauseMemory.xmxPerUsable(16 * GIB + 1));
        double r = RootCauseMemory.xmxPerUsable(Runtime.getRuntime().maxMemory());
        assertTrue(r >= 1.0 && r < 1.5, "-Xmx per usable byte: " + r);
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
