package dev.straggler.trace.store;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads a store written by {@link StoreWriter}. Opening checks the manifest against the definitions and the
 * size of every event file, so truncation is reported before any analysis starts; each location then streams
 * its record batches into {@link EventBatch}es by copying Arrow buffers straight into primitive arrays.
 *
 * <p>{@link #openLocation} may be called concurrently for different locations.
 */
public final class StoreReader implements TraceSource {
    private final Path dir;
    private final StoreManifest manifest;
    private final TraceDefinitions definitions;
    private final BufferAllocator allocator = new RootAllocator();

    private StoreReader(Path dir, StoreManifest manifest, TraceDefinitions definitions) {
        this.dir = dir;
        this.manifest = manifest;
        this.definitions = definitions;
    }

    /** @throws TraceFormatException when the store is incomplete, truncated or of another format version */
    public static StoreReader open(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new TraceFormatException(dir + ": not a directory");
        }
        StoreManifest m = StoreJson.read(dir.resolve(StoreLayout.MANIFEST), StoreManifest.class);
        if (!StoreLayout.FORMAT.equals(m.format()) || m.version() != StoreLayout.VERSION) {
            throw new TraceFormatException(dir.resolve(StoreLayout.MANIFEST) + ": format " + m.format() + " version "
                    + m.version() + " is not supported (expected " + StoreLayout.FORMAT + " " + StoreLayout.VERSION + ")");
        }
        StoreJson.DefinitionsFile d = StoreJson.read(dir.resolve(StoreLayout.DEFINITIONS), StoreJson.DefinitionsFile.class);
        TraceDefinitions defs = d.definitions();
        if (defs.locations().size() != m.locations().size()) {
            throw new TraceFormatException(dir + ": manifest lists " + m.locations().size() + " location files but "
                    + defs.locations().size() + " locations are defined");
        }
        for (StoreManifest.LocationFile f : m.locations()) {
            Path p = dir.resolve(f.file());
            if (!Files.isRegularFile(p)) {
                throw new TraceFormatException(p + ": event file of location " + f.index() + " is missing");
            }
            long size = Files.size(p);
            if (size != f.bytes()) {
                throw new TraceFormatException(p + ": event file of location " + f.index() + " has " + size
                        + " bytes, the manifest says " + f.bytes() + (size < f.bytes() ? " (truncated)" : " (modified)"));
            }
        }
        return new StoreReader(dir, m, defs);
    }

    @Override
    public TraceDefinitions definitions() {
        return definitions;
    }

    public StoreManifest manifest() {
        return manifest;
    }

    @Override
    public String origin() {
        return dir.toString();
    }

    @Override
    public long eventCount() {
        return manifest.totalEvents();
    }

    /**
     * Recomputes the CRC32C of every event file and compares it with the manifest.
     * @return one message per mismatching file; empty when the store is intact
     */
    public List<String> verify() throws IOException {
        List<String> problems = new ArrayList<>();
        for (StoreManifest.LocationFile f : manifest.locations()) {
            String problem = checksumProblem(f);
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    /** The mismatch of one event file's CRC32C with the manifest, or null when it matches. */
    private String checksumProblem(StoreManifest.LocationFile f) throws IOException {
        CRC32C crc = new CRC32C();
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(1 << 16);
        try (FileChannel ch = FileChannel.open(dir.resolve(f.file()), StandardOpenOption.READ)) {
            while (ch.read(buf) > 0) {
                buf.flip();
                crc.update(buf);
                buf.clear();
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return dir.resolve(f.file()) + ": missing (location " + f.index() + ")";
        }
        String actual = String.format("%08x", crc.getValue());
        if (actual.equals(f.crc32c())) {
            return null;
        }
        return dir.resolve(f.file()) + ": checksum " + actual + " differs from the manifest's " + f.crc32c()
                + " (location " + f.index() + " is corrupted)";
    }

    /**
     * Opens a location after checking its file against the manifest's CRC32C: a damaged store is refused before
     * Arrow decodes anything (a corrupt length could otherwise ask for terabytes, a corrupt value pass as an event).
     */
    @Override
    public LocationReader openLocation(int location) throws IOException {
        StoreManifest.LocationFile f = manifest.locations().get(location);
        if (f.crc32c() != null && !f.crc32c().isEmpty()) {
            String problem = checksumProblem(f);
            if (problem != null) {
                throw new TraceFormatException(problem + "; re-import it from the original trace");
            }
        }
        return new ArrowLocationReader(f);
    }

    @Override
    public void close() {
        allocator.close();
    }

    /** Streams one location's record batches; checks batch and event counts against the manifest. */
    private final class ArrowLocationReader implements LocationReader {
        private final StoreManifest.LocationFile file;
        private final Path path;
        private final FileChannel channel;
        private final BufferAllocator child;
        private final ArrowFileReader reader;
        private final List<ArrowBlock> blocks;
        private int nextBlock;
        private long delivered;

        ArrowLocationReader(StoreManifest.LocationFile file) throws IOException {
            this.file = file;
            this.path = dir.resolve(file.file());
            this.channel = FileChannel.open(path, StandardOpenOption.READ);
            this.child = allocator.newChildAllocator("read-" + file.index(), 0, Long.MAX_VALUE);
            this.reader = new ArrowFileReader(channel, child, CommonsCompressionFactory.INSTANCE);
            try {
                this.blocks = reader.getRecordBlocks();
                if (!StoreLayout.SCHEMA.equals(reader.getVectorSchemaRoot().getSchema())) {
                    throw new TraceFormatException(path + ": unexpected column layout "
                            + reader.getVectorSchemaRoot().getSchema());
                }
            } catch (IOException | RuntimeException e) {
                closeQuietly();
                if (e instanceof TraceFormatException t) {
                    throw t;
                }
                throw new TraceFormatException(path + ": not a readable Arrow file (location " + file.index() + "): "
                        + e.getMessage(), e);
            }
            if (blocks.size() != file.batches()) {
                closeQuietly();
                throw new TraceFormatException(path + ": holds " + blocks.size() + " record batches, the manifest says "
                        + file.batches());
            }
        }

        @Override
        public boolean next(EventBatch batch) throws IOException {
            batch.clear();
            if (nextBlock >= blocks.size()) {
                if (delivered != file.events()) {
                    throw new TraceFormatException(path + ": holds " + delivered + " events, the manifest says " + file.events());
                }
                return false;
            }
            ArrowBlock block = blocks.get(nextBlock);
            try {
                reader.loadRecordBatch(block);
            } catch (IOException | RuntimeException e) {
                throw new TraceFormatException(path + ": record batch " + nextBlock + " at byte " + block.getOffset()
                        + " is unreadable (location " + file.index() + "): " + e.getMessage(), e);
            }
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            int n = root.getRowCount();
            batch.ensureCapacity(n);
            getLongs(root, StoreLayout.COL_TIME, batch.time, n);
            getBytes(root, StoreLayout.COL_KIND, batch.kind, n);
            getInts(root, StoreLayout.COL_REF, batch.ref, n);
            getInts(root, StoreLayout.COL_COMM, batch.comm, n);
            getInts(root, StoreLayout.COL_TAG, batch.tag, n);
            getLongs(root, StoreLayout.COL_BYTES, batch.bytes, n);
            getLongs(root, StoreLayout.COL_AUX, batch.aux, n);
            long[] t = batch.time;
            byte[] k = batch.kind;
            int bad = -1;
            for (int i = 1; i < n; i++) {
                t[i] += t[i - 1]; // undo the per-batch delta encoding
            }
            for (int i = 0; i < n; i++) {
                if (k[i] < 0 || k[i] >= EventKind.COUNT) {
                    bad = i;
                    break;
                }
            }
            if (bad >= 0) {
                throw new TraceFormatException(path + ": event " + (delivered + bad) + " of location " + file.index()
                        + " has unknown kind code " + k[bad]);
            }
            batch.size = n;
            batch.firstIndex = delivered;
            delivered += n;
            nextBlock++;
            return n > 0 || next(batch);
        }

        @Override
        public void close() throws IOException {
            reader.close();
            child.close();
            channel.close();
        }

        private void closeQuietly() {
            try {
                close();
            } catch (IOException | RuntimeException ignored) {
                // already failing with a better message
            }
        }
    }

    private static ArrowBuf data(VectorSchemaRoot root, int col) {
        return ((BaseFixedWidthVector) root.getVector(col)).getDataBuffer();
    }

    private static void getLongs(VectorSchemaRoot root, int col, long[] dst, int n) {
        data(root, col).nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(dst, 0, n);
    }

    private static void getInts(VectorSchemaRoot root, int col, int[] dst, int n) {
        data(root, col).nioBuffer(0, n * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(dst, 0, n);
    }

    private static void getBytes(VectorSchemaRoot root, int col, byte[] dst, int n) {
        data(root, col).getBytes(0, dst, 0, n);
    }
}
