package dev.straggler.trace.otf2;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that encodes OTF2 fields in a chosen byte order (reference §6.3): fixed-width integers,
 * compressed integers (byte count, then the significant bytes; 0 and all ones as single bytes; negative signed
 * values at full width), NUL-terminated strings and record lengths. Not thread-safe.
 */
final class RecordBuffer {
    byte[] buf;
    int pos;
    final boolean little;

    RecordBuffer(int capacity, ByteOrder order) {
        buf = new byte[Math.max(16, capacity)];
        little = order == ByteOrder.LITTLE_ENDIAN;
    }

    void reset() {
        pos = 0;
    }

    private void ensure(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }
    }

    void u8(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
    }

    void fixed(long v, int bytes) {
        ensure(bytes);
        for (int i = 0; i < bytes; i++) {
            int shift = little ? 8 * i : 8 * (bytes - 1 - i);
            buf[pos++] = (byte) (v >>> shift);
        }
    }

    void u32Fixed(long v) {
        fixed(v, 4);
    }

    void u64Fixed(long v) {
        fixed(v, 8);
    }

    void f64(double v) {
        fixed(Double.doubleToRawLongBits(v), 8);
    }

    /** Compressed uint64; -1 is OTF2's undefined (all ones). */
    void u64c(long v) {
        if (v == 0 || v == -1L) {
            u8(v == 0 ? 0 : 0xFF);
            return;
        }
        int n = 8 - Long.numberOfLeadingZeros(v) / 8;
        u8(n);
        fixed(v, n);
    }

    /** Compressed uint32 from a Java int holding the unsigned value; -1 is OTF2's undefined. */
    void u32c(int v) {
        if (v == -1) {
            u8(0xFF);
        } else {
            u64c(v & 0xFFFF_FFFFL);
        }
    }

    /** Compressed int64: non-negative values as few bytes as they need, negative ones at full width. */
    void i64c(long v) {
        if (v < 0) {
            u8(8);
            fixed(v, 8);
        } else if (v == 0) {
            u8(0);
        } else {
            int n = 8 - Long.numberOfLeadingZeros(v) / 8;
            u8(n);
            fixed(v, n);
        }
    }

    void string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        ensure(b.length + 1);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
        buf[pos++] = 0;
    }

    void bytes(byte[] b, int from, int n) {
        ensure(n);
        System.arraycopy(b, from, buf, pos, n);
        pos += n;
    }

    /** Appends a record: type, its length (one byte, or 0xFF and a uint64), and the body. */
    void record(int type, RecordBuffer body) {
        record(type, body.buf, body.pos);
    }

    void record(int type, byte[] body, int n) {
        u8(type);
        if (n < 0xFF) {
            u8(n);
        } else {
            u8(0xFF);
            u64Fixed(n);
        }
        bytes(body, 0, n);
    }

    /** Bytes a record with a body of {@code n} bytes takes. */
    static int recordSize(int n) {
        return 1 + (n < 0xFF ? 1 : 9) + n;
    }
}
