package dev.straggler.trace.otf2;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a chunked OTF2 file (reference §6.2): every chunk starts with a header (type, byte order, first and last
 * event number) and all but the last are padded with END_OF_CHUNK bytes to exactly the chunk size, so a reader finds
 * chunk {@code k} at offset {@code k * chunkSize}. The last chunk ends with END_OF_FILE and END_OF_BUFFER and is
 * written only as far as it is used. Not thread-safe.
 */
final class ChunkWriter implements Closeable {
    /** Bytes kept free at the end of every chunk for its end marker(s). */
    private static final int RESERVE = 2;

    private final OutputStream out;
    private final int chunkSize;
    final RecordBuffer chunk;
    private long eventsBefore;
    private long eventsInChunk;
    private boolean closed;

    ChunkWriter(Path file, int chunkSize, ByteOrder order) throws IOException {
        this.out = Files.newOutputStream(file);
        this.chunkSize = chunkSize;
        this.chunk = new RecordBuffer(chunkSize, order);
        startChunk();
    }

    private void startChunk() {
        chunk.reset();
        chunk.u8(Otf2Format.CHUNK_HEADER);
        chunk.u8(chunk.little ? Otf2Format.LITTLE_ENDIAN_MARK : Otf2Format.BIG_ENDIAN_MARK);
        chunk.u64Fixed(0);
        chunk.u64Fixed(0);
    }

    /**
     * Makes room for a record of {@code n} bytes, moving to a new chunk when the current one cannot hold it.
     *
     * @return true when a new chunk was started (event writers must then repeat the timestamp)
     * @throws IllegalArgumentException for a record larger than a chunk
     */
    boolean reserve(int n) throws IOException {
        if (n > chunkSize - Otf2Format.CHUNK_HEADER_SIZE - RESERVE) {
            throw new IllegalArgumentException("a record of " + n + " bytes does not fit a chunk of " + chunkSize);
        }
        if (chunk.pos + n <= chunkSize - RESERVE) {
            return false;
        }
        flush(false);
        startChunk();
        return true;
    }

    /** Counts one event record in the current chunk (for the header's event numbers). */
    void countEvent() {
        eventsInChunk++;
    }

    long events() {
        return eventsBefore + eventsInChunk;
    }

    boolean chunkIsEmpty() {
        return chunk.pos == Otf2Format.CHUNK_HEADER_SIZE;
    }

    private void flush(boolean last) throws IOException {
        // header: first and last event number of the chunk, 1-based (first > last for a chunk without events)
        int end = chunk.pos;
        chunk.pos = 2;
        chunk.u64Fixed(eventsBefore + 1);
        chunk.u64Fixed(eventsBefore + eventsInChunk);
        chunk.pos = end;
        if (last) {
            chunk.u8(Otf2Format.END_OF_FILE);
            chunk.u8(Otf2Format.END_OF_BUFFER);
            out.write(chunk.buf, 0, chunk.pos);
        } else {
            java.util.Arrays.fill(chunk.buf, chunk.pos, chunkSize, (byte) Otf2Format.END_OF_CHUNK);
            out.write(chunk.buf, 0, chunkSize);
        }
        eventsBefore += eventsInChunk;
        eventsInChunk = 0;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            flush(true);
        } finally {
            out.close();
        }
    }
}
