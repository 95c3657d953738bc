package dev.straggler.trace.store;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.OpenRegions;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
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
        return new ArrowLocationReader(f, false);
    }

    /**
     * Decompresses only the time, kind, ref and aux columns of each record batch; comm, tag and bytes are zero. The
     * call-stack replays read every event of a location again and need only these: the other three columns are
     * most of what decompressing a batch costs.
     */
    @Override
    public LocationReader openCallStack(int location) throws IOException {
        ArrowLocationReader r = (ArrowLocationReader) openLocation(location);
        r.callStackOnly = true;
        return r;
    }

    /**
     * Starts at the first event with time {@code >= fromTick} by binary search, decoding one record batch. With the
     * manifest's batch index: over the batches' last timestamps, checking only the batch read against its own
     * CRC32C, and the regions open come from the index's stack at the batch start plus the events before the
     * seek point within it. A store written before the index existed is checked whole as by
     * {@link #openLocation(int)}, searched by loading O(log batches) batches, and its open regions are found by
     * replaying the location from its start when asked.
     */
    @Override
    public LocationReader openLocation(int location, long fromTick) throws IOException {
        StoreManifest.LocationFile f = manifest.locations().get(location);
        ArrowLocationReader r;
        if (f.batchIndex() == null) {
            r = (ArrowLocationReader) openLocation(location);
        } else {
            if (f.batchIndex().size() != f.batches()) {
                throw new TraceFormatException(dir.resolve(f.file()) + ": the manifest indexes " + f.batchIndex().size()
                        + " record batches of location " + f.index() + " but lists " + f.batches());
            }
            r = new ArrowLocationReader(f, true);
        }
        try {
            r.seek(fromTick);
        } catch (IOException | RuntimeException e) {
            r.closeQuietly();
            throw e;
        }
        return r;
    }

    /** True when every location has the batch index (stores written before it existed have none). */
    @Override
    public boolean seeksWithoutScanning() {
        for (StoreManifest.LocationFile f : manifest.locations()) {
            if (f.batchIndex() == null) {
                return false;
            }
        }
        return true;
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
        /** Check each batch read against the index's CRC32C (the whole file was not checked on opening). */
        private final boolean checkBatches;
        private int nextBlock;
        private long delivered;
        /** After a seek: the batch holding the seek point, delivered from {@link #heldOffset} by the next call. */
        private EventBatch held;
        private int heldOffset;
        private long seekTick;
        private int[] openRegions = new int[0];
        private java.nio.ByteBuffer crcBuffer;
        /** Decode only the columns a call-stack replay reads ({@link StoreReader#openCallStack}). */
        private boolean callStackOnly;

        ArrowLocationReader(StoreManifest.LocationFile file, boolean checkBatches) throws IOException {
            this.file = file;
            this.checkBatches = checkBatches;
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
            if (held != null) {
                EventBatch h = held;
                held = null;
                if (heldOffset < h.size) {
                    batch.addAll(h, heldOffset, h.size);
                    batch.firstIndex = h.firstIndex + heldOffset;
                    return true;
                }
            }
            if (nextBlock >= blocks.size()) {
                if (delivered != file.events()) {
                    throw new TraceFormatException(path + ": holds " + delivered + " events, the manifest says " + file.events());
                }
                return false;
            }
            int n = decode(nextBlock, batch);
            batch.firstIndex = delivered;
            delivered += n;
            nextBlock++;
            return n > 0 || next(batch);
        }

        /** Loads record batch {@code b} into {@code batch} (firstIndex not set) and returns its event count. */
        private int decode(int b, EventBatch batch) throws IOException {
            ArrowBlock block = blocks.get(b);
            if (checkBatches) {
                checkBatch(b, block);
            }
            int n;
            try {
                n = callStackOnly ? decodeCallStack(block, batch) : decodeAll(block, batch);
            } catch (IOException | RuntimeException e) {
                if (e instanceof TraceFormatException t) {
                    throw t;
                }
                throw new TraceFormatException(path + ": record batch " + b + " at byte " + block.getOffset()
                        + " is unreadable (location " + file.index() + "): " + e.getMessage(), e);
            }
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
                throw new TraceFormatException(path + ": event " + bad + " of record batch " + b + " of location "
                        + file.index() + " has unknown kind code " + k[bad]);
            }
            batch.size = n;
            return n;
        }

        /** Every column of one record batch, through Arrow's vectors; returns its event count. */
        private int decodeAll(ArrowBlock block, EventBatch batch) throws IOException {
            reader.loadRecordBatch(block);
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
            return n;
        }

        /**
         * The time, kind, ref and aux columns of one record batch, each buffer decompressed on its own (the Arrow IPC
         * body: per column a validity and a data buffer, each compressed separately); comm, tag and bytes zero.
         */
        private int decodeCallStack(ArrowBlock block, EventBatch batch) throws IOException {
            channel.position(block.getOffset());
            try (ArrowRecordBatch rb = MessageSerializer.deserializeRecordBatch(new ReadChannel(channel), block, child)) {
                List<ArrowBuf> buffers = rb.getBuffers();
                if (buffers.size() != 2 * StoreLayout.SCHEMA.getFields().size() || rb.getLength() < 0) {
                    throw new TraceFormatException(path + ": a record batch at byte " + block.getOffset() + " holds "
                            + buffers.size() + " buffers, not the 2 per column of the store's layout (location "
                            + file.index() + ")");
                }
                int n = rb.getLength();
                batch.ensureCapacity(n);
                CompressionUtil.CodecType type = CompressionUtil.CodecType.fromCompressionType(
                        rb.getBodyCompression().getCodec());
                CompressionCodec codec = type == CompressionUtil.CodecType.NO_COMPRESSION
                        ? NoCompressionCodec.INSTANCE : CommonsCompressionFactory.INSTANCE.createCodec(type);
                boolean compressed = type != CompressionUtil.CodecType.NO_COMPRESSION;
                try (ArrowBuf t = column(codec, compressed, buffers, StoreLayout.COL_TIME, n, 8, block)) {
                    getLongs(t, batch.time, n);
                }
                try (ArrowBuf k = column(codec, compressed, buffers, StoreLayout.COL_KIND, n, 1, block)) {
                    getBytes(k, batch.kind, n);
                }
                try (ArrowBuf r = column(codec, compressed, buffers, StoreLayout.COL_REF, n, 4, block)) {
                    getInts(r, batch.ref, n);
                }
                try (ArrowBuf a = column(codec, compressed, buffers, StoreLayout.COL_AUX, n, 8, block)) {
                    getLongs(a, batch.aux, n);
                }
                Arrays.fill(batch.comm, 0, n, 0);
                Arrays.fill(batch.tag, 0, n, 0);
                Arrays.fill(batch.bytes, 0, n, 0L);
                return n;
            }
        }

        /**
         * Column {@code col}'s data buffer, decompressed (closed by the caller); as Arrow's VectorLoader balances the
         * reference the codec releases, so that closing the record batch frees each body buffer once.
         */
        private ArrowBuf column(CompressionCodec codec, boolean compressed, List<ArrowBuf> buffers, int col, int n,
                                int width, ArrowBlock block) throws TraceFormatException {
            ArrowBuf in = buffers.get(2 * col + 1);
            ArrowBuf out = compressed && in.writerIndex() > 0 ? codec.decompress(child, in) : in;
            in.getReferenceManager().retain();
            if (out.capacity() < (long) n * width) {
                out.close();
                throw new TraceFormatException(path + ": column " + StoreLayout.SCHEMA.getFields().get(col).getName()
                        + " of the record batch at byte " + block.getOffset() + " holds " + out.capacity()
                        + " bytes for " + n + " events (location " + file.index() + " is corrupted)");
            }
            return out;
        }

        /** Compares the bytes of one batch with the index's CRC32C before Arrow decodes them. */
        private void checkBatch(int b, ArrowBlock block) throws IOException {
            long length = block.getMetadataLength() + block.getBodyLength();
            if (block.getOffset() < 0 || length < 0 || length > Integer.MAX_VALUE
                    || block.getOffset() + length > file.bytes()) {
                throw new TraceFormatException(path + ": record batch " + b + " lies outside the file (location "
                        + file.index() + " is corrupted); re-import it from the original trace");
            }
            if (crcBuffer == null || crcBuffer.capacity() < length) {
                crcBuffer = java.nio.ByteBuffer.allocate((int) length);
            }
            java.nio.ByteBuffer buf = crcBuffer;
            buf.clear().limit((int) length);
            long pos = block.getOffset();
            while (buf.hasRemaining()) {
                if (channel.read(buf, pos + buf.position()) < 0) {
                    throw new TraceFormatException(path + ": truncated in record batch " + b);
                }
            }
            buf.flip();
            CRC32C crc = new CRC32C();
            crc.update(buf);
            String actual = String.format("%08x", crc.getValue());
            String expected = file.batchIndex().get(b).crc32c();
            if (!actual.equals(expected)) {
                throw new TraceFormatException(path + ": record batch " + b + " has checksum " + actual
                        + ", the manifest's index says " + expected + " (location " + file.index()
                        + " is corrupted); re-import it from the original trace");
            }
        }

        /** Positions the reader at the first event with time {@code >= tick}; see {@link StoreReader#openLocation(int, long)}. */
        void seek(long tick) throws IOException {
            seekTick = tick;
            int count = blocks.size();
            if (count == 0) {
                return;
            }
            List<StoreManifest.BatchIndex> index = file.batchIndex();
            int b;
            if (index != null) {
                // the first batch whose last event is at or after the tick holds the first such event
                int lo = 0;
                int hi = count;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (index.get(mid).lastTick() < tick) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                b = Math.min(lo, count - 1); // past the end: position after the last batch's events
                held = new EventBatch(Math.max(1, manifest.batchSize()));
                decode(b, held);
                held.firstIndex = index.get(b).firstEvent();
            } else {
                // no index: the last batch starting before the tick, by loading O(log n) batches
                EventBatch probe = new EventBatch(Math.max(1, manifest.batchSize()));
                int lo = 0;
                int hi = count - 1;
                b = 0;
                while (lo <= hi) {
                    int mid = (lo + hi) >>> 1;
                    decode(mid, probe);
                    if (probe.size > 0 && probe.time[0] < tick) {
                        b = mid;
                        lo = mid + 1;
                    } else {
                        hi = mid - 1;
                    }
                }
                held = probe;
                int n = decode(b, held);
                if (b < count - 1 && n != manifest.batchSize()) {
                    throw new TraceFormatException(path + ": record batch " + b + " holds " + n
                            + " events, not the manifest's batch size " + manifest.batchSize());
                }
                held.firstIndex = (long) b * manifest.batchSize();
            }
            int o = lowerBound(held.time, held.size, tick);
            if (o == held.size && b < count - 1) {
                // the tick falls after this batch's last event: the next batch starts at or after it
                decode(++b, held);
                held.firstIndex = index != null ? index.get(b).firstEvent() : (long) b * manifest.batchSize();
                o = 0;
            }
            heldOffset = o;
            nextBlock = b + 1;
            delivered = held.firstIndex + held.size;
            int[] atBatch = index != null ? index.get(b).openRegions() : null;
            if (atBatch != null) {
                int[] stack = Arrays.copyOf(atBatch, atBatch.length + o + 1);
                int depth = atBatch.length;
                for (int i = 0; i < o; i++) {
                    depth = OpenRegions.apply(held.kind[i], held.ref[i], stack, depth);
                }
                openRegions = Arrays.copyOf(stack, depth);
            } else {
                openRegions = null; // found on demand by replaying from the start
            }
        }

        @Override
        public int[] openRegions() throws IOException {
            if (openRegions == null) {
                try (LocationReader all = new dev.straggler.trace.TimeSkippingReader(new ArrowLocationReader(file,
                        checkBatches), seekTick)) {
                    openRegions = all.openRegions();
                }
            }
            return openRegions.clone();
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

    /** The first index in {@code time[0, n)} whose value is {@code >= tick} ({@code n} when none is). */
    static int lowerBound(long[] time, int n, long tick) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (time[mid] < tick) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static ArrowBuf data(VectorSchemaRoot root, int col) {
        return ((BaseFixedWidthVector) root.getVector(col)).getDataBuffer();
    }

    private static void getLongs(VectorSchemaRoot root, int col, long[] dst, int n) {
        getLongs(data(root, col), dst, n);
    }

    private static void getInts(VectorSchemaRoot root, int col, int[] dst, int n) {
        getInts(data(root, col), dst, n);
    }

    private static void getBytes(VectorSchemaRoot root, int col, byte[] dst, int n) {
        getBytes(data(root, col), dst, n);
    }

    /** The first {@code n} values of a column's data buffer (little-endian, as Arrow writes them). */
    private static void getLongs(ArrowBuf data, long[] dst, int n) {
        data.nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(dst, 0, n);
    }

    private static void getInts(ArrowBuf data, int[] dst, int n) {
        data.nioBuffer(0, n * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(dst, 0, n);
    }

    private static void getBytes(ArrowBuf data, byte[] dst, int n) {
        data.getBytes(0, dst, 0, n);
    }
}
