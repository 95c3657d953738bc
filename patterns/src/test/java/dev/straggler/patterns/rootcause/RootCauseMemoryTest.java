package dev.straggler.patterns.rootcause;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The root-cause stage is skipped, with its reason, only when its marks would not fit in the free heap. */
class RootCauseMemoryTest {
    private static final long GIB = 1L << 30;

    @Test
    void aStageThatFitsInTheFreeHeapRuns() {
        // 10^7 marks need about 0.9 GiB; 6 GiB are free
        assertNull(RootCauseMemory.shortfall(10_000_000L, 16 * GIB, 10 * GIB));
    }

    @Test
    void aStageThatDoesNotFitSaysHowMuchItNeedsAndWhatToDo() {
        // 10^8 marks need about 9.3 GiB; 2 GiB are free
        String why = RootCauseMemory.shortfall(100_000_000L, 16 * GIB, 14 * GIB);
        assertTrue(why.startsWith("they need about 9.3 GiB more memory for 100,000,000 marks (MPI records, and OpenMP forks"), why);
        assertTrue(why.contains("only 2.0 GiB of the 16.0 GiB heap are free"), why);
        assertTrue(why.contains("STRAGGLER_HEAP=26g") && why.endsWith("or analyse with --no-root-causes"), why);
    }
}
