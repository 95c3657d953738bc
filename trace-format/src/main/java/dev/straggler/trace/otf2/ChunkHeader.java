package dev.straggler.trace.otf2;

import dev.straggler.trace.TraceFormatException;

/**
 * The header every chunk of a chunked OTF2 file starts with (reference §6.2): the chunk-header record type, the
 * writer's byte order, and the numbers of the first and last event in the chunk (1-based uint64s in that byte
 * order; a chunk without events, such as a definition chunk, has {@code last < first}).
 */
record ChunkHeader(long firstEvent, long lastEvent, boolean little) {

    /** Event records the chunk declares. */
    long events() {
        return lastEvent >= firstEvent ? lastEvent - firstEvent + 1 : 0;
    }

    /** Reads the header at the cursor's position and sets the cursor's byte order to the chunk's. */
    static ChunkHeader read(ByteCursor c) throws TraceFormatException {
        if (c.limit - c.pos < Otf2Format.CHUNK_HEADER_SIZE) {
            throw c.error("truncated chunk header (" + (c.limit - c.pos) + " of " + Otf2Format.CHUNK_HEADER_SIZE
                    + " bytes)");
        }
        int type = c.buf[c.pos] & 0xFF;
        if (type != Otf2Format.CHUNK_HEADER) {
            throw c.error("expected a chunk header (record type 3), found byte " + type);
        }
        int order = c.buf[c.pos + 1] & 0xFF;
        if (order != Otf2Format.LITTLE_ENDIAN_MARK && order != Otf2Format.BIG_ENDIAN_MARK) {
            c.pos++;
            throw c.error("invalid byte-order mark 0x" + Integer.toHexString(order) + " in chunk header");
        }
        c.little = order == Otf2Format.LITTLE_ENDIAN_MARK;
        c.pos += 2;
        long first = c.u64Fixed();
        long last = c.u64Fixed();
        return new ChunkHeader(first, last, c.little);
    }
}
