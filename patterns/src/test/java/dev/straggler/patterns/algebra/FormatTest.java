package dev.straggler.patterns.algebra;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The terminal's number texts never carry the sign of a number that prints as zero. */
class FormatTest {
    @Test
    void whatRoundsToZeroPrintsWithoutSign() {
        assertEquals("0.0 %", Format.share(-1e-5));
        assertEquals("0.0 %", Format.relative(-1e-5));
        assertEquals("0.0 %", Format.relative(0));
        assertEquals("0.000 s", Format.signed(0, "sec"));
        assertEquals("0.000 s", Format.signed(-0.0, "sec"));
        assertEquals("0.000 s", Format.value(-0.0, "sec"));
        assertEquals("0 B", Format.value(-0.2, "bytes"));
        assertEquals("0 B", Format.signed(-0.2, "bytes"));
        assertEquals("0.00", Format.signed(-0.001, "occ"));
    }

    @Test
    void whatDoesNotRoundToZeroKeepsItsSign() {
        assertEquals("-0.1 %", Format.relative(-0.0006));
        assertEquals("-0.1 %", Format.share(-0.0006));
        assertEquals("-1.00e-05 s", Format.signed(-1e-5, "sec"));
        assertEquals("+0.002 s", Format.signed(0.002, "sec"));
        assertEquals("-1 B", Format.signed(-1, "bytes"));
    }

    @Test
    void paddedTextKeepsItsWidth() {
        assertEquals("    0.0%", Format.unsignedZero("   -0.0%"));
        assertEquals("   -0.1%", Format.unsignedZero("   -0.1%"));
        assertEquals("rank -0", Format.unsignedZero("rank -0"));
    }
}
