package dev.straggler.patterns.algebra;

import dev.straggler.patterns.CommunicatorWaits;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommunicatorDiffTest {
    private static CommunicatorWaits comm(int id, int size, double nxn, double barrier) {
        int[] ranks = new int[size];
        for (int i = 0; i < size; i++) {
            ranks[i] = id * size + i;
        }
        return new CommunicatorWaits(id, "c" + id, ranks, Map.of("mpi_wait_nxn", nxn, "mpi_barrier_wait", barrier,
                "mpi_nxn_completion", 9.0));
    }

    @Test
    void communicatorsOfOneSizeAreAddedAndCompletionIsNotWaiting() {
        // A: two communicators of 16 waiting 0.3 + 0.1 and 0.2; B: one of 16 waiting 0.1
        CommunicatorDiff d = CommunicatorDiff.of(List.of(comm(0, 16, 0.3, 0.1), comm(1, 16, 0.2, 0)),
                List.of(comm(0, 16, 0.1, 0)));
        assertEquals(1, d.rows().size());
        CommunicatorDiff.Row r = d.rows().get(0);
        assertEquals(0.6, r.a(), 1e-12);
        assertEquals(0.1, r.b(), 1e-12);
        assertEquals(2, r.countA());
        assertEquals(1, r.countB());
    }

    @Test
    void sharesAreOfTheGrossChangeInTheirDirection() {
        // size 4: +0.3, size 8: +0.1, size 64: -0.2 -> 75 % and 25 % of the growth, 100 % of the shrinkage
        CommunicatorDiff d = CommunicatorDiff.of(
                List.of(comm(0, 4, 0.4, 0), comm(1, 8, 0.1, 0), comm(2, 64, 0.1, 0)),
                List.of(comm(0, 4, 0.1, 0), comm(2, 64, 0.3, 0)));
        assertEquals(75.0, d.share(d.rows().get(0)), 1e-9);
        assertEquals(25.0, d.share(d.rows().get(1)), 1e-9);
        assertEquals(100.0, d.share(d.rows().get(2)), 1e-9);
        assertTrue(d.render().contains("75.0 % of the growth in waiting is in communicators of 4 processes"),
                d.render());
    }
}
