package dev.straggler.trace.store;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.OpenRegions;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceWriter;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Writes a trace into a store directory (layout: {@link StoreLayout}) with bounded memory: each location
 * buffers at most one batch of events and flushes it as an Arrow record batch when full.
 *
 * <p>Locations may be appended to from different threads as long as each location is fed by one thread at a
 * time. The manifest is written last, by {@link #finish}; a store without a manifest is recognisably incomplete.
 */
public final class StoreWriter implements TraceWriter {
    private final Path dir;
    private final StoreOptions options;
    private final BufferAllocator allocator = new RootAllocator();
    private final List<LocationSink> sinks = new ArrayList<>();
    private boolean finished;

    private StoreWriter(Path dir, StoreOptions options) {
        this.dir = dir;
        this.options = options;
    }

    /**
     * Creates the store directory. @throws IOException when {@code dir} exists and is not an empty directory
     * (a store is never written over other files)
     */
    public static StoreWriter create(Path dir, StoreOptions options) throws IOException {
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new IOException(dir + ": exists and is not a directory");
            }
            try (var s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    throw new IOException(dir + ": directory is not empty; refusing to write a store into it");
                }
            }
        }
        Files.createDirectories(dir.resolve(StoreLayout.EVENTS_DIR));
        return new StoreWriter(dir, options);
    }

    public Path directory() {
        return dir;
    }

    private synchronized LocationSink sink(int location) throws IOException {
        if (finished) {
            throw new IllegalStateException("store already finished");
        }
        while (sinks.size() <= location) {
            sinks.add(null);
        }
        LocationSink s = sinks.get(location);
        if (s == null) {
            s = new LocationSink(location);
            sinks.set(location, s);
        }
        return s;
    }

    @Override
    public void append(int location, EventBatch batch) throws IOException {
        LocationSink s = sink(location);
        synchronized (s) {
            s.append(batch);
        }
    }

    @Override
    public void finish(TraceDefinitions definitions) throws IOException {
        List<LocationSink> all;
        synchronized (this) {
            if (sinks.size() > definitions.locations().size()) {
                throw new IllegalArgumentException("events were written for location " + (sinks.size() - 1)
                        + " but only " + definitions.locations().size() + " locations are defined");
            }
            finished = true;
            all = new ArrayList<>(sinks);
        }
        List<StoreManifest.LocationFile> files = new ArrayList<>();
        List<Location> counted = new ArrayList<>();
        long total = 0;
        for (Location l : definitions.locations()) {
            LocationSink s = l.index() < all.size() ? all.get(l.index()) : null;
            if (s == null) {
                s = new LocationSink(l.index()); // an empty stream still gets a file, so every location is accounted for
            }
            StoreManifest.LocationFile f = s.close();
            files.add(f);
            counted.add(l.withEvents(f.events()));
            total += f.events();
        }
        StoreJson.write(dir.resolve(StoreLayout.DEFINITIONS),
                new StoreJson.DefinitionsFile(StoreLayout.FORMAT, StoreLayout.VERSION, definitions.withLocations(counted)));
        StoreJson.write(dir.resolve(StoreLayout.MANIFEST), new StoreManifest(StoreLayout.FORMAT, StoreLayout.VERSION,
                options.compression().name().toLowerCase(), options.batchSize(), total, files));
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            for (LocationSink s : sinks) {
                if (s != null) {
                    s.abandon();
                }
            }
            sinks.clear();
            finished = true;
        }
        allocator.close();
    }

    /** One location's Arrow file: a write buffer of one batch, the Arrow vectors, and running totals. */
    private final class LocationSink {
        private final int location;
        private final String fileName;
        private final EventBatch pending;
        private final long[] kindCounts = new long[EventKind.COUNT];
        private final CRC32C crc = new CRC32C();
        private final CRC32C batchCrc = new CRC32C();
        private final List<StoreManifest.BatchIndex> index = new ArrayList<>();
        private int[] stack = new int[16];
        private int depth;
        private long[] deltas = new long[0];
        private FileChannel channel;
        private BufferAllocator child;
        private VectorSchemaRoot root;
        private ArrowFileWriter writer;
        private long events;
        private int batches;
        private long bytes;
        private boolean closed;

        LocationSink(int location) throws IOException {
            this.location = location;
            this.fileName = StoreLayout.eventFileName(location);
            this.pending = new EventBatch(Math.min(options.batchSize(), 4096));
            open();
        }

        private void open() throws IOException {
            channel = FileChannel.open(dir.resolve(fileName), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            child = allocator.newChildAllocator("location-" + location, 0, Long.MAX_VALUE);
            root = VectorSchemaRoot.create(StoreLayout.SCHEMA, child);
            WritableByteChannel counting = new ChecksummingChannel(channel);
            if (options.compression() == StoreOptions.Compression.ZSTD) {
                writer = new ArrowFileWriter(root, null, counting, Map.of(), IpcOption.DEFAULT,
                        CommonsCompressionFactory.INSTANCE, CompressionUtil.CodecType.ZSTD, Optional.of(options.zstdLevel()));
            } else {
                writer = new ArrowFileWriter(root, null, counting, Map.of(), IpcOption.DEFAULT,
                        NoCompressionCodec.Factory.INSTANCE, CompressionUtil.CodecType.NO_COMPRESSION, Optional.empty());
            }
            writer.start();
        }

        void append(EventBatch b) throws IOException {
            int from = 0;
            while (from < b.size) {
                int room = options.batchSize() - pending.size;
                int n = Math.min(room, b.size - from);
                pending.addAll(b, from, from + n);
                from += n;
                if (pending.size == options.batchSize()) {
                    flush();
                }
            }
        }

        private void flush() throws IOException {
            int n = pending.size;
            if (n == 0) {
                return;
            }
            for (int i = 0; i < n; i++) {
                kindCounts[pending.kind[i]]++;
            }
            // Delta-encode time within the batch: the first value stays absolute so a batch decodes on its own.
            if (deltas.length < n) {
                deltas = new long[options.batchSize()];
            }
            long[] dt = deltas;
            long prev = 0;
            for (int i = 0; i < n; i++) {
                dt[i] = pending.time[i] - prev;
                prev = pending.time[i];
            }
            List<FieldVector> v = root.getFieldVectors();
            putLongs(v.get(StoreLayout.COL_TIME), dt, n);
            putBytes(v.get(StoreLayout.COL_KIND), pending.kind, n);
            putInts(v.get(StoreLayout.COL_REF), pending.ref, n);
            putInts(v.get(StoreLayout.COL_COMM), pending.comm, n);
            putInts(v.get(StoreLayout.COL_TAG), pending.tag, n);
            putLongs(v.get(StoreLayout.COL_BYTES), pending.bytes, n);
            putLongs(v.get(StoreLayout.COL_AUX), pending.aux, n);
            root.setRowCount(n);
            int[] open = depth <= StoreLayout.MAX_INDEXED_DEPTH ? Arrays.copyOf(stack, depth) : null;
            batchCrc.reset();
            writer.writeBatch(); // writes exactly the batch's Arrow message, the block the footer will point to
            index.add(new StoreManifest.BatchIndex(events, pending.time[0], pending.time[n - 1],
                    String.format("%08x", batchCrc.getValue()), open));
            for (int i = 0; i < n; i++) {
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                depth = OpenRegions.apply(pending.kind[i], pending.ref[i], stack, depth);
            }
            events += n;
            batches++;
            pending.clear();
        }

        StoreManifest.LocationFile close() throws IOException {
            if (!closed) {
                flush();
                writer.end();
                writer.close();
                root.close();
                child.close();
                channel.close();
                closed = true;
            }
            Map<String, Long> byKind = new LinkedHashMap<>();
            for (int k = 0; k < EventKind.COUNT; k++) {
                if (kindCounts[k] > 0) {
                    byKind.put(EventKind.of(k).name(), kindCounts[k]);
                }
            }
            return new StoreManifest.LocationFile(location, fileName, events, batches, bytes,
                    String.format("%08x", crc.getValue()), byKind, List.copyOf(index));
        }

        void abandon() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                writer.close();
            } catch (RuntimeException ignored) {
                // abandoning an unfinished store: the missing manifest already marks it invalid
            }
            root.close();
            child.close();
            try {
                channel.close();
            } catch (IOException ignored) {
                // same as above
            }
        }

        /** Counts and checksums everything written, so the manifest can describe the file exactly. */
        private final class ChecksummingChannel implements WritableByteChannel {
            private final FileChannel out;

            ChecksummingChannel(FileChannel out) {
                this.out = out;
            }

            @Override
            public int write(ByteBuffer src) throws IOException {
                ByteBuffer view = src.duplicate();
                int n = out.write(src);
                view.limit(view.position() + n);
                crc.update(view.duplicate());
                batchCrc.update(view);
                bytes += n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return out.isOpen();
            }

            @Override
            public void close() {
                // the sink closes the file itself after forcing it to disk
            }
        }
    }

    private static void markAllValid(FieldVector v, int n) {
        ArrowBuf validity = v.getValidityBuffer();
        validity.setOne(0L, (n + 7) / 8);
    }

    private static void putLongs(FieldVector v, long[] src, int n) {
        BaseFixedWidthVector f = (BaseFixedWidthVector) v;
        f.allocateNew(n);
        f.setValueCount(n);
        ArrowBuf data = f.getDataBuffer();
        data.nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(src, 0, n);
        markAllValid(v, n);
    }

    private static void putInts(FieldVector v, int[] src, int n) {
        BaseFixedWidthVector f = (BaseFixedWidthVector) v;
        f.allocateNew(n);
        f.setValueCount(n);
        ArrowBuf data = f.getDataBuffer();
        data.nioBuffer(0, n * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(src, 0, n);
        markAllValid(v, n);
    }

    private static void putBytes(FieldVector v, byte[] src, int n) {
        BaseFixedWidthVector f = (BaseFixedWidthVector) v;
        f.allocateNew(n);
        f.setValueCount(n);
        f.getDataBuffer().setBytes(0, src, 0, n);
        markAllValid(v, n);
    }
}
