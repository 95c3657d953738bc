package dev.straggler.trace.otf2;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a trace as an OTF2 3.0 archive (POSIX substrate, uncompressed, chunked; reference §6): anchor file, global
 * definitions, and per location an event file and an (empty) local definition file.
 *
 * <p>The model's dense ids become the OTF2 ids: region {@code i} is OTF2 region {@code i}, communicator {@code c}
 * is OTF2 communicator {@code c}, rank {@code r} is location group {@code r}; locations keep their
 * {@link Location#id()}. Ranks resolve as Score-P lays them out: an MPI {@code COMM_LOCATIONS} group lists each
 * rank's master thread in rank order and every communicator is a {@code COMM_GROUP} of global ranks. Timestamps
 * are written as they are (already corrected), so no clock offsets are written. PROGRAM_BEGIN records name the
 * experiment's application.
 *
 * <p>Events arrive before definitions ({@link TraceWriter}), so a location's events go to a temporary file that
 * {@link #finish} renames once the location's OTF2 id is known. {@link #append} may be called concurrently for
 * different locations.
 */
public final class Otf2Writer implements TraceWriter {
    /** String 1 is reserved for the program name that PROGRAM_BEGIN records refer to. */
    private static final int PROGRAM_NAME_STRING = 1;

    private final Path anchorFile;
    private final Path locationDir;
    private final Otf2WriterOptions options;
    private final Map<Integer, LocationEncoder> encoders = new ConcurrentHashMap<>();
    private boolean finished;

    /**
     * @param anchorFileOrDirectory the anchor file to write ({@code <name>.otf2}), or a directory that receives
     *                              {@code traces.otf2}; the archive's other files go beside the anchor
     */
    public Otf2Writer(Path anchorFileOrDirectory, Otf2WriterOptions options) throws IOException {
        Path anchor = anchorFileOrDirectory.getFileName().toString().endsWith(".otf2") ? anchorFileOrDirectory
                : anchorFileOrDirectory.resolve("traces.otf2");
        if (anchor.getParent() != null) {
            Files.createDirectories(anchor.getParent());
        }
        String name = anchor.getFileName().toString();
        this.anchorFile = anchor;
        this.locationDir = anchor.resolveSibling(name.substring(0, name.length() - 5));
        this.options = options;
        Files.createDirectories(locationDir);
    }

    public Otf2Writer(Path anchorFileOrDirectory) throws IOException {
        this(anchorFileOrDirectory, Otf2WriterOptions.defaults());
    }

    public Path anchorFile() {
        return anchorFile;
    }

    @Override
    public void append(int location, EventBatch batch) throws IOException {
        if (finished) {
            throw new IllegalStateException("archive already finished");
        }
        LocationEncoder e = encoders.computeIfAbsent(location, l -> new LocationEncoder(partFile(l), options));
        synchronized (e) {
            e.write(batch);
        }
    }

    private Path partFile(int location) {
        return locationDir.resolve("." + location + ".evt.part");
    }

    @Override
    public void finish(TraceDefinitions d) throws IOException {
        if (finished) {
            throw new IllegalStateException("archive already finished");
        }
        finished = true;
        for (Integer l : encoders.keySet()) {
            if (l < 0 || l >= d.locations().size()) {
                throw new IllegalArgumentException("events were written for location " + l + " but only "
                        + d.locations().size() + " locations are defined");
            }
        }
        long[] events = new long[d.locations().size()];
        for (Location l : d.locations()) {
            LocationEncoder e = encoders.get(l.index());
            Path evt = locationDir.resolve(Long.toUnsignedString(l.id()) + ".evt");
            if (e == null) {
                e = new LocationEncoder(evt, options);
            }
            e.close();
            events[l.index()] = e.events();
            if (!e.file.equals(evt)) {
                Files.move(e.file, evt, StandardCopyOption.REPLACE_EXISTING);
            }
            try (ChunkWriter def = new ChunkWriter(locationDir.resolve(Long.toUnsignedString(l.id()) + ".def"),
                    (int) options.chunkSizeDefinitions(), options.byteOrder())) {
                // no mapping tables (ids are global) and no clock offsets (times are already corrected)
            }
        }
        long definitions = writeGlobalDefinitions(d, events);
        writeAnchor(d, definitions);
    }

    private long writeGlobalDefinitions(TraceDefinitions d, long[] events) throws IOException {
        Strings strings = new Strings();
        RecordBuffer body = new RecordBuffer(256, options.byteOrder());
        List<byte[]> records = new ArrayList<>();
        List<Integer> types = new ArrayList<>();
        // definitions are collected first so that the strings they name can be written before them
        java.util.function.IntConsumer add = type -> {
            records.add(java.util.Arrays.copyOf(body.buf, body.pos));
            types.add(type);
            body.reset();
        };
        body.u64c(d.clock().ticksPerSecond());
        body.u64c(d.clock().globalOffset());
        body.u64c(d.clock().traceLength());
        body.u64c(Otf2Format.UNDEFINED_U64);
        add.accept(Otf2Format.DEF_CLOCK_PROPERTIES);

        if (d.regions().stream().anyMatch(r -> r.paradigm() == dev.straggler.trace.Paradigm.MPI)
                || !d.communicators().isEmpty()) {
            body.u8(Otf2Format.PARADIGM_MPI);
            body.u32c(strings.id("MPI"));
            body.u8(1); // OTF2_PARADIGM_CLASS_PROCESS
            add.accept(Otf2Format.DEF_PARADIGM);
        }

        // system tree: a machine, and under it one node per host the processes name
        body.u32c(0);
        body.u32c(strings.id("machine"));
        body.u32c(strings.id("machine"));
        body.u32c(Otf2Format.UNDEFINED_U32);
        add.accept(Otf2Format.DEF_SYSTEM_TREE_NODE);
        Map<String, Integer> nodes = new LinkedHashMap<>();
        int ranks = Math.max(d.processes().size(),
                d.locations().stream().mapToInt(Location::rank).max().orElse(-1) + 1);
        String[] processName = new String[ranks];
        String[] processNode = new String[ranks];
        for (ProcessDef p : d.processes()) {
            if (p.rank() >= 0 && p.rank() < ranks) {
                processName[p.rank()] = p.name();
                processNode[p.rank()] = p.node();
            }
        }
        for (int r = 0; r < ranks; r++) {
            String node = processNode[r] == null || processNode[r].isEmpty() ? "node" : processNode[r];
            if (!nodes.containsKey(node)) {
                nodes.put(node, nodes.size() + 1);
                body.u32c(nodes.get(node));
                body.u32c(strings.id(node));
                body.u32c(strings.id("node"));
                body.u32c(0);
                add.accept(Otf2Format.DEF_SYSTEM_TREE_NODE);
            }
            body.u32c(r);
            body.u32c(strings.id(processName[r] == null ? "rank " + r : processName[r]));
            body.u8(Otf2Format.LOCATION_GROUP_PROCESS);
            body.u32c(nodes.get(node));
            body.u32c(Otf2Format.UNDEFINED_U32);
            add.accept(Otf2Format.DEF_LOCATION_GROUP);
        }
        for (Location l : d.locations()) {
            body.u64c(l.id());
            body.u32c(strings.id(l.name()));
            body.u8(l.type().code());
            body.u64c(events[l.index()]);
            body.u32c(l.rank());
            add.accept(Otf2Format.DEF_LOCATION);
        }
        for (Region r : d.regions()) {
            body.u32c(r.id());
            body.u32c(strings.id(r.name()));
            body.u32c(0);
            body.u8(0);
            body.u32c(r.sourceFile().isEmpty() ? Otf2Format.UNDEFINED_U32 : strings.id(r.sourceFile()));
            body.u32c(r.beginLine());
            body.u32c(r.endLine());
            body.u32c(strings.id(r.canonicalName()));
            body.u8(r.role().code());
            body.u8(r.paradigm().code());
            body.u32c(0);
            add.accept(Otf2Format.DEF_REGION);
        }
        if (!d.communicators().isEmpty()) {
            // group 0: each rank's master thread, in rank order; group c + 1: communicator c's global ranks
            int[] master = d.masterLocationByRank();
            body.u32c(0);
            body.u32c(0);
            body.u8(0);
            body.u32c(ranks);
            for (int r = 0; r < ranks; r++) {
                final int rank = r;
                int loc = r < master.length ? master[r] : -1;
                if (loc < 0) {
                    // a rank without a CPU thread: any of its locations stands for it
                    loc = d.locations().stream().filter(x -> x.rank() == rank).mapToInt(Location::index)
                            .findFirst().orElseThrow(() -> new IllegalArgumentException("rank " + rank
                                    + " has no location"));
                }
                body.u64c(d.location(loc).id());
            }
            body.u8(Otf2Format.GROUP_COMM_LOCATIONS);
            body.u8(Otf2Format.PARADIGM_MPI);
            body.u32c(0);
            add.accept(Otf2Format.DEF_GROUP);
            for (Communicator c : d.communicators()) {
                body.u32c(c.id() + 1);
                body.u32c(0);
                body.u8(0);
                body.u32c(c.size());
                for (int m : c.members()) {
                    body.u64c(m);
                }
                body.u8(Otf2Format.GROUP_COMM_GROUP);
                body.u8(Otf2Format.PARADIGM_MPI);
                body.u32c(0);
                add.accept(Otf2Format.DEF_GROUP);
            }
            for (Communicator c : d.communicators()) {
                body.u32c(c.id());
                body.u32c(strings.id(c.name()));
                body.u32c(c.id() + 1);
                body.u32c(c.parent() < 0 ? Otf2Format.UNDEFINED_U32 : c.parent());
                body.u32c(0);
                add.accept(Otf2Format.DEF_COMM);
            }
        }

        long count = 0;
        try (ChunkWriter w = new ChunkWriter(anchorFile.resolveSibling(archiveName() + ".def"),
                (int) options.chunkSizeDefinitions(), options.byteOrder())) {
            // ClockProperties first, then every string, then the rest in the order built
            count += put(w, types.get(0), records.get(0), records.get(0).length);
            // string 1 is the program name even when another string has the same text (OTF2 allows that)
            body.reset();
            body.u32c(PROGRAM_NAME_STRING);
            body.string(d.experiment().application());
            count += put(w, Otf2Format.DEF_STRING, body.buf, body.pos);
            for (Map.Entry<String, Integer> s : strings.ids.entrySet()) {
                body.reset();
                body.u32c(s.getValue());
                body.string(s.getKey());
                count += put(w, Otf2Format.DEF_STRING, body.buf, body.pos);
            }
            for (int i = 1; i < records.size(); i++) {
                count += put(w, types.get(i), records.get(i), records.get(i).length);
            }
        }
        return count;
    }

    private static int put(ChunkWriter w, int type, byte[] b, int n) throws IOException {
        w.reserve(RecordBuffer.recordSize(n));
        w.chunk.record(type, b, n);
        return 1;
    }

    private String archiveName() {
        String name = anchorFile.getFileName().toString();
        return name.substring(0, name.length() - 5);
    }

    private void writeAnchor(TraceDefinitions d, long definitions) throws IOException {
        RecordBuffer a = new RecordBuffer(512, options.byteOrder());
        a.u8(Otf2Format.CHUNK_HEADER);
        a.u8(a.little ? Otf2Format.LITTLE_ENDIAN_MARK : Otf2Format.BIG_ENDIAN_MARK);
        a.string("OTF2");
        a.u8(3); // anchor format
        a.u8(2); // trace format
        a.u8(3);
        a.u8(0);
        a.u8(0);
        a.u64Fixed(options.chunkSizeEvents());
        a.u64Fixed(options.chunkSizeDefinitions());
        a.u8(Otf2Format.SUBSTRATE_POSIX);
        a.u8(Otf2Format.COMPRESSION_NONE);
        a.u64Fixed(d.locations().size());
        a.u64Fixed(definitions);
        a.string(options.machine());
        a.string(options.creator());
        a.string(options.description());
        a.u32Fixed(0); // properties
        a.u64Fixed(traceId(d));
        a.u32Fixed(0); // snapshots
        a.u32Fixed(0); // thumbnails
        a.u8(Otf2Format.END_OF_FILE);
        a.u8(Otf2Format.END_OF_BUFFER);
        Files.write(anchorFile, java.util.Arrays.copyOf(a.buf, a.pos));
    }

    private static long traceId(TraceDefinitions d) {
        long h = 1125899906842597L;
        for (Location l : d.locations()) {
            h = 31 * h + l.id();
        }
        return 31 * h + d.clock().globalOffset();
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (LocationEncoder e : encoders.values()) {
            try {
                e.close();
            } catch (IOException x) {
                first = first == null ? x : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** String ids in order of first use; 0 is the empty string, 1 (written apart) the program name. */
    private static final class Strings {
        final Map<String, Integer> ids = new LinkedHashMap<>();

        Strings() {
            ids.put("", 0);
        }

        int id(String s) {
            Integer i = ids.get(s);
            if (i == null) {
                i = ids.size() + 1;
                ids.put(s, i);
            }
            return i;
        }
    }

    /** One location's event stream, encoded chunk by chunk as events arrive. */
    private static final class LocationEncoder {
        final Path file;
        private final ChunkWriter w;
        private final RecordBuffer body;
        private long lastTime = Long.MIN_VALUE;
        private boolean closed;

        LocationEncoder(Path file, Otf2WriterOptions o) {
            this.file = file;
            try {
                this.w = new ChunkWriter(file, (int) o.chunkSizeEvents(), o.byteOrder());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            this.body = new RecordBuffer(64, o.byteOrder());
        }

        long events() {
            return w.events();
        }

        void write(EventBatch b) throws IOException {
            for (int i = 0; i < b.size; i++) {
                event(b.time[i], b.kind[i], b.ref[i], b.comm[i], b.tag[i], b.bytes[i], b.aux[i]);
            }
        }

        private void event(long t, byte kind, int ref, int comm, int tag, long bytes, long aux) throws IOException {
            body.reset();
            int type;
            boolean noLength = false;
            switch (kind) {
                case EventKind.ENTER_CODE, EventKind.LEAVE_CODE -> {
                    type = kind == EventKind.ENTER_CODE ? Otf2Format.EVT_ENTER : Otf2Format.EVT_LEAVE;
                    noLength = true;
                    body.u32c(ref);
                }
                case EventKind.MPI_SEND_CODE, EventKind.MPI_RECV_CODE, EventKind.MPI_ISEND_CODE,
                        EventKind.MPI_IRECV_CODE -> {
                    type = switch (kind) {
                        case EventKind.MPI_SEND_CODE -> Otf2Format.EVT_MPI_SEND;
                        case EventKind.MPI_RECV_CODE -> Otf2Format.EVT_MPI_RECV;
                        case EventKind.MPI_ISEND_CODE -> Otf2Format.EVT_MPI_ISEND;
                        default -> Otf2Format.EVT_MPI_IRECV;
                    };
                    body.u32c(ref);
                    body.u32c(comm);
                    body.u32c(tag);
                    body.u64c(bytes);
                    if (kind == EventKind.MPI_ISEND_CODE || kind == EventKind.MPI_IRECV_CODE) {
                        body.u64c(aux);
                    }
                }
                case EventKind.MPI_ISEND_COMPLETE_CODE, EventKind.MPI_IRECV_REQUEST_CODE,
                        EventKind.MPI_REQUEST_TEST_CODE, EventKind.MPI_REQUEST_CANCELLED_CODE -> {
                    type = switch (kind) {
                        case EventKind.MPI_ISEND_COMPLETE_CODE -> Otf2Format.EVT_MPI_ISEND_COMPLETE;
                        case EventKind.MPI_IRECV_REQUEST_CODE -> Otf2Format.EVT_MPI_IRECV_REQUEST;
                        case EventKind.MPI_REQUEST_TEST_CODE -> Otf2Format.EVT_MPI_REQUEST_TEST;
                        default -> Otf2Format.EVT_MPI_REQUEST_CANCELLED;
                    };
                    noLength = true;
                    body.u64c(aux);
                }
                case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> type = Otf2Format.EVT_MPI_COLLECTIVE_BEGIN;
                case EventKind.MPI_COLLECTIVE_END_CODE -> {
                    type = Otf2Format.EVT_MPI_COLLECTIVE_END;
                    body.u8(ref);
                    body.u32c(comm);
                    body.u32c(tag);
                    body.u64c(bytes);
                    body.u64c(aux);
                }
                case EventKind.MEASUREMENT_ON_OFF_CODE -> {
                    type = Otf2Format.EVT_MEASUREMENT_ON_OFF;
                    body.u8(ref);
                }
                case EventKind.PROGRAM_BEGIN_CODE -> {
                    type = Otf2Format.EVT_PROGRAM_BEGIN;
                    body.u32c(PROGRAM_NAME_STRING);
                    body.u32c(0);
                }
                case EventKind.PROGRAM_END_CODE -> {
                    type = Otf2Format.EVT_PROGRAM_END;
                    body.i64c(bytes);
                }
                case EventKind.BUFFER_FLUSH_CODE -> {
                    type = Otf2Format.EVT_BUFFER_FLUSH;
                    body.u64Fixed(aux);
                }
                default -> throw new IllegalArgumentException("unknown event kind " + kind);
            }
            int size = noLength ? 1 + body.pos : RecordBuffer.recordSize(body.pos);
            // room for a timestamp either way: a new chunk must start with one (reference §6.2)
            boolean stamp = w.reserve(size + 9) || t != lastTime;
            RecordBuffer c = w.chunk;
            if (stamp) {
                c.u8(Otf2Format.TIMESTAMP);
                c.u64Fixed(t);
                lastTime = t;
            }
            if (noLength) {
                c.u8(type);
                c.bytes(body.buf, 0, body.pos);
            } else {
                c.record(type, body);
            }
            w.countEvent();
        }

        void close() throws IOException {
            if (!closed) {
                closed = true;
                w.close();
            }
        }
    }
}
