package dev.straggler.replay;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scratch file that the locations of one analysis write blocks of their columns into, and read back from, so that
 * what grows with the trace's marks need not stay on the collected heap ({@link IntervalEntries}). Blocks are
 * appended at positions handed out atomically, so several threads may write at once; reads and writes are
 * positional. The file is created on the first write, in {@code dir}, and deleted when closed (or when the JVM
 * exits, should it not be closed). What it holds stays in the operating system's page cache while there is room,
 * which is not part of the process's resident set.
 */
public final class SpillFile implements Closeable {
    private final Path dir;
    private final AtomicLong end = new AtomicLong();
    private final java.util.concurrent.atomic.LongAdder readBytes = new java.util.concurrent.atomic.LongAdder();
    /** Bytes of blocks that may stay on the heap although they could be spilled ({@link #keepOnHeap}). */
    private final AtomicLong allowance = new AtomicLong();
    private volatile FileChannel channel;
    private Path path;
    private boolean closed;

    /** The largest block a caller moves at a time ({@link #threadBuffer}): a unit of a column, encoded. */
    static final int MAX_BLOCK_BYTES = Columns.MAX_UNIT_BYTES;

    /**
     * Each thread's buffer for moving a block to and from a spill file: direct, so that the channel copies it once
     * (a heap buffer would be copied into a direct one first).
     */
    private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal.withInitial(
            () -> ByteBuffer.allocateDirect(MAX_BLOCK_BYTES).order(java.nio.ByteOrder.nativeOrder()));

    /** This thread's buffer of {@link #MAX_BLOCK_BYTES}, cleared, in the platform's byte order. */
    static ByteBuffer threadBuffer() {
        return BUFFER.get().clear();
    }

    /** A spill file in {@code dir}, created when the first block is written. */
    public SpillFile(Path dir) {
        this.dir = dir;
    }

    /** A spill file in the JVM's temporary directory ({@code java.io.tmpdir}). */
    public static SpillFile inTemporaryDirectory() {
        return new SpillFile(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * Lets {@code bytes} of blocks that writers would spill stay on the heap instead ({@link #keepOnHeap}): the room
     * the caller knows the heap has beyond what the analysis needs. Writing a block costs about as much time as
     * computing it (the page cache's copy and allocation), so a heap with room keeps what it can.
     */
    public void allowOnHeap(long bytes) {
        allowance.set(Math.max(0, bytes));
    }

    /** Takes {@code bytes} of the allowance ({@link #allowOnHeap}): true when the block may stay on the heap. */
    boolean keepOnHeap(long bytes) {
        while (true) {
            long left = allowance.get();
            if (left < bytes) {
                return false;
            }
            if (allowance.compareAndSet(left, left - bytes)) {
                return true;
            }
        }
    }

    private FileChannel channel() {
        FileChannel c = channel;
        if (c == null) {
            synchronized (this) {
                c = channel;
                if (c == null) {
                    if (closed) {
                        throw new IllegalStateException("spill file in " + dir + " is closed");
                    }
                    try {
                        path = Files.createTempFile(dir, "straggler-", ".spill");
                        path.toFile().deleteOnExit();
                        c = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
                    } catch (IOException e) {
                        throw failure("cannot create a scratch file in " + dir + " (" + e + "); the root causes"
                                + " of a large trace need one: give another directory with"
                                + " STRAGGLER_JAVA_OPTS=-Djava.io.tmpdir=DIR, or analyse with --no-root-causes", e);
                    }
                    channel = c;
                }
            }
        }
        return c;
    }

    /** Writes the buffer's remaining bytes at a new position, which it returns. */
    long write(ByteBuffer b) {
        long at = end.getAndAdd(b.remaining());
        FileChannel c = channel();
        long pos = at;
        try {
            while (b.hasRemaining()) {
                pos += c.write(b, pos);
            }
        } catch (IOException e) {
            throw failure("scratch file " + path + ": cannot write " + b.remaining() + " bytes at " + pos + " ("
                    + e + ")", e);
        }
        return at;
    }

    /** Fills the buffer's remaining bytes from {@code position}, where {@link #write} put them. */
    void read(ByteBuffer b, long position) {
        FileChannel c = channel();
        long pos = position;
        try {
            while (b.hasRemaining()) {
                int n = c.read(b, pos);
                if (n < 0) {
                    throw new IOException("unexpected end of file");
                }
                pos += n;
            }
        } catch (IOException e) {
            throw failure("scratch file " + path + ": cannot read at " + pos + " (" + e + ")", e);
        }
        readBytes.add(pos - position);
    }

    /** An unchecked failure whose cause says what went wrong (the command line prints the cause). */
    private static UncheckedIOException failure(String message, IOException cause) {
        return new UncheckedIOException(new IOException(message, cause));
    }

    /** Bytes written so far. */
    public long bytes() {
        return end.get();
    }

    /** Bytes read back so far: what spilling cost in reads. */
    public long bytesRead() {
        return readBytes.sum();
    }

    /** The file, or null before the first write. */
    public synchronized Path path() {
        return path;
    }

    /** Closes and deletes the file; the blocks written to it can no longer be read. */
    @Override
    public synchronized void close() throws IOException {
        closed = true;
        FileChannel c = channel;
        if (c != null) {
            c.close();
            Files.deleteIfExists(path);
        }
    }
}
