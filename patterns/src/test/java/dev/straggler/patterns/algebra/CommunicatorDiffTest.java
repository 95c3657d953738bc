package dev.straggler.patterns.algebra;

import dev.straggler.patterns.CommunicatorWaits;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void sharesAreSignedPartsOfTheGrossChange() {
        // size 4: +0.3, size 8: +0.1, size 64: -0.2; gross change 0.6 -> +50 %, +16.7 %, -33.3 %
        CommunicatorDiff d = CommunicatorDiff.of(
                List.of(comm(0, 4, 0.4, 0), comm(1, 8, 0.1, 0), comm(2, 64, 0.1, 0)),
                List.of(comm(0, 4, 0.1, 0), comm(2, 64, 0.3, 0)));
        assertEquals(0.6, d.grossChange(), 1e-12);
        assertEquals(0.2, d.netChange(), 1e-12);
        assertEquals(0.5, d.share(d.rows().get(0)), 1e-9);
        assertEquals(0.1 / 0.6, d.share(d.rows().get(1)), 1e-9);
        assertEquals(-0.2 / 0.6, d.share(d.rows().get(2)), 1e-9);
        assertTrue(d.render().contains("waiting grew most in communicators of 4 processes: +0.300000 s, 50.0 % of the "
                + "gross change"), d.render());
        assertEquals(50.0, d.toJson().get(0).get("shareOfGrossChangePercent").asDouble(), 1e-9);
    }

    /**
     * NPB MG's world communicator at 16 against 8 processes: the 8's waiting (0.08 s) is gone and the 16's (0.24 s)
     * is new. The two opposite changes get opposite shares, -25 % and +75 % of the gross 0.32 s, not 100 % each.
     */
    @Test
    void oppositeChangesGetOppositeSharesWithinOneHundredPercent() {
        CommunicatorDiff d = CommunicatorDiff.of(List.of(comm(0, 16, 0.24, 0)), List.of(comm(0, 8, 0.08, 0)));
        assertEquals(-0.25, d.share(d.rows().get(0)), 1e-9);
        assertEquals(0.75, d.share(d.rows().get(1)), 1e-9);
        String text = d.render();
        assertTrue(text.contains("-25.0 %") && text.contains("+75.0 %"), text);
        assertFalse(text.contains("100.0"), text);
        assertTrue(text.contains("gross change 0.320000 s"), text);
        double magnitudes = 0;
        for (var row : d.toJson()) {
            double share = row.get("shareOfGrossChangePercent").asDouble();
            assertTrue(share >= -100 && share <= 100, row.toString());
            assertEquals(Math.signum(row.get("change").asDouble()), Math.signum(share), row.toString());
            magnitudes += Math.abs(share);
        }
        assertEquals(100.0, magnitudes, 1e-9);
    }

    /** A size whose waiting changed by a rounding residue prints a change and share of 0, without a sign. */
    @Test
    void aChangeThatRoundsToZeroHasNoSign() {
        CommunicatorDiff d = CommunicatorDiff.of(List.of(comm(0, 4, 0.3, 0), comm(1, 8, 0.1, 0)),
                List.of(comm(0, 4, 0.1, 0), comm(1, 8, 0.1 + 1e-9, 0)));
        String text = d.render();
        assertFalse(text.contains("-0.0"), text);
        assertTrue(text.contains(" 0.000000 s"), text);
    }
}
