package dev.straggler.patterns.reduce;

import dev.straggler.trace.EventKind;

/**
 * Exact sizes of event records as an OTF2 event file holds them (reference §6.2, §6.3, §6.6), the way
 * {@code dev.straggler.trace.otf2.Otf2Writer} encodes the model's events: a type byte, a length byte for every
 * record except the singletons (Enter, Leave and the request-only records), compressed integers of as many bytes
 * as the value needs, and a separate 9-byte timestamp record whenever the time differs from the previous event's.
 */
public final class RecordSizes {
    /** A TIMESTAMP record: type byte and a fixed 64-bit time. */
    public static final int TIMESTAMP = 9;
    /**
     * What an event file holds besides its records: the chunk header (type, byte order, first and last event
     * number: 18 bytes) and the END_OF_FILE and END_OF_BUFFER bytes closing the last chunk. Files longer than a
     * chunk add a header, the padding of the previous chunk and a repeated timestamp per chunk, which is negligible.
     */
    public static final int FILE_FRAMING = 18 + 2;

    private RecordSizes() {
    }

    /** Compressed unsigned 64-bit value: a byte count, then the significant bytes; 0 and all ones take one byte. */
    public static int u64c(long v) {
        if (v == 0 || v == -1L) {
            return 1;
        }
        return 1 + 8 - Long.numberOfLeadingZeros(v) / 8;
    }

    /** Compressed unsigned 32-bit value held in an int; -1 is OTF2's undefined reference (one byte). */
    public static int u32c(int v) {
        return v == -1 ? 1 : u64c(v & 0xFFFF_FFFFL);
    }

    /** Compressed signed 64-bit value: negative values take the full width. */
    public static int i64c(long v) {
        return v < 0 ? 9 : u64c(v);
    }

    /** A record with a length field: type, length (one byte below 255, else nine) and body. */
    public static int withLength(int body) {
        return 1 + (body < 0xFF ? 1 : 9) + body;
    }

    /**
     * Bytes of one event record without its timestamp record. The columns are those of {@link EventKind}.
     *
     * @throws IllegalArgumentException for a byte that is not an event kind
     */
    public static int record(byte kind, int ref, int comm, int tag, long bytes, long aux) {
        return switch (kind) {
            case EventKind.ENTER_CODE, EventKind.LEAVE_CODE -> 1 + u32c(ref);
            case EventKind.MPI_SEND_CODE, EventKind.MPI_RECV_CODE ->
                    withLength(u32c(ref) + u32c(comm) + u32c(tag) + u64c(bytes));
            case EventKind.MPI_ISEND_CODE, EventKind.MPI_IRECV_CODE ->
                    withLength(u32c(ref) + u32c(comm) + u32c(tag) + u64c(bytes) + u64c(aux));
            case EventKind.MPI_ISEND_COMPLETE_CODE, EventKind.MPI_IRECV_REQUEST_CODE,
                    EventKind.MPI_REQUEST_TEST_CODE, EventKind.MPI_REQUEST_CANCELLED_CODE -> 1 + u64c(aux);
            case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> withLength(0);
            case EventKind.MPI_COLLECTIVE_END_CODE -> withLength(1 + u32c(comm) + u32c(tag) + u64c(bytes) + u64c(aux));
            case EventKind.MEASUREMENT_ON_OFF_CODE -> withLength(1);
            // the writer names the program by a fixed string reference (1) and writes no arguments
            case EventKind.PROGRAM_BEGIN_CODE -> withLength(u32c(1) + u32c(0));
            case EventKind.PROGRAM_END_CODE -> withLength(i64c(bytes));
            case EventKind.BUFFER_FLUSH_CODE -> withLength(8);
            // paradigm (one byte), then the requested team size; the join has the paradigm only
            case EventKind.THREAD_FORK_CODE -> withLength(1 + u32c(ref));
            case EventKind.THREAD_JOIN_CODE -> withLength(1);
            case EventKind.THREAD_ACQUIRE_LOCK_CODE, EventKind.THREAD_RELEASE_LOCK_CODE ->
                    withLength(1 + u32c(ref) + u32c((int) aux));
            // thread contingent, sequence count
            case EventKind.THREAD_BEGIN_CODE -> withLength(u32c(comm) + u64c(aux));
            default -> throw new IllegalArgumentException("unknown event kind " + kind);
        };
    }
}
