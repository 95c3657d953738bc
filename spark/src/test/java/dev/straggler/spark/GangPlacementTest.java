package dev.straggler.spark;

import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The barrier stage regroups the locations by process only where that moves one: with one thread per process and the
 * locations in rank order, the process ranges are the location ranges.
 */
class GangPlacementTest {

    private static TraceDefinitions defs(int ranks, int threads) {
        TraceDefinitions.Builder b = TraceDefinitions.builder().experiment(Experiment.of("gang", ranks));
        for (int r = 0; r < ranks; r++) {
            b.location(Location.masterThread(r, r));
        }
        // Score-P numbers the masters first, then each process's worker threads
        for (int r = 0; r < ranks; r++) {
            for (int t = 1; t < threads; t++) {
                int index = ranks + r * (threads - 1) + (t - 1);
                b.location(new Location(index, ((long) t << 32) | r, "OMP thread " + t, LocationType.CPU_THREAD, r, t,
                        -1));
            }
        }
        return b.build();
    }

    @Test
    void oneThreadPerProcessIsPlacedAsTheLocationRanges() {
        TraceDefinitions d = defs(16, 1);
        assertTrue(RootCauseStage.samePlacement(ProcessPartitioner.of(d, 2), new LocationPartitioner(16, 2), 16));
        assertTrue(RootCauseStage.samePlacement(ProcessPartitioner.of(d, 5), new LocationPartitioner(16, 5), 16));
    }

    @Test
    void threadsOfAProcessAreRegroupedWithTheirMaster() {
        TraceDefinitions d = defs(4, 2);
        assertFalse(RootCauseStage.samePlacement(ProcessPartitioner.of(d, 2), new LocationPartitioner(8, 2), 8));
    }

    @Test
    void anotherNumberOfPartitionsIsAnotherPlacement() {
        TraceDefinitions d = defs(16, 1);
        assertFalse(RootCauseStage.samePlacement(ProcessPartitioner.of(d, 2), new LocationPartitioner(16, 4), 16));
    }
}
