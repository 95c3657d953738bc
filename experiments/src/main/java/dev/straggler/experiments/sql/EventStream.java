package dev.straggler.experiments.sql;

import dev.straggler.trace.Clock;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code events} table as a stream of Arrow record batches, one per batch the trace delivers. DuckDB scans it
 * through the Arrow C Data Interface on one thread (the buffers filled here are handed over, not copied), so the
 * reading and the conversion to Arrow run ahead of it on {@code workers} threads: each takes the next location not yet
 * taken and converts its batches, in order, into a pool of {@value #AHEAD_PER_WORKER} record batches per worker that
 * the scan hands back once it has taken their buffers. A query thus holds a few batches whatever the size of the trace;
 * batches of different locations interleave (SQL promises no order: ORDER BY gives one). A stream is read once; the
 * session makes a new one for every statement.
 */
final class EventStream extends ArrowReader {
    static final List<String> COLUMNS = List.of("location", "rank", "thread", "event", "tick", "time", "kind",
            "region", "callpath", "peer", "communicator", "tag", "bytes", "request");

    private static final byte[][] KIND_NAMES = new byte[EventKind.COUNT][];

    static {
        for (EventKind k : EventKind.values()) {
            KIND_NAMES[k.code()] = k.name().getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Record batches per worker: one being filled while the scan takes another. */
    static final int AHEAD_PER_WORKER = 2;

    private final TraceSource source;
    private final TraceDefinitions defs;
    private final CallPaths paths;
    private final Clock clock;
    private final int workers;
    /** Filled record batches, a failure, or {@link #DONE} once per worker. */
    private final BlockingQueue<Object> full = new LinkedBlockingQueue<>();
    /** Record batches to fill; their number bounds what the stream holds. */
    private final BlockingQueue<VectorSchemaRoot> free = new LinkedBlockingQueue<>();
    private final List<VectorSchemaRoot> pool = new ArrayList<>();
    private final AtomicInteger nextLocation = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;
    private int done;
    private long bytesRead;

    private static final Object DONE = new Object();

    /** The locations this stream reads, in reading order. */
    private final int[] locations;

    EventStream(BufferAllocator allocator, TraceSource source, CallPaths paths, int workers) {
        this(allocator, source, paths, workers, java.util.stream.IntStream.range(0,
                source.definitions().locations().size()).toArray());
    }

    /** A stream of some locations only (one of several streams that DuckDB scans side by side). */
    EventStream(BufferAllocator allocator, TraceSource source, CallPaths paths, int workers, int[] locations) {
        super(allocator);
        this.source = source;
        this.defs = source.definitions();
        this.paths = paths;
        this.clock = defs.clock();
        this.locations = locations.clone();
        this.workers = Math.max(1, Math.min(workers, Math.max(1, locations.length)));
    }

    static Schema schema() {
        ArrowType i32 = new ArrowType.Int(32, true);
        ArrowType i64 = new ArrowType.Int(64, true);
        return new Schema(List.of(
                field("location", i32, false), field("rank", i32, false), field("thread", i32, false),
                field("event", i64, false), field("tick", i64, false),
                field("time", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), false),
                field("kind", ArrowType.Utf8.INSTANCE, false),
                field("region", i32, true), field("callpath", i32, true), field("peer", i32, true),
                field("communicator", i32, true), field("tag", i32, true), field("bytes", i64, true),
                field("request", i64, true)));
    }

    private static Field field(String name, ArrowType t, boolean nullable) {
        return new Field(name, new FieldType(nullable, t, null), null);
    }

    @Override
    protected Schema readSchema() {
        return schema();
    }

    /** Whether the stream has said it ended: a later request is a second scan of it. */
    private boolean ended;

    @Override
    public boolean loadNextBatch() throws IOException {
        if (ended) {
            // a second read of one statement's stream would see no rows and answer as if there were no events:
            // refused instead, in words (docs/sql.md)
            throw new IOException(SECOND_READ);
        }
        if (threads.isEmpty()) {
            start();
        }
        while (done < workers) {
            Object o;
            try {
                o = full.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading the events", e);
            }
            if (o == DONE) {
                done++;
            } else if (o instanceof IOException e) {
                throw new IOException(e.getMessage(), e);
            } else if (o instanceof RuntimeException e) {
                throw e;
            } else if (o instanceof Error e) {
                throw e;
            } else {
                VectorSchemaRoot filled = (VectorSchemaRoot) o;
                VectorSchemaRoot root = getVectorSchemaRoot();
                // hands the buffers over (no copy); the exported previous batch keeps its own references
                for (int i = 0; i < filled.getFieldVectors().size(); i++) {
                    filled.getVector(i).makeTransferPair(root.getVector(i)).transfer();
                }
                root.setRowCount(filled.getRowCount());
                bytesRead += filled.getRowCount() * 40L;
                filled.setRowCount(0);
                free.add(filled);
                return true;
            }
        }
        ended = true;
        return false;
    }

    /** What a statement that reads {@code events} twice is told. */
    static final String SECOND_READ = "`events` can be read once per statement, and this statement reads it again "
            + "(a self-join, or events in two subqueries): ask in two steps, or with a window function over one read, "
            + "e.g. lead(time) OVER (PARTITION BY location ORDER BY event)";

    private void start() {
        Schema schema = schema();
        for (int i = 0; i < workers * AHEAD_PER_WORKER; i++) {
            VectorSchemaRoot r = VectorSchemaRoot.create(schema, allocator);
            pool.add(r);
            free.add(r);
        }
        for (int w = 0; w < workers; w++) {
            Thread t = new Thread(this::work, "straggler-sql-events-" + w);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** Converts location after location until none is left, then says so. */
    private void work() {
        EventBatch batch = new EventBatch(1 << 16);
        try {
            for (int k; !stopped && (k = nextLocation.getAndIncrement()) < locations.length; ) {
                int l = locations[k];
                CallPaths.Walker walker = new CallPaths.Walker(paths.regions(), paths::child);
                try (LocationReader reader = source.openLocation(l)) {
                    while (!stopped && reader.next(batch)) {
                        VectorSchemaRoot root = null;
                        // no interrupt stops a worker (it could close a reader's channel): it looks at stopped
                        while (root == null && !stopped) {
                            root = free.poll(20, TimeUnit.MILLISECONDS);
                        }
                        if (root == null) {
                            break;
                        }
                        fill(root, batch, l, walker);
                        full.add(root);
                    }
                }
            }
            full.add(DONE);
        } catch (InterruptedException e) {
            full.add(DONE);
        } catch (IOException | RuntimeException | Error e) {
            // the scan reports it as the error of the statement, and stops there
            full.add(e);
        }
    }

    private void fill(VectorSchemaRoot root, EventBatch batch, int location, CallPaths.Walker w) {
        int n = batch.size;
        for (FieldVector v : root.getFieldVectors()) {
            v.setInitialCapacity(n);
            v.allocateNew();
        }
        IntVector loc = (IntVector) root.getVector(0);
        IntVector rank = (IntVector) root.getVector(1);
        IntVector thread = (IntVector) root.getVector(2);
        BigIntVector event = (BigIntVector) root.getVector(3);
        BigIntVector tick = (BigIntVector) root.getVector(4);
        Float8Vector time = (Float8Vector) root.getVector(5);
        VarCharVector kind = (VarCharVector) root.getVector(6);
        IntVector region = (IntVector) root.getVector(7);
        IntVector callpath = (IntVector) root.getVector(8);
        IntVector peer = (IntVector) root.getVector(9);
        IntVector comm = (IntVector) root.getVector(10);
        IntVector tag = (IntVector) root.getVector(11);
        BigIntVector bytes = (BigIntVector) root.getVector(12);
        BigIntVector request = (BigIntVector) root.getVector(13);
        Location l = defs.location(location);
        long offset = clock.globalOffset();
        double perSecond = clock.ticksPerSecond();
        for (int i = 0; i < n; i++) {
            byte k = batch.kind[i];
            loc.set(i, location);
            rank.set(i, l.rank());
            thread.set(i, l.thread());
            event.set(i, batch.firstIndex + i);
            long t = batch.time[i];
            tick.set(i, t);
            // seconds since the start of the measurement, as every report gives a time (Clock.secondsSinceStart)
            time.set(i, (t - offset) / perSecond);
            kind.setSafe(i, KIND_NAMES[k]);
            w.step(k, batch.ref[i]);
            setOrNull(region, i, w.region);
            setOrNull(callpath, i, w.callPath);
            switch (k) {
                case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE, EventKind.MPI_RECV_CODE,
                     EventKind.MPI_IRECV_CODE -> {
                    setOrNull(peer, i, globalRank(batch.comm[i], batch.ref[i]));
                    comm.set(i, batch.comm[i]);
                    tag.set(i, batch.tag[i]);
                    bytes.set(i, batch.bytes[i]);
                    if (k == EventKind.MPI_ISEND_CODE || k == EventKind.MPI_IRECV_CODE) {
                        request.set(i, batch.aux[i]);
                    } else {
                        request.setNull(i);
                    }
                }
                case EventKind.MPI_ISEND_COMPLETE_CODE, EventKind.MPI_IRECV_REQUEST_CODE,
                     EventKind.MPI_REQUEST_TEST_CODE, EventKind.MPI_REQUEST_CANCELLED_CODE -> {
                    peer.setNull(i);
                    comm.setNull(i);
                    tag.setNull(i);
                    bytes.setNull(i);
                    request.set(i, batch.aux[i]);
                }
                case EventKind.MPI_COLLECTIVE_END_CODE -> {
                    peer.setNull(i);
                    comm.set(i, batch.comm[i]);
                    tag.setNull(i);
                    bytes.set(i, batch.bytes[i]);
                    request.setNull(i);
                }
                default -> {
                    peer.setNull(i);
                    comm.setNull(i);
                    tag.setNull(i);
                    bytes.setNull(i);
                    request.setNull(i);
                }
            }
        }
        root.setRowCount(n);
    }

    private int globalRank(int comm, int peer) {
        if (comm < 0 || comm >= defs.communicators().size()) {
            return -1;
        }
        Communicator c = defs.communicator(comm);
        return peer >= 0 && peer < c.size() ? c.members()[peer] : -1;
    }

    private static void setOrNull(IntVector v, int i, int value) {
        if (value < 0) {
            v.setNull(i);
        } else {
            v.set(i, value);
        }
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    protected void closeReadSource() throws IOException {
        stopped = true;
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (VectorSchemaRoot r : pool) {
            r.close();
        }
        pool.clear();
        full.clear();
        free.clear();
    }
}
