package dev.straggler.trace.otf2;

import dev.straggler.trace.TraceFormatException;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Delivers the chunks of a chunked OTF2 file (definitions or events, reference §6.2) one at a time into a reused
 * array. Uncompressed chunk {@code k} starts at byte {@code k * chunkSize}. With ZLIB compression (§6.5) each chunk is
 * a zlib block behind a 20-byte header: the marker {@code 0x00000000FFFFFFFF}, then the compressed size, the
 * uncompressed size and the previous block's size, each a little-endian uint32 ({@code OTF2_File.c} swaps them
 * only on big-endian hosts).
 *
 * <p>The array has {@link #PADDING} spare bytes after the data, so decoders may read a few bytes ahead before
 * checking the record against {@link #length()}. Not thread-safe.
 */
final class ChunkedFile implements Closeable {
    static final int PADDING = 16;
    private static final int ZLIB_HEADER = 20;

    private final Path path;
    private final FileChannel channel;
    private final long size;
    private final int chunkSize;
    private final boolean zlib;
    private final byte[] data;
    private byte[] compressed;
    private Inflater inflater;
    private long nextOffset;
    private long chunkOffset = -1;
    private int length;
    private int index = -1;

    ChunkedFile(Path path, long chunkSize, boolean zlib) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        this.size = channel.size();
        this.chunkSize = (int) chunkSize;
        this.zlib = zlib;
        this.data = new byte[this.chunkSize + PADDING];
    }

    /** Loads the next chunk; false at the end of the file. */
    boolean next() throws IOException {
        if (nextOffset >= size) {
            length = 0;
            return false;
        }
        index++;
        chunkOffset = nextOffset;
        if (!zlib) {
            length = (int) Math.min(chunkSize, size - nextOffset);
            readFully(data, 0, length, nextOffset);
            nextOffset += length;
            return true;
        }
        if (size - nextOffset < ZLIB_HEADER) {
            throw new TraceFormatException(path + ": byte offset " + nextOffset + ": truncated compression header ("
                    + (size - nextOffset) + " of " + ZLIB_HEADER + " bytes)");
        }
        byte[] h = new byte[ZLIB_HEADER];
        readFully(h, 0, ZLIB_HEADER, nextOffset);
        long marker = leLong(h, 0);
        // the marker is written in the host's byte order
        if (marker != 0xFFFF_FFFFL && marker != 0xFFFF_FFFF_0000_0000L) {
            throw new TraceFormatException(path + ": byte offset " + nextOffset + ": missing compression block marker");
        }
        long comp = leInt(h, 8);
        long uncomp = leInt(h, 12);
        if (uncomp > chunkSize || comp > Integer.MAX_VALUE - 16) {
            throw new TraceFormatException(path + ": byte offset " + nextOffset + ": compressed block of " + uncomp
                    + " bytes exceeds the chunk size " + chunkSize);
        }
        if (nextOffset + ZLIB_HEADER + comp > size) {
            throw new TraceFormatException(path + ": byte offset " + (nextOffset + ZLIB_HEADER)
                    + ": compressed block of " + comp + " bytes runs past the end of the file (" + size + " bytes)");
        }
        if (compressed == null || compressed.length < comp) {
            compressed = new byte[(int) comp];
        }
        readFully(compressed, 0, (int) comp, nextOffset + ZLIB_HEADER);
        if (inflater == null) {
            inflater = new Inflater();
        }
        inflater.reset();
        inflater.setInput(compressed, 0, (int) comp);
        try {
            int n = inflater.inflate(data, 0, (int) uncomp);
            if (n != uncomp) {
                throw new TraceFormatException(path + ": byte offset " + nextOffset + ": compressed block inflates to "
                        + n + " bytes, its header says " + uncomp);
            }
        } catch (DataFormatException e) {
            throw new TraceFormatException(path + ": byte offset " + nextOffset + ": corrupt zlib block: " + e.getMessage());
        }
        length = (int) uncomp;
        nextOffset += ZLIB_HEADER + comp;
        return true;
    }

    private void readFully(byte[] into, int from, int n, long at) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(into, from, n);
        long p = at;
        while (bb.hasRemaining()) {
            int r = channel.read(bb, p);
            if (r < 0) {
                throw new TraceFormatException(path + ": byte offset " + p + ": unexpected end of file");
            }
            p += r;
        }
    }

    private static long leInt(byte[] b, int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }

    private static long leLong(byte[] b, int at) {
        return leInt(b, at) | leInt(b, at + 4) << 32;
    }

    byte[] data() {
        return data;
    }

    /** Bytes of data in the current chunk (uncompressed). */
    int length() {
        return length;
    }

    /** File offset of the current chunk (of its compression header when compressed). */
    long chunkOffset() {
        return chunkOffset;
    }

    /**
     * File offset of byte {@code i} of the current chunk, for messages; for compressed files the offset of the
     * block plus the position in its uncompressed data.
     */
    long fileOffset(int i) {
        return chunkOffset + (zlib ? ZLIB_HEADER : 0) + i;
    }

    int index() {
        return index;
    }

    /** Whether a chunk other than the last one is shorter than the chunk size (truncation signs are checked by callers). */
    boolean isLast() {
        return nextOffset >= size;
    }

    long size() {
        return size;
    }

    boolean compressed() {
        return zlib;
    }

    Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        channel.close();
        if (inflater != null) {
            inflater.end();
        }
    }
}
