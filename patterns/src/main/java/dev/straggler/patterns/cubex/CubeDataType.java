package dev.straggler.patterns.cubex;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * The scalar value types of a Cube metric ({@code <dtype>}), with their size in a data row.
 *
 * <p>Only types whose values add up along the call tree and over locations are mapped here; the others
 * (MINDOUBLE, MAXDOUBLE, COMPLEX, TAU_ATOMIC, RATE, SCALE_FUNC, HISTOGRAM, NDOUBLES) have their own
 * aggregation rules that a {@code SeverityCube} cannot hold, so {@link #of} returns null for them
 * (CubeW {@code cubew_services.c}: dtype names and sizes).
 */
enum CubeDataType {
    DOUBLE(8, false), INT64(8, true), UINT64(8, true), INT32(4, true), UINT32(4, true), INT16(2, true),
    UINT16(2, true), INT8(1, true), UINT8(1, true);

    final int size;
    final boolean integer;

    CubeDataType(int size, boolean integer) {
        this.size = size;
        this.integer = integer;
    }

    /** The type for a {@code <dtype>} string, or null when it is not a summable scalar. */
    static CubeDataType of(String dtype) {
        return switch (dtype.trim().toUpperCase(Locale.ROOT)) {
            case "FLOAT", "DOUBLE" -> DOUBLE;
            case "INTEGER", "INT64" -> INT64;
            case "UINT64" -> UINT64;
            case "INT32", "INT" -> INT32;
            case "UINT32", "UNSIGNED INT" -> UINT32;
            case "INT16", "SHORT INT" -> INT16;
            case "UINT16", "SHORT UNSIGNED INT" -> UINT16;
            case "INT8" -> INT8;
            case "UINT8", "CHAR" -> UINT8;
            default -> null;
        };
    }

    /** Reads one value at the buffer's position (its byte order already set) as a double. */
    double read(ByteBuffer b) {
        return switch (this) {
            case DOUBLE -> b.getDouble();
            case INT64 -> (double) b.getLong();
            // unsigned 64-bit values above 2^63 keep their magnitude
            case UINT64 -> {
                long v = b.getLong();
                yield v >= 0 ? (double) v : (double) (v >>> 1) * 2.0 + (v & 1);
            }
            case INT32 -> b.getInt();
            case UINT32 -> Integer.toUnsignedLong(b.getInt());
            case INT16 -> b.getShort();
            case UINT16 -> Short.toUnsignedInt(b.getShort());
            case INT8 -> b.get();
            case UINT8 -> Byte.toUnsignedInt(b.get());
        };
    }
}
