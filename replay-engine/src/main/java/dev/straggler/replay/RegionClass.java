package dev.straggler.replay;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;

import java.util.Locale;

/**
 * Classification of a region as an MPI operation, as bit flags: the facts PEARL derives from a region's name
 * (Scalasca 2.6 {@code pearl/base/Region.cpp::classify_mpi}, reference §1.1) and on which the wait-state
 * patterns decide what a call is (a blocking send, a multi-wait, a test, ...).
 *
 * <p>A region is MPI when its source file is the string {@code "MPI"}, which is what Score-P writes and what
 * Scalasca checks; a region without any source file whose paradigm is MPI also counts, so that traces written
 * by other tools (and by our own generator) are analysed the same way. The operation is then named by the
 * canonical name without its {@code MPI_} prefix, lower-cased.
 */
public final class RegionClass {
    private RegionClass() {
    }

    public static final int MPI = 1;
    /** Measurement-system regions (buffer flushes): Scalasca's "overhead". */
    public static final int INTERNAL = 1 << 1;

    public static final int CAT_SETUP = 1 << 2;
    public static final int CAT_COLLECTIVE = 1 << 3;
    public static final int CAT_P2P = 1 << 4;
    public static final int CAT_IO = 1 << 5;
    public static final int CAT_RMA = 1 << 6;

    public static final int TYPE_INIT = 1 << 7;
    public static final int TYPE_FINALIZE = 1 << 8;
    public static final int TYPE_BARRIER = 1 << 9;
    public static final int TYPE_ONE_TO_N = 1 << 10;
    public static final int TYPE_N_TO_ONE = 1 << 11;
    public static final int TYPE_N_TO_N = 1 << 12;
    public static final int TYPE_PARTIAL = 1 << 13;
    public static final int TYPE_SEND = 1 << 14;
    public static final int TYPE_RECV = 1 << 15;
    public static final int TYPE_SENDRECV = 1 << 16;
    public static final int TYPE_TEST = 1 << 17;
    public static final int TYPE_WAIT = 1 << 18;

    public static final int MODE_SINGLE = 1 << 19;
    public static final int MODE_MANY = 1 << 20;
    public static final int MODE_NONBLOCKING = 1 << 21;
    public static final int MODE_PERSISTENT = 1 << 22;
    public static final int MODE_STANDARD = 1 << 23;
    public static final int MODE_SYNCHRONOUS = 1 << 24;
    public static final int MODE_BUFFERED = 1 << 25;
    public static final int MODE_READY = 1 << 26;

    private static final int MODE_MASK = MODE_SINGLE | MODE_MANY | MODE_NONBLOCKING | MODE_PERSISTENT
            | MODE_STANDARD | MODE_SYNCHRONOUS | MODE_BUFFERED | MODE_READY;

    /** The class bits of a region; 0 for a plain user region. */
    public static int of(Region r) {
        if (r.paradigm() == Paradigm.MEASUREMENT_SYSTEM) {
            return INTERNAL;
        }
        boolean mpiFile = r.sourceFile().equals("MPI")
                || (r.sourceFile().isEmpty() && r.paradigm() == Paradigm.MPI);
        if (!mpiFile) {
            return 0;
        }
        String canonical = r.canonicalName();
        String op = canonical.length() > 4 ? canonical.substring(4).toLowerCase(Locale.ROOT) : "";
        return classifyMpi(op);
    }

