package dev.straggler.trace.otf2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Piecewise-linear clock correction (reference §6.8), on hand-computed intervals. */
class ClockCorrectionTest {

    @Test
    void fewerThanTwoOffsetsCorrectNothing() {
        assertNull(ClockCorrection.of(new long[] {100}, new long[] {5}));
        assertNull(ClockCorrection.of(new long[0], new long[0]));
    }

    @Test
    void timesInsideAnIntervalInterpolateLinearly() {
        // offset +10 at t=1000, +30 at t=2000: slope 0.02 per tick
        ClockCorrection.Cursor c = ClockCorrection.of(new long[] {1000, 2000}, new long[] {10, 30}).cursor();
        assertEquals(1000 + 10, c.apply(1000));
        assertEquals(1500 + 20, c.apply(1500));
        assertEquals(2000 + 30, c.apply(2000));
    }

    @Test
    void timesBeyondTheEndsExtrapolateTheOuterIntervals() {
        ClockCorrection.Cursor before = ClockCorrection.of(new long[] {1000, 2000, 3000}, new long[] {10, 30, 0})
                .cursor();
        assertEquals(500 + 0, before.apply(500), "before the first offset: 10 + 0.02 * (500 - 1000)");
        ClockCorrection.Cursor after = ClockCorrection.of(new long[] {1000, 2000, 3000}, new long[] {10, 30, 0})
                .cursor();
        assertEquals(2500 + 15, after.apply(2500), "second interval, slope -0.03");
        assertEquals(4000 - 30, after.apply(4000), "after the last offset the last interval continues");
    }

    @Test
    void interpolatedPartRoundsHalfToEven() {
        // slope 0.5: 1 tick in -> 0.5 -> rint gives 0; 3 ticks -> 1.5 -> 2
        ClockCorrection.Cursor c = ClockCorrection.of(new long[] {0, 10}, new long[] {0, 5}).cursor();
        assertEquals(1, c.apply(1));
        assertEquals(3 + 2, c.apply(3));
    }

    @Test
    void timestampsAbove2To53StayExact() {
        long t0 = (1L << 53) + 1;
        ClockCorrection.Cursor c = ClockCorrection.of(new long[] {t0, t0 + 1_000_000}, new long[] {0, 0}).cursor();
        assertEquals(t0 + 2, c.apply(t0 + 2), "odd values above 2^53 are not doubles");
        assertEquals(t0 + 777_777, c.apply(t0 + 777_777));
    }
}
