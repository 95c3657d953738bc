package dev.straggler.testdata.sim;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * One simulated rank: the interpreter of its program (an explicit stack, so no program is materialised), its
 * clock, communicators, requests, its receive queues, and the bounded buffers its events are written through (one
 * per thread: the master's, and those of its OpenMP worker threads, whose parallel regions {@link Team} runs).
 */
final class RankState implements Ctx {
    final int rank;
    private final int worldSize;
    private final long seed;
    long now;

    /** Where the rank is in its program (its team's threads read its loops, see {@link Team}). */
    final Cursor cursor = new Cursor();

    // communicators by slot
    final int[] slotComm;
    final int[] slotLocal;
    final int[] slotSize;
    final long[] slotSeq;

    // requests
    final Request[] requests;
    final Request sendRequest;
    final Request recvRequest;
    long nextRequestId = 1;

    // as a receiver: unmatched arrived messages and posted receives, both in MPI matching order
    final ArrayList<Message> unexpected = new ArrayList<>();
    final ArrayList<Request> posted = new ArrayList<>();

    // the call being executed or blocked in
    Node.Mpi pendingOp;
    Node.Mpi blockedOp;
    long blockedEnter;
    int unmatched;
    Request[] waitList = new Request[4];
    int waitCount;
    boolean finished;

    // OpenMP: the team of every parallel region, and per lock of the process the release of its last acquisition
    // and the number of acquisitions so far (the acquisition order of the next one, less one)
    private final int threads;
    private final Team team;
    final long[] lockRelease;
    final long[] lockOrder;

    // output: thread t's events go to batches[t] (t = 0: the master), location t × worldSize + rank
    private final EventBatch batch;
    private final EventBatch[] batches;
    private final TraceWriter out;
    private final ClockSkew skew;
    private final boolean skewed;
    long events;
    long lastObserved;

    RankState(int rank, int worldSize, Program program, long seed, TraceWriter out, int batchSize, ClockSkew skew,
              ThreadModel threadModel) {
        this.rank = rank;
        this.worldSize = worldSize;
        this.seed = seed;
        this.out = out;
        this.skew = skew;
        this.skewed = skew.affects(rank);
        this.threads = program.threads();
        this.batches = new EventBatch[threads];
        for (int t = 0; t < threads; t++) {
            batches[t] = new EventBatch(batchSize);
        }
        this.batch = batches[0];
        this.team = new Team(this, threads, threadModel);
        this.lockRelease = new long[program.locks()];
        this.lockOrder = new long[program.locks()];
        Arrays.fill(lockRelease, Long.MIN_VALUE);
        int slots = program.commSlots();
        slotComm = new int[slots];
        slotLocal = new int[slots];
        slotSize = new int[slots];
        slotSeq = new long[slots];
        Arrays.fill(slotComm, -1);
        Arrays.fill(slotLocal, -1);
        slotComm[Program.WORLD] = 0;
        slotLocal[Program.WORLD] = rank;
        slotSize[Program.WORLD] = worldSize;
        requests = new Request[program.requestSlots()];
        sendRequest = new Request(rank);
        recvRequest = new Request(rank);
        cursor.reset(program.root());
    }

    // ---- Ctx

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return worldSize;
    }

    @Override
    public int commRank(int slot) {
        return slotLocal[slot];
    }

    @Override
    public int commSize(int slot) {
        return slotSize[slot];
    }

    @Override
    public int iteration(int depth) {
        if (depth < 0 || depth >= cursor.loopDepth()) {
            throw new IllegalArgumentException("rank " + rank + " is in " + cursor.loopDepth() + " loops; no loop at depth "
                    + depth);
        }
        return cursor.iteration(depth);
    }

    @Override
    public long seed() {
        return seed;
    }

    @Override
    public int threads() {
        return threads;
    }

    // ---- interpreter

    /**
     * Executes local statements (calls of user functions, computation) until the next MPI call, which it returns
     * without executing; null when the program has ended.
     */
    Node.Mpi advance() {
        Node n;
        while ((n = cursor.next(this)) != null) {
            switch (n.kind) {
                case Node.CALL -> {
                    Node.Call c = (Node.Call) n;
                    if (!cursor.started()) {
                        cursor.start();
                        enter(now, c.region);
                        if (c.body != null) {
                            cursor.push(c.body);
                        }
                    } else {
                        leave(now, c.region);
                        cursor.pop();
                    }
                }
                case Node.COMPUTE -> {
                    long d = ((Node.Compute) n).ticks.applyAsLong(this);
                    if (d > 0) {
                        now += d;
                    }
                    cursor.pop();
                }
                case Node.MPI -> {
                    cursor.pop();
                    return (Node.Mpi) n;
                }
                case Node.PARALLEL -> {
                    cursor.pop();
                    now = team.run((Node.Parallel) n, now);
                }
                case Node.OMP_BARRIER, Node.CRITICAL -> throw new IllegalStateException("rank " + rank + ": an OpenMP "
                        + (n.kind == Node.CRITICAL ? "critical section" : "barrier") + " outside a parallel region;"
                        + " the simulator runs them inside parallel regions only");
                default -> throw new IllegalStateException("unknown node kind " + n.kind);
            }
        }
        return null;
    }

    /** The request in a user slot, created on first use; fails when the slot still holds an active request. */
    Request userRequest(int slot, Node.Mpi op) {
        if (slot < 0 || slot >= requests.length) {
            throw new IllegalStateException("rank " + rank + ": " + op.call.regionName() + " uses request slot " + slot
                    + " but the program declares " + requests.length);
        }
        Request r = requests[slot];
        if (r == null) {
            r = new Request(rank);
            requests[slot] = r;
        } else if (r.active) {
            throw new IllegalStateException("rank " + rank + ": " + op.call.regionName() + " reuses request slot " + slot
                    + " before it was completed by MPI_Wait/MPI_Waitall");
        }
        return r;
    }

    // ---- events: one writer call per batch of events, which is what keeps memory bounded

    private long ts(long t) {
        long o = skewed ? skew.observe(rank, t) : t;
        if (o < 0) {
            throw new IllegalStateException("rank " + rank + ": clock skew makes the time of an event negative (" + o + ")");
        }
        lastObserved = o;
        return o;
    }

    private void emitted() {
        events++;
        if (batch.size == batch.capacity()) {
            flush(0);
        }
    }

    void flush() {
        for (int t = 0; t < threads; t++) {
            flush(t);
        }
    }

    private void flush(int thread) {
        EventBatch b = batches[thread];
        if (b.size == 0) {
            return;
        }
        try {
            out.append(thread * worldSize + rank, b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        b.clear();
    }

    /** One event of thread {@code thread} (0 = master) of this rank; columns as {@link EventKind} describes them. */
    void threadEvent(int thread, long t, byte kind, int ref, int comm, long aux) {
        EventBatch b = batches[thread];
        b.add(ts(t), kind, ref, comm, 0, 0, aux);
        events++;
        if (b.size == b.capacity()) {
            flush(thread);
        }
    }

    void enter(long t, int region) {
        batch.enter(ts(t), region);
        emitted();
    }

    void leave(long t, int region) {
        batch.leave(ts(t), region);
        emitted();
    }

    void sendRecord(long t, int peer, int comm, int tag, long bytes) {
        batch.send(ts(t), peer, comm, tag, bytes);
        emitted();
    }

    void isendRecord(long t, int peer, int comm, int tag, long bytes, long request) {
        batch.isend(ts(t), peer, comm, tag, bytes, request);
        emitted();
    }

    void recvRecord(long t, int peer, int comm, int tag, long bytes) {
        batch.recv(ts(t), peer, comm, tag, bytes);
        emitted();
    }

    void irecvRecord(long t, int peer, int comm, int tag, long bytes, long request) {
        batch.irecv(ts(t), peer, comm, tag, bytes, request);
        emitted();
    }

    void requestRecord(long t, EventKind kind, long request) {
        batch.request(ts(t), kind, request);
        emitted();
    }

    void collectiveBegin(long t) {
        batch.collectiveBegin(ts(t));
        emitted();
    }

    void collectiveEnd(long t, CollectiveOp op, int comm, int root, long sent, long received) {
        batch.collectiveEnd(ts(t), op, comm, root, sent, received);
        emitted();
    }

    void programBegin(long t) {
        batch.add(ts(t), EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
        emitted();
    }

    void programEnd(long t) {
        batch.add(ts(t), EventKind.PROGRAM_END_CODE, 0, 0, 0, 0, 0);
        emitted();
    }
}
