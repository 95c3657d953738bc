package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Paradigm;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Encodes one location's events into a chunked OTF2 event file as they arrive (reference §6.2, §6.6): a TIMESTAMP
 * record whenever the time changes and at the start of every chunk, then the record, with a length field except
 * for the singleton records. Not thread-safe; {@link Otf2Writer} serialises calls per location.
 *
 * <p>It also notes what {@link Otf2Writer#finish} needs to add Score-P's records around OpenMP teams: the team size
 * each OpenMP THREAD_FORK requests, and whether a PROGRAM_BEGIN was written. {@link #copy} and {@link #team} let
 * {@link ThreadTeams} rewrite a finished file with the team records inserted.
 */
final class EventEncoder {
    final Path file;
    private final ChunkWriter w;
    private final RecordBuffer body;
    private long lastTime = Long.MIN_VALUE;
    private boolean closed;
    /** Requested team size of every OpenMP THREAD_FORK, in order. */
    private final IntArrayList ompForks = new IntArrayList();
    private boolean programBegin;

    EventEncoder(Path file, Otf2WriterOptions o) {
        this.file = file;
        try {
            this.w = new ChunkWriter(file, (int) o.chunkSizeEvents(), o.byteOrder());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.body = new RecordBuffer(64, o.byteOrder());
    }

    long events() {
        return w.events();
    }

    /** The team size each OpenMP THREAD_FORK written so far requests, in order. */
    int[] ompForks() {
        return ompForks.toIntArray();
    }

    boolean wroteProgramBegin() {
        return programBegin;
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
                programBegin = true;
                body.u32c(GlobalDefinitionsWriter.PROGRAM_NAME_STRING);
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
            case EventKind.THREAD_FORK_CODE -> {
                type = Otf2Format.EVT_THREAD_FORK;
                body.u8(comm);
                body.u32c(ref);
                if (comm == Paradigm.OPENMP.code()) {
                    ompForks.add(ref);
                }
            }
            case EventKind.THREAD_JOIN_CODE -> {
                type = Otf2Format.EVT_THREAD_JOIN;
                body.u8(comm);
            }
            case EventKind.THREAD_ACQUIRE_LOCK_CODE, EventKind.THREAD_RELEASE_LOCK_CODE -> {
                type = kind == EventKind.THREAD_ACQUIRE_LOCK_CODE ? Otf2Format.EVT_THREAD_ACQUIRE_LOCK
                        : Otf2Format.EVT_THREAD_RELEASE_LOCK;
                body.u8(comm);
                body.u32c(ref);
                body.u32c((int) aux);
            }
            case EventKind.THREAD_BEGIN_CODE -> {
                type = Otf2Format.EVT_THREAD_BEGIN;
                body.u32c(comm);
                body.u64c(aux);
            }
            default -> throw new IllegalArgumentException("unknown event kind " + kind);
        }
        emit(t, type, noLength);
    }

    /** A THREAD_TEAM_BEGIN or THREAD_TEAM_END record naming the team's communicator (OTF2 3.0, record 55/56). */
    void team(long t, boolean begin, int comm) throws IOException {
        body.reset();
        body.u32c(comm);
        emit(t, begin ? Otf2Format.EVT_THREAD_TEAM_BEGIN : Otf2Format.EVT_THREAD_TEAM_END, false);
    }

    /** Writes {@code body} as one event record of {@code type} at time {@code t}. */
    private void emit(long t, int type, boolean noLength) throws IOException {
        int size = noLength ? 1 + body.pos : RecordBuffer.recordSize(body.pos);
        RecordBuffer c = stamp(t, size);
        if (noLength) {
            c.u8(type);
            c.bytes(body.buf, 0, body.pos);
        } else {
            c.record(type, body);
        }
        w.countEvent();
    }

    /**
     * Copies one event record as another file of the same byte order holds it, {@code b[from, to)} from its type
     * byte to its end.
     */
    void copy(long t, byte[] b, int from, int to) throws IOException {
        stamp(t, to - from).bytes(b, from, to - from);
        w.countEvent();
    }

    /** Makes room for a record of {@code size} bytes and writes a TIMESTAMP before it where one is due. */
    private RecordBuffer stamp(long t, int size) throws IOException {
        // room for a timestamp either way: a new chunk must start with one (reference §6.2)
        boolean stamp = w.reserve(size + 9) || t != lastTime;
        RecordBuffer c = w.chunk;
        if (stamp) {
            c.u8(Otf2Format.TIMESTAMP);
            c.u64Fixed(t);
            lastTime = t;
        }
        return c;
    }

    void close() throws IOException {
        if (!closed) {
            closed = true;
            w.close();
        }
    }
}
