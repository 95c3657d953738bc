package dev.straggler.trace;

/**
 * The kinds of event record a location's stream holds, with the meaning of each generic column.
 *
 * <p>Every event has a {@code time} (ticks) and a {@code kind}; the other five columns
 * ({@code ref, comm, tag, bytes, aux}) are interpreted per kind as listed below. Unused columns are 0.
 * Peers are ranks <em>within the communicator</em>, as in OTF2 (reference §6.6); a missing root is -1.
 *
 * <table>
 *   <tr><th>kind</th><th>ref</th><th>comm</th><th>tag</th><th>bytes</th><th>aux</th></tr>
 *   <tr><td>ENTER, LEAVE</td><td>region</td><td></td><td></td><td></td><td></td></tr>
 *   <tr><td>MPI_SEND, MPI_RECV</td><td>peer</td><td>communicator</td><td>tag</td><td>message length</td><td></td></tr>
 *   <tr><td>MPI_ISEND, MPI_IRECV</td><td>peer</td><td>communicator</td><td>tag</td><td>message length</td><td>request id</td></tr>
 *   <tr><td>MPI_ISEND_COMPLETE, MPI_IRECV_REQUEST, MPI_REQUEST_TEST, MPI_REQUEST_CANCELLED</td><td></td><td></td><td></td><td></td><td>request id</td></tr>
 *   <tr><td>MPI_COLLECTIVE_BEGIN</td><td></td><td></td><td></td><td></td><td></td></tr>
 *   <tr><td>MPI_COLLECTIVE_END</td><td>{@link CollectiveOp} code</td><td>communicator</td><td>root (-1: none)</td><td>bytes sent</td><td>bytes received</td></tr>
 *   <tr><td>MEASUREMENT_ON_OFF</td><td>1 = on, 2 = off</td><td></td><td></td><td></td><td></td></tr>
 *   <tr><td>PROGRAM_BEGIN</td><td></td><td></td><td></td><td></td><td></td></tr>
 *   <tr><td>PROGRAM_END</td><td></td><td></td><td></td><td>exit status</td><td></td></tr>
 *   <tr><td>BUFFER_FLUSH</td><td></td><td></td><td></td><td></td><td>stop time (ticks)</td></tr>
 *   <tr><td>THREAD_FORK</td><td>requested team size</td><td>{@link Paradigm} code</td><td></td><td></td><td></td></tr>
 *   <tr><td>THREAD_JOIN</td><td></td><td>{@link Paradigm} code</td><td></td><td></td><td></td></tr>
 *   <tr><td>THREAD_ACQUIRE_LOCK, THREAD_RELEASE_LOCK</td><td>lock id</td><td>{@link Paradigm} code</td><td></td><td></td><td>acquisition order</td></tr>
 *   <tr><td>THREAD_BEGIN</td><td></td><td>thread contingent (communicator, -1: none)</td><td></td><td></td><td>sequence count</td></tr>
 * </table>
 *
 * <p>The thread records are OTF2's ThreadFork/ThreadJoin (the master thread opening and closing a parallel region)
 * and ThreadAcquireLock/ThreadReleaseLock (a thread taking and giving back a lock or critical section; the
 * acquisition order numbers the acquisitions of one lock across the process's threads), reference §6.6. THREAD_BEGIN
 * is the first record of a thread another thread created (OTF2's create/wait model, e.g. a POSIX thread): its call
 * paths hang under the program's artificial THREADS node, as PEARL builds them.
 *
 * <p>The {@link #code()} byte is what the columnar store and dispatch tables use; it never changes for a kind.
 */
public enum EventKind {
    ENTER(0),
    LEAVE(1),
    MPI_SEND(2),
    MPI_ISEND(3),
    MPI_ISEND_COMPLETE(4),
    MPI_IRECV_REQUEST(5),
    MPI_RECV(6),
    MPI_IRECV(7),
    MPI_REQUEST_TEST(8),
    MPI_REQUEST_CANCELLED(9),
    MPI_COLLECTIVE_BEGIN(10),
    MPI_COLLECTIVE_END(11),
    MEASUREMENT_ON_OFF(12),
    PROGRAM_BEGIN(13),
    PROGRAM_END(14),
    BUFFER_FLUSH(15),
    THREAD_FORK(16),
    THREAD_JOIN(17),
    THREAD_ACQUIRE_LOCK(18),
    THREAD_RELEASE_LOCK(19),
    THREAD_BEGIN(20);

    /** Number of kinds; dispatch tables indexed by {@link #code()} have this length. */
    public static final int COUNT = 21;

    public static final byte ENTER_CODE = 0;
    public static final byte LEAVE_CODE = 1;
    public static final byte MPI_SEND_CODE = 2;
    public static final byte MPI_ISEND_CODE = 3;
    public static final byte MPI_ISEND_COMPLETE_CODE = 4;
    public static final byte MPI_IRECV_REQUEST_CODE = 5;
    public static final byte MPI_RECV_CODE = 6;
    public static final byte MPI_IRECV_CODE = 7;
    public static final byte MPI_REQUEST_TEST_CODE = 8;
    public static final byte MPI_REQUEST_CANCELLED_CODE = 9;
    public static final byte MPI_COLLECTIVE_BEGIN_CODE = 10;
    public static final byte MPI_COLLECTIVE_END_CODE = 11;
    public static final byte MEASUREMENT_ON_OFF_CODE = 12;
    public static final byte PROGRAM_BEGIN_CODE = 13;
    public static final byte PROGRAM_END_CODE = 14;
    public static final byte BUFFER_FLUSH_CODE = 15;
    public static final byte THREAD_FORK_CODE = 16;
    public static final byte THREAD_JOIN_CODE = 17;
    public static final byte THREAD_ACQUIRE_LOCK_CODE = 18;
    public static final byte THREAD_RELEASE_LOCK_CODE = 19;
    public static final byte THREAD_BEGIN_CODE = 20;

    private static final EventKind[] BY_CODE = values();

    private final byte code;

    EventKind(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** @throws IllegalArgumentException for a byte that is not a kind code */
    public static EventKind of(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("unknown event kind code " + code);
        }
        return BY_CODE[code];
    }

    public static boolean isValidCode(int code) {
        return code >= 0 && code < COUNT;
    }

    /** Point-to-point records that name a peer and a communicator. */
    public boolean isMessage() {
        return this == MPI_SEND || this == MPI_ISEND || this == MPI_RECV || this == MPI_IRECV;
    }

    /** The thread-level records: fork, join and the lock records. */
    public boolean isThread() {
        return this == THREAD_FORK || this == THREAD_JOIN || this == THREAD_ACQUIRE_LOCK
                || this == THREAD_RELEASE_LOCK || this == THREAD_BEGIN;
    }

    /** Records whose only payload is a request id. */
    public boolean isRequestOnly() {
        return this == MPI_ISEND_COMPLETE || this == MPI_IRECV_REQUEST
                || this == MPI_REQUEST_TEST || this == MPI_REQUEST_CANCELLED;
    }
}
