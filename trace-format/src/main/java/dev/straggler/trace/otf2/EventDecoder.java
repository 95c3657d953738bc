package dev.straggler.trace.otf2;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.TraceFormatException;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decodes the records of one event chunk into an {@link EventBatch} (reference §6.2, §6.6). The hot loop works on
 * the chunk's byte array with hand-inlined compressed-integer decoding and writes the batch's primitive arrays
 * directly; nothing is allocated per event.
 *
 * <p>Records outside Straggler's model are skipped by their length (or, for the few without one, by their single
 * compressed field) and counted per record type in {@link #counts}. Timestamps pass through the location's clock
 * correction once per TIMESTAMP record; region and communicator references go through the location's
 * {@link RefTable}s, so the batch holds dense model ids. Not thread-safe: one decoder per location reader.
 */
final class EventDecoder {
    /**
     * Receives the METRIC records (counters), which are outside the event model; only the counter reader sets one.
     * The arrays are reused for every record.
     */
    interface MetricSink {
        /**
         * @param before index in the batch of the first event after the record (the event it accompanies)
         * @param ref    the record's metric reference, as written (local when the location has a METRIC mapping)
         */
        void metric(int before, long time, long ref, int count, byte[] types, long[] values);
    }

    private MetricSink metricSink;
    private final byte[] metricTypes = new byte[256];
    private final long[] metricValues = new long[256];

    void metricSink(MetricSink sink) {
        this.metricSink = sink;
    }

    /** Decoding stopped at an END_OF_CHUNK (or END_OF_BUFFER) record. */
    static final int CHUNK_END = 0;
    /** Decoding stopped at the END_OF_FILE record. */
    static final int FILE_END = 2;
    /** The chunk's data ran out without an end marker. */
    static final int DATA_END = -1;

    private static final VarHandle LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final RefTable regions;
    private final RefTable comms;
    private final ClockCorrection.Cursor clock;
    private final boolean lenient;
    private final String file;
    private final long location;

    /** Event records seen, by record type (all types, as otf2-print counts them). */
    final long[] counts = new long[256];
    /** Events delivered, by {@link EventKind} code. */
    final long[] kinds = new long[EventKind.COUNT];
    long attributeLists;
    /** Events dropped in lenient mode because they referred to undefined definitions or held invalid values. */
    long dropped;
    String firstDropReason;
    long firstDropOffset = -1;
    long firstTime = -1;
    long time;
    private long rawTime;
    private boolean haveTime;

    // the batch being filled
    private EventBatch out;
    private long[] tT;
    private byte[] tK;
    private int[] tR;
    private int[] tC;
    private int[] tG;
    private long[] tB;
    private long[] tA;
    private int n;
    private int cap;

    // file offset of the chunk array's index 0, for messages
    private long base;

    EventDecoder(RefTable regions, RefTable comms, ClockCorrection clock, boolean lenient, String file, long location) {
        this.regions = regions;
        this.comms = comms;
        this.clock = clock == null ? null : clock.cursor();
        this.lenient = lenient;
        this.file = file;
        this.location = location;
    }

    long records() {
        long s = 0;
        for (long c : counts) {
            s += c;
        }
        return s;
    }

    private static int len(byte first) {
        int k = first & 0xFF;
        return k == 0 || k == 0xFF ? 1 : k + 1;
    }

    /** A compressed integer at {@code p}; the array must have 8 readable bytes after {@code p + 1}. */
    private static long val(byte[] b, int p, boolean little) {
        int k = b[p] & 0xFF;
        if (k == 0) {
            return 0;
        }
        if (k == 0xFF) {
            return -1L;
        }
        if (little) {
            long v = (long) LE.get(b, p + 1);
            return k >= 8 ? v : v & ((1L << (k << 3)) - 1);
        }
        long v = (long) BE.get(b, p + 1);
        return k >= 8 ? v : v >>> (64 - (k << 3));
    }

    private static long fixed64(byte[] b, int p, boolean little) {
        return little ? (long) LE.get(b, p) : (long) BE.get(b, p);
    }

    /**
     * Decodes records from {@code b[from]} up to {@code b[to]}, appending model events to {@code batch}.
     *
     * @param fileOffsetOfArray file offset of {@code b[0]}, for messages
     * @return {@link #CHUNK_END}, {@link #FILE_END} or {@link #DATA_END}
     * @throws TraceFormatException for a malformed record, naming file and byte offset; events decoded before it
     *                              stay in the batch
     */
    int decode(byte[] b, int from, int to, boolean little, EventBatch batch, long fileOffsetOfArray)
            throws TraceFormatException {
        base = fileOffsetOfArray;
        out = batch;
        n = batch.size;
        load();
        try {
            return loop(b, from, to, little);
        } finally {
            batch.size = n;
            out = null;
        }
    }

    private void load() {
        tT = out.time;
        tK = out.kind;
        tR = out.ref;
        tC = out.comm;
        tG = out.tag;
        tB = out.bytes;
        tA = out.aux;
        cap = tT.length;
    }

    private void emit(byte kind, int r, int c, int g, long bytes, long aux) {
        if (n == cap) {
            out.size = n;
            out.ensureCapacity(n + 1);
            load();
        }
        int i = n++;
        kinds[kind]++;
        tT[i] = time;
        tK[i] = kind;
        tR[i] = r;
        tC[i] = c;
        tG[i] = g;
        tB[i] = bytes;
        tA[i] = aux;
    }

    private int loop(byte[] b, int p, int to, boolean little) throws TraceFormatException {
        final long[] cnt = counts;
        while (p < to) {
            final int type = b[p] & 0xFF;
            if (type == Otf2Format.TIMESTAMP) {
                if (p + 9 > to) {
                    throw error(p, "truncated timestamp record");
                }
                long t = fixed64(b, p + 1, little);
                rawTime = t;
                time = clock == null ? t : clock.apply(t);
                if (!haveTime) {
                    haveTime = true;
                    firstTime = time;
                }
                p += 9;
                continue;
            }
            if (type == Otf2Format.EVT_ENTER || type == Otf2Format.EVT_LEAVE) {
                int q = p + 1;
                int l = len(b[q]);
                if (l > 5 || q + l > to) {
                    throw badInt(q, to);
                }
                long ref = val(b, q, little);
                cnt[type]++;
                int r = regions.get(ref);
                if (r < 0 || !haveTime) {
                    drop(p, !haveTime ? "event before the first timestamp" : "undefined region " + ref);
                } else {
                    emit(type == Otf2Format.EVT_ENTER ? EventKind.ENTER_CODE : EventKind.LEAVE_CODE, r, 0, 0, 0, 0);
                }
                p = q + l;
                continue;
            }
            if (type < Otf2Format.EVT_BUFFER_FLUSH) {
                switch (type) {
                    case Otf2Format.END_OF_CHUNK, Otf2Format.END_OF_BUFFER -> {
                        return CHUNK_END;
                    }
                    case Otf2Format.END_OF_FILE -> {
                        return FILE_END;
                    }
                    case Otf2Format.ATTRIBUTE_LIST -> {
                        p = recordEnd(b, p, to, little);
                        attributeLists++;
                        continue;
                    }
                    default -> throw error(p, "invalid record type " + type);
                }
            }
            if (Otf2Format.hasNoLength(type)) {
                // request-only MPI records and the OpenMP singletons: one compressed field, no length byte
                int q = p + 1;
                int l = len(b[q]);
                if (l > 9 || q + l > to) {
                    throw badInt(q, to);
                }
                cnt[type]++;
                byte kind = switch (type) {
                    case Otf2Format.EVT_MPI_ISEND_COMPLETE -> EventKind.MPI_ISEND_COMPLETE_CODE;
                    case Otf2Format.EVT_MPI_IRECV_REQUEST -> EventKind.MPI_IRECV_REQUEST_CODE;
                    case Otf2Format.EVT_MPI_REQUEST_TEST -> EventKind.MPI_REQUEST_TEST_CODE;
                    case Otf2Format.EVT_MPI_REQUEST_CANCELLED -> EventKind.MPI_REQUEST_CANCELLED_CODE;
                    default -> -1;
                };
                if (kind >= 0) {
                    if (!haveTime) {
                        drop(p, "event before the first timestamp");
                    } else {
                        emit(kind, 0, 0, 0, 0, val(b, q, little));
                    }
                }
                p = q + l;
                continue;
            }
            int end = recordEnd(b, p, to, little);
            int q = end - recordLength;
            cnt[type]++;
            if (!haveTime && Otf2Format.isModelEvent(type)) {
                drop(p, "event before the first timestamp");
                p = end;
                continue;
            }
            switch (type) {
                case Otf2Format.EVT_MPI_SEND, Otf2Format.EVT_MPI_RECV, Otf2Format.EVT_MPI_ISEND,
                        Otf2Format.EVT_MPI_IRECV -> {
                    // each field is read only while inside the record, so a corrupt byte count cannot run off
                    // the chunk array; the final check catches a last field that overran the record
                    long peer = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long comm = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long tag = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long length = val(b, q, little);
                    q += len(b[q]);
                    long request = 0;
                    if (type == Otf2Format.EVT_MPI_ISEND || type == Otf2Format.EVT_MPI_IRECV) {
                        checkField(b, p, q, end);
                        request = val(b, q, little);
                        q += len(b[q]);
                    }
                    checkFields(b, p, q, end);
                    int c = comms.get(comm);
                    if (c < 0) {
                        drop(p, "undefined communicator " + comm);
                    } else {
                        byte kind = switch (type) {
                            case Otf2Format.EVT_MPI_SEND -> EventKind.MPI_SEND_CODE;
                            case Otf2Format.EVT_MPI_RECV -> EventKind.MPI_RECV_CODE;
                            case Otf2Format.EVT_MPI_ISEND -> EventKind.MPI_ISEND_CODE;
                            default -> EventKind.MPI_IRECV_CODE;
                        };
                        emit(kind, (int) peer, c, (int) tag, length, request);
                    }
                }
                case Otf2Format.EVT_MPI_COLLECTIVE_BEGIN -> emit(EventKind.MPI_COLLECTIVE_BEGIN_CODE, 0, 0, 0, 0, 0);
                case Otf2Format.EVT_MPI_COLLECTIVE_END -> {
                    int op = b[q] & 0xFF;
                    q++;
                    checkField(b, p, q, end);
                    long comm = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long root = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long sent = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long received = val(b, q, little);
                    q += len(b[q]);
                    checkFields(b, p, q, end);
                    int c = comms.get(comm);
                    if (c < 0) {
                        drop(p, "undefined communicator " + comm);
                    } else if (!CollectiveOp.isValidCode(op)) {
                        drop(p, "unknown collective operation " + op);
                    } else {
                        // an undefined root (all ones) becomes -1, as the model wants
                        emit(EventKind.MPI_COLLECTIVE_END_CODE, op, c, (int) root, sent, received);
                    }
                }
                case Otf2Format.EVT_MEASUREMENT_ON_OFF -> {
                    checkFields(b, p, q + 1, end);
                    int mode = b[q] & 0xFF;
                    emit(EventKind.MEASUREMENT_ON_OFF_CODE, mode, 0, 0, 0, 0);
                }
                case Otf2Format.EVT_BUFFER_FLUSH -> {
                    checkFields(b, p, q + 8, end);
                    // OTF2_EvtReader corrects the stop time too, with the same forward-only interval search, so
                    // the events after it see the interval it moved to
                    long stop = fixed64(b, q, little);
                    if (clock != null) {
                        stop = clock.apply(stop);
                    }
                    emit(EventKind.BUFFER_FLUSH_CODE, 0, 0, 0, 0, stop);
                    if (clock != null) {
                        time = clock.apply(rawTime);
                    }
                }
                case Otf2Format.EVT_THREAD_FORK -> {
                    // model (u8), numberOfRequestedThreads (u32c)
                    checkField(b, p, q, end);
                    int model = b[q] & 0xFF;
                    q++;
                    checkField(b, p, q, end);
                    long threads = val(b, q, little);
                    checkFields(b, p, q + len(b[q]), end);
                    emit(EventKind.THREAD_FORK_CODE, (int) threads, model, 0, 0, 0);
                }
                case Otf2Format.EVT_THREAD_JOIN -> {
                    checkField(b, p, q, end);
                    checkFields(b, p, q + 1, end);
                    emit(EventKind.THREAD_JOIN_CODE, 0, b[q] & 0xFF, 0, 0, 0);
                }
                case Otf2Format.EVT_THREAD_ACQUIRE_LOCK, Otf2Format.EVT_THREAD_RELEASE_LOCK -> {
                    // model (u8), lockID (u32c), acquisitionOrder (u32c)
                    checkField(b, p, q, end);
                    int model = b[q] & 0xFF;
                    q++;
                    checkField(b, p, q, end);
                    long lock = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long order = val(b, q, little);
                    checkFields(b, p, q + len(b[q]), end);
                    emit(type == Otf2Format.EVT_THREAD_ACQUIRE_LOCK ? EventKind.THREAD_ACQUIRE_LOCK_CODE
                            : EventKind.THREAD_RELEASE_LOCK_CODE, (int) lock, model, 0, 0, order);
                }
                case Otf2Format.EVT_THREAD_BEGIN -> {
                    // threadContingent (u32c), sequenceCount (u64c)
                    checkField(b, p, q, end);
                    long contingent = val(b, q, little);
                    q += len(b[q]);
                    checkField(b, p, q, end);
                    long sequence = val(b, q, little);
                    checkFields(b, p, q + len(b[q]), end);
                    // the contingent only names the creating process's threads: an undefined one is no reason to drop
                    // the record that places the thread's call paths
                    emit(EventKind.THREAD_BEGIN_CODE, 0, comms.get(contingent), 0, 0, sequence);
                }
                case Otf2Format.EVT_PROGRAM_BEGIN -> emit(EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
                case Otf2Format.EVT_PROGRAM_END -> {
                    checkField(b, p, q, end);
                    long status = val(b, q, little);
                    checkFields(b, p, q + len(b[q]), end);
                    emit(EventKind.PROGRAM_END_CODE, 0, 0, 0, status, 0);
                }
                case Otf2Format.EVT_METRIC -> {
                    if (metricSink != null && haveTime) {
                        // metric (u32c), numberOfMetrics (u8), then per metric: type (u8), value (compressed 64 bits)
                        long ref = val(b, q, little);
                        q += len(b[q]);
                        checkField(b, p, q, end);
                        int count = b[q++] & 0xFF;
                        for (int i = 0; i < count; i++) {
                            checkField(b, p, q, end);
                            metricTypes[i] = b[q++];
                            checkField(b, p, q, end);
                            metricValues[i] = val(b, q, little);
                            q += len(b[q]);
                        }
                        checkFields(b, p, q, end);
                        metricSink.metric(n, time, ref, count, metricTypes, metricValues);
                    }
                }
                default -> {
                    // outside the model: read past it (counted above)
                }
            }
            p = end;
        }
        return DATA_END;
    }

    /** Length of the body of the record whose end {@link #recordEnd} returned last. */
    private int recordLength;

    /** Reads the length field of the record of type at {@code p}; returns the end of its body. */
    private int recordEnd(byte[] b, int p, int to, boolean little) throws TraceFormatException {
        int q = p + 1;
        if (q >= to) {
            throw error(p, "truncated record (no length field)");
        }
        long l = b[q] & 0xFF;
        q++;
        if (l == 0xFF) {
            if (q + 8 > to) {
                throw error(p, "truncated record length");
            }
            l = fixed64(b, q, little);
            q += 8;
        }
        if (l < 0 || l > to - q) {
            throw error(p, "record " + Otf2Format.eventName(b[p] & 0xFF) + " of length " + Long.toUnsignedString(l)
                    + " runs past the end of the chunk (" + (to - q) + " bytes left)");
        }
        recordLength = (int) l;
        return q + (int) l;
    }

    private void checkField(byte[] b, int p, int q, int end) throws TraceFormatException {
        if (q >= end) {
            throw error(p, "fields of " + Otf2Format.eventName(b[p] & 0xFF) + " run past its record length");
        }
    }

    private void checkFields(byte[] b, int p, int q, int end) throws TraceFormatException {
        if (q > end) {
            throw error(p, "fields of " + Otf2Format.eventName(b[p] & 0xFF) + " run past its record length");
        }
    }

    private TraceFormatException badInt(int q, int to) {
        return error(q, q >= to ? "truncated record" : "invalid compressed integer");
    }

    private void drop(int p, String reason) throws TraceFormatException {
        if (!lenient) {
            throw error(p, reason);
        }
        if (dropped++ == 0) {
            firstDropReason = reason;
            firstDropOffset = base + p;
        }
    }

    /** File offset of the record the last error was raised for. */
    long errorOffset = -1;

    TraceFormatException error(int p, String what) {
        errorOffset = base + p;
        return new TraceFormatException(file + ": byte offset " + (base + p) + " (location "
                + Long.toUnsignedString(location) + "): " + what);
    }
}