    /** Classifies an MPI operation name given without its {@code MPI_} prefix, lower-case. */
    static int classifyMpi(String name) {
        int c = MPI;
        switch (name) {
            case "init", "init_thread":
                return c | CAT_SETUP | TYPE_INIT;
            case "finalize":
                return c | CAT_SETUP | TYPE_FINALIZE;
            case "barrier":
                return c | CAT_COLLECTIVE | TYPE_BARRIER;
            case "bcast", "scatter", "scatterv":
                return c | CAT_COLLECTIVE | TYPE_ONE_TO_N;
            case "reduce", "gather", "gatherv":
                return c | CAT_COLLECTIVE | TYPE_N_TO_ONE;
            case "allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "alltoallw", "reduce_scatter",
                 "reduce_scatter_block":
                return c | CAT_COLLECTIVE | TYPE_N_TO_N;
            case "scan", "exscan":
                return c | CAT_COLLECTIVE | TYPE_PARTIAL;
            default:
                break;
        }
        if (name.startsWith("sendrecv")) {
            return c | CAT_P2P | TYPE_SENDRECV | MODE_NONBLOCKING;
        }
        if (name.contains("send")) {
            int r = c | CAT_P2P | TYPE_SEND;
            if (name.charAt(0) == 'i') {
                r |= MODE_NONBLOCKING;
            } else if (name.contains("init")) {
                r |= MODE_PERSISTENT;
            }
            if (name.contains("ssend")) {
                r |= MODE_SYNCHRONOUS;
            } else if (name.contains("bsend")) {
                r |= MODE_BUFFERED;
            } else if (name.contains("rsend")) {
                r |= MODE_READY;
            } else {
                r |= MODE_STANDARD;
            }
            return r;
        }
        switch (name) {
            case "recv":
                return c | CAT_P2P | TYPE_RECV;
            case "irecv":
                return c | CAT_P2P | TYPE_RECV | MODE_NONBLOCKING;
            case "recv_init":
                return c | CAT_P2P | TYPE_RECV | MODE_PERSISTENT;
            case "test", "testany":
                return c | CAT_P2P | TYPE_TEST | MODE_SINGLE;
            case "testall", "testsome":
                return c | CAT_P2P | TYPE_TEST | MODE_MANY;
            case "wait", "waitany":
                return c | CAT_P2P | TYPE_WAIT | MODE_SINGLE;
            case "waitall", "waitsome":
                return c | CAT_P2P | TYPE_WAIT | MODE_MANY;
            default:
                break;
        }
        if (name.startsWith("buffer") || name.equals("cancel") || name.equals("get_count") || name.contains("probe")
                || name.startsWith("request") || name.startsWith("start")) {
            return c | CAT_P2P;
        }
        if (name.startsWith("file")) {
            return c | CAT_IO;
        }
        if (name.equals("accumulate") || name.equals("put") || name.equals("get") || name.startsWith("win")) {
            return c | CAT_RMA;
        }
        return c;
    }

    private static boolean all(int c, int bits) {
        return (c & bits) == bits;
    }

    public static boolean isMpi(int c) {
        return (c & MPI) != 0;
    }

    public static boolean isInternal(int c) {
        return (c & INTERNAL) != 0;
    }

    public static boolean isInit(int c) {
        return all(c, MPI | CAT_SETUP | TYPE_INIT);
    }

    public static boolean isFinalize(int c) {
        return all(c, MPI | CAT_SETUP | TYPE_FINALIZE);
    }

    /** MPI_Test, Testany, Testall, Testsome: a receive completed here never yields Late Sender. */
    public static boolean isTest(int c) {
        return all(c, MPI | CAT_P2P | TYPE_TEST);
    }

    /** MPI_Wait, MPI_Waitany. */
    public static boolean isWaitSingle(int c) {
        return all(c, MPI | CAT_P2P | TYPE_WAIT | MODE_SINGLE);
    }

    /** MPI_Waitall, MPI_Waitsome: the waiting time is the maximum over the completed messages. */
    public static boolean isWaitMulti(int c) {
        return all(c, MPI | CAT_P2P | TYPE_WAIT | MODE_MANY);
    }

    /**
     * True only for MPI_Send and MPI_Ssend: a send with standard or synchronous mode and no other mode bit
     * (Scalasca {@code is_mpi_block_send}); Bsend, Rsend, Isend, Send_init and Sendrecv are not eligible for
     * Late Receiver.
     */
    public static boolean isBlockingSend(int c) {
        if (!all(c, MPI | CAT_P2P | TYPE_SEND)) {
            return false;
        }
        int mode = c & MODE_MASK;
        return mode == MODE_STANDARD || mode == MODE_SYNCHRONOUS;
    }
}
