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
import java.util.List;

/**
 * The {@code events} table as a stream of Arrow record batches: one location after the other, one batch per batch the
 * trace delivers, so that a query holds a batch at a time whatever the size of the trace. DuckDB scans it through the
 * Arrow C Data Interface (the buffers filled here are handed over, not copied). A stream is read once; the session
 * makes a new one for every statement.
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

    private final TraceSource source;
    private final TraceDefinitions defs;
    private final CallPaths paths;
    private final Clock clock;
    private final EventBatch batch = new EventBatch(1 << 16);
    private int location = -1;
    private LocationReader reader;
    private CallPaths.Walker walker;
    private long bytesRead;

    EventStream(BufferAllocator allocator, TraceSource source, CallPaths paths) {
        super(allocator);
        this.source = source;
        this.defs = source.definitions();
        this.paths = paths;
        this.clock = defs.clock();
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

    @Override
    public boolean loadNextBatch() throws IOException {
        while (true) {
            if (reader != null && reader.next(batch)) {
                fill();
                return true;
            }
            if (reader != null) {
                reader.close();
                reader = null;
            }
            if (location + 1 >= defs.locations().size()) {
                return false;
            }
            location++;
            reader = source.openLocation(location);
            walker = new CallPaths.Walker(paths.regions(), paths::child);
        }
    }

    private void fill() throws IOException {
        VectorSchemaRoot root = getVectorSchemaRoot();
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
        CallPaths.Walker w = walker;
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
        bytesRead += n * 40L;
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
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
