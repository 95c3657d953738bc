package dev.straggler.patterns;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The last check on impossible numbers: which values stop an analysis as a defect, and which do not. */
class ResultBoundsTest {
    /** Two ranks, one call path, with one value set; a run of 1 s. */
    private static SeverityCube cube(int metric, double value) {
        SeverityCube c = new SeverityCube(MetricTree.ALL,
                List.of(new Region(0, "main", "main", "app.c", 0, 0, Paradigm.USER, RegionRole.FUNCTION)),
                List.of(new CallPath(0, -1, 0, 0)),
                List.of(new SystemLocation(0, 0, 0, "Master thread"), new SystemLocation(1, 1, 0, "Master thread")),
                Map.of());
        c.set(metric, 0, 1, value);
        return c.freeze();
    }

    @Test
    void aNegativeTimeIsADefect() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ResultBounds.check(cube(MetricTree.MPI_LATESENDER, -0.5), 1.0));
        assertTrue(e.getMessage().contains("Late Sender = -0.5"), e.getMessage());
    }

    @Test
    void aWaitLongerThanTheRunIsADefect() {
        assertThrows(IllegalStateException.class, () -> ResultBounds.check(cube(MetricTree.MPI_LATESENDER, 1.5), 1.0));
    }

    /** Scalasca's remapping defines it as a difference that can go below zero (docs/root-causes.md). */
    @Test
    void aNegativeIntraPartitionImbalanceIsScalascasAndNoDefect() {
        SeverityCube c = cube(MetricTree.INTRA_PARTITION_IMBALANCE, -2.65e-4);
        assertDoesNotThrow(() -> ResultBounds.check(c, 1.0));
        String w = Analysis.negativeIntraPartitionImbalance(c);
        assertTrue(w != null && w.contains("negative on 1 location(s), down to -2.650e-04 s"), w);
    }
}
