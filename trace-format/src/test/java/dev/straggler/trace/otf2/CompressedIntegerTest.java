package dev.straggler.trace.otf2;

import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** OTF2's compressed integers (reference §6.3), byte layouts written out by hand. */
class CompressedIntegerTest {

    private static ByteCursor cursor(boolean little, int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        ByteCursor c = new ByteCursor("test");
        c.reset(b, 0, b.length, 0);
        c.little = little;
        return c;
    }

    @Test
    void zeroAndAllOnesAreSingleBytes() throws TraceFormatException {
        assertEquals(0, cursor(true, 0x00).u64c());
        assertEquals(-1L, cursor(true, 0xFF).u64c());
        assertEquals(-1, cursor(true, 0xFF).u32c(), "undefined 32-bit reference");
    }

    @Test
    void valueBytesFollowTheChunkByteOrder() throws TraceFormatException {
        assertEquals(0x0102, cursor(true, 2, 0x02, 0x01).u64c());
        assertEquals(0x0102, cursor(false, 2, 0x01, 0x02).u64c());
        assertEquals(0x0102030405060708L, cursor(false, 8, 1, 2, 3, 4, 5, 6, 7, 8).u64c());
    }

    @Test
    void negativeSignedValuesUseTheFullWidth() throws TraceFormatException {
        assertEquals(-3, cursor(true, 8, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF).i64c());
    }

    @Test
    void tooManyValueBytesAreRejectedWithTheOffset() {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> cursor(true, 5, 1, 2, 3, 4, 5).u32c());
        assertEquals("test: byte offset 0: invalid compressed integer: 5 bytes for a 32-bit field", e.getMessage());
    }
}
