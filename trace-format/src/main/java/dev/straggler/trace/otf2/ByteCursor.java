package dev.straggler.trace.otf2;

import dev.straggler.trace.TraceFormatException;

import java.nio.charset.StandardCharsets;

/**
 * Reads OTF2 fields from a byte array in the byte order of the chunk (reference §6.3). Used for the anchor and
 * definition files; the event hot path has its own inlined decoding ({@link EventDecoder}). Every read checks
 * the bounds and fails with the file and byte offset of the field.
 */
final class ByteCursor {
    final String file;
    byte[] buf;
    int pos;
    int limit;
    boolean little;
    /** File offset of {@code buf[0]}, for messages. */
    long base;

    ByteCursor(String file) {
        this.file = file;
    }

    void reset(byte[] b, int from, int to, long fileOffsetOfArray) {
        buf = b;
        pos = from;
        limit = to;
        base = fileOffsetOfArray;
    }

    long offset() {
        return base + pos;
    }

    boolean atEnd() {
        return pos >= limit;
    }

    TraceFormatException error(String what) {
        return new TraceFormatException(file + ": byte offset " + offset() + ": " + what);
    }

    private void need(int n, String what) throws TraceFormatException {
        if (pos + n > limit) {
            throw error("truncated " + what + " (needs " + n + " bytes, " + Math.max(0, limit - pos) + " left)");
        }
    }

    int u8() throws TraceFormatException {
        need(1, "uint8 field");
        return buf[pos++] & 0xFF;
    }

    int u16() throws TraceFormatException {
        need(2, "uint16 field");
        return (int) fixed(2);
    }

    int u32Fixed() throws TraceFormatException {
        need(4, "uint32 field");
        return (int) fixed(4);
    }

    long u64Fixed() throws TraceFormatException {
        need(8, "uint64 field");
        return fixed(8);
    }

    double f64() throws TraceFormatException {
        return Double.longBitsToDouble(u64Fixed());
    }

    private long fixed(int n) {
        long v = 0;
        if (little) {
            for (int i = n - 1; i >= 0; i--) {
                v = (v << 8) | (buf[pos + i] & 0xFFL);
            }
        } else {
            for (int i = 0; i < n; i++) {
                v = (v << 8) | (buf[pos + i] & 0xFFL);
            }
        }
        pos += n;
        return v;
    }

    /**
     * A compressed integer: a byte count then that many value bytes; {@code 0x00} alone is 0 and {@code 0xFF} alone
     * all ones (OTF2's undefined). Negative signed values are written at full width, so the raw bits are the value.
     */
    long compressed(int maxBytes) throws TraceFormatException {
        need(1, "compressed integer");
        int n = buf[pos++] & 0xFF;
        if (n == 0) {
            return 0;
        }
        if (n == 0xFF) {
            return maxBytes == 4 ? 0xFFFF_FFFFL : -1L;
        }
        if (n > maxBytes) {
            pos--;
            throw error("invalid compressed integer: " + n + " bytes for a " + (maxBytes * 8) + "-bit field");
        }
        need(n, "compressed integer");
        return fixed(n);
    }

    long u64c() throws TraceFormatException {
        return compressed(8);
    }

    /** A compressed uint32 as a Java int (all ones, OTF2's undefined, becomes -1). */
    int u32c() throws TraceFormatException {
        return (int) compressed(4);
    }

    long i64c() throws TraceFormatException {
        return compressed(8);
    }

    String string() throws TraceFormatException {
        int start = pos;
        while (pos < limit && buf[pos] != 0) {
            pos++;
        }
        if (pos >= limit) {
            pos = start;
            throw error("unterminated string");
        }
        String s = new String(buf, start, pos - start, StandardCharsets.UTF_8);
        pos++;
        return s;
    }

    /**
     * Reads a record-length field (one byte, or 0xFF and a uint64) and returns the position where the record
     * ends, after checking that it ends inside the data.
     */
    int recordEnd() throws TraceFormatException {
        need(1, "record length");
        long len = buf[pos++] & 0xFF;
        if (len == 0xFF) {
            len = u64Fixed();
        }
        if (len < 0 || pos + len > limit) {
            throw error("record length " + len + " runs past the end of the chunk (" + (limit - pos) + " bytes left)");
        }
        return pos + (int) len;
    }

    void skip(int n) throws TraceFormatException {
        need(n, "field");
        pos += n;
    }

    /** Skips an attribute value of an OTF2 {@code OTF2_Type} (reference §6.2). */
    void skipTypedValue(int type) throws TraceFormatException {
        switch (type) {
            case 1, 5 -> skip(1);
            case 2, 6 -> skip(2);
            case 9 -> skip(4);
            case 10 -> skip(8);
            case 4, 8, 13 -> u64c();
            default -> u32c();
        }
    }
}
