package dev.straggler.testdata.sim;

import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * A statement of an SPMD {@link Program}: one tree shared by all ranks, interpreted per rank with an explicit
 * stack so that a program of 10^9 events is never materialised. Built with {@link ProgramBuilder}.
 */
public abstract class Node {
    static final int SEQ = 0;
    static final int LOOP = 1;
    static final int CALL = 2;
    static final int COMPUTE = 3;
    static final int IF = 4;
    static final int MPI = 5;
    static final int PARALLEL = 6;
    static final int OMP_BARRIER = 7;
    static final int CRITICAL = 8;

    final int kind;

    Node(int kind) {
        this.kind = kind;
    }

    static final class Seq extends Node {
        final Node[] children;

        Seq(Node[] children) {
            super(SEQ);
            this.children = children.clone();
        }
    }

    static final class Loop extends Node {
        final ToIntFunction<Ctx> count;
        final Node body;

        Loop(ToIntFunction<Ctx> count, Node body) {
            super(LOOP);
            this.count = count;
            this.body = body;
        }
    }

    /** A call of a user function: ENTER, the body, LEAVE. */
    static final class Call extends Node {
        final int region;
        final Node body;

        Call(int region, Node body) {
            super(CALL);
            this.region = region;
            this.body = body;
        }
    }

    /** Local work: advances the rank's clock and records nothing. */
    static final class Compute extends Node {
        final ToLongFunction<Ctx> ticks;

        Compute(ToLongFunction<Ctx> ticks) {
            super(COMPUTE);
            this.ticks = ticks;
        }
    }

    static final class If extends Node {
        final Predicate<Ctx> test;
        final Node then;
        final Node otherwise;

        If(Predicate<Ctx> test, Node then, Node otherwise) {
            super(IF);
            this.test = test;
            this.then = then;
            this.otherwise = otherwise;
        }
    }

    /**
     * An MPI call. Which fields are used depends on {@link #call}: {@code peer}/{@code tag}/{@code bytes} describe
     * the sent message (destination) or the receive (source); Sendrecv adds {@code peer2}/{@code tag2} for its
     * receive; {@code request} is the request slot of Isend/Irecv/Wait and the first slot of Waitall, whose slot
     * count is {@code count}; collectives use {@code root} and {@code bytes} (and {@code bytes2}, the received
     * total of Alltoallv); Comm_split uses {@code peer} as colour, {@code tag} as key and {@code resultSlot}.
     */
    static final class Mpi extends Node {
        final MpiCall call;
        final int region;
        final int commSlot;
        final ToIntFunction<Ctx> peer;
        final ToIntFunction<Ctx> tag;
        final ToLongFunction<Ctx> bytes;
        final ToIntFunction<Ctx> peer2;
        final ToIntFunction<Ctx> tag2;
        final ToLongFunction<Ctx> bytes2;
        final ToIntFunction<Ctx> request;
        final ToIntFunction<Ctx> count;
        final ToIntFunction<Ctx> root;
        final int resultSlot;

        Mpi(MpiCall call, int region, int commSlot, ToIntFunction<Ctx> peer, ToIntFunction<Ctx> tag,
            ToLongFunction<Ctx> bytes, ToIntFunction<Ctx> peer2, ToIntFunction<Ctx> tag2, ToLongFunction<Ctx> bytes2,
            ToIntFunction<Ctx> request, ToIntFunction<Ctx> count, ToIntFunction<Ctx> root, int resultSlot) {
            super(MPI);
            this.call = call;
            this.region = region;
            this.commSlot = commSlot;
            this.peer = peer;
            this.tag = tag;
            this.bytes = bytes;
            this.peer2 = peer2;
            this.tag2 = tag2;
            this.bytes2 = bytes2;
            this.request = request;
            this.count = count;
            this.root = root;
            this.resultSlot = resultSlot;
        }
    }

    /**
     * An OpenMP parallel region: the master forks a team of {@link Program#threads()} threads, each runs
     * {@code body} (its own share of work through {@link Ctx#thread()}), they meet in the region's implicit
     * barrier, and the master joins them. Only local statements, barriers and critical sections may appear inside.
     */
    static final class Parallel extends Node {
        final int region;
        final int implicitBarrier;
        final Node body;

        Parallel(int region, int implicitBarrier, Node body) {
            super(PARALLEL);
            this.region = region;
            this.implicitBarrier = implicitBarrier;
            this.body = body;
        }
    }

    /** An explicit OpenMP barrier ({@code !$omp barrier}) inside a parallel region. */
    static final class OmpBarrier extends Node {
        final int region;

        OmpBarrier(int region) {
            super(OMP_BARRIER);
            this.region = region;
        }
    }

    /**
     * An OpenMP critical section: {@code !$omp critical} around its structured block ({@code sblock}), guarded by
     * lock {@code lock} of the process. Its body holds local statements only.
     */
    static final class Critical extends Node {
        final int region;
        final int sblock;
        final int lock;
        final Node body;

        Critical(int region, int sblock, int lock, Node body) {
            super(CRITICAL);
            this.region = region;
            this.sblock = sblock;
            this.lock = lock;
            this.body = body;
        }
    }
}
