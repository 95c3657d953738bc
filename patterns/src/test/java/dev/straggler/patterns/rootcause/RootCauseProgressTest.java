package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.DeterminismTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The root-cause stage reports its progress in locations, as the Spark engine does: never going back, its second pass
 * the first half and its backward replay the second, ending at the number of locations.
 */
class RootCauseProgressTest {

    @Test
    void rootCauseProgressRisesThroughBothHalvesToEveryLocation() throws Exception {
        // 4 ranks of 4,000 iterations: thousands of location advances in the backward replay, so it reports too
        var b = DeterminismTest.randomTrace(4, 4000, 13);
        List<long[]> updates = new ArrayList<>();
        AnalysisOptions o = AnalysisOptions.defaults().withThreads(1).withRootCauses(true)
                .withProgress((phase, done, total) -> {
                    if (phase.equals("root causes")) {
                        synchronized (updates) {
                            updates.add(new long[]{done, total});
                        }
                    }
                });
        Analysis.run(b.build(), o);
        assertFalse(updates.isEmpty());
        long last = -1;
        boolean secondPass = false;
        boolean backward = false;
        for (long[] u : updates) {
            assertEquals(4, u[1], "the total is the number of locations");
            assertTrue(u[0] >= last, "progress went back from " + last + " to " + u[0]);
            last = u[0];
            secondPass |= u[0] > 0 && u[0] <= 2;
            backward |= u[0] > 2 && u[0] < 4;
        }
        assertEquals(4, last, "the stage ends at every location");
        assertTrue(secondPass, "the second pass reported");
        assertTrue(backward, "the backward replay reported before its end");
    }
}
