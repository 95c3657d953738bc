package dev.straggler.testdata.sim;

import dev.straggler.trace.EventKind;
import dev.straggler.trace.Paradigm;


/**
 * The OpenMP thread team of one rank: runs a parallel region, which holds no MPI call (MPI_THREAD_FUNNELED), from
 * the master's fork to its join in one go, with the costs of {@link ThreadModel}, and records every thread's
 * events as Score-P 8 with OPARI2 records them: on the master THREAD_FORK (requested team size), ENTER of the
 * region; on every thread the region's events, barriers as ENTER/LEAVE of their regions, critical sections as
 * ENTER {@code !$omp critical}, THREAD_ACQUIRE_LOCK, ENTER {@code sblock} ... LEAVE {@code sblock},
 * THREAD_RELEASE_LOCK, LEAVE {@code !$omp critical}, the implicit barrier and LEAVE of the region; then on the
 * master THREAD_JOIN.
 *
 * <p>The threads advance their own clocks. The team runs the thread with the earliest clock (ties: the lowest
 * thread number) up to its next barrier or critical section, so critical sections are requested in time order and
 * granted in that order: a thread holds the lock from {@code max(its entry, the previous release)} for the length
 * of the section's body (nothing in a body waits). When every thread has reached the same barrier, all leave it at
 * the latest entry plus the barrier cost. One team per rank, reused for every region; not thread-safe.
 */
final class Team {
    private static final int RUNNING = 0;
    private static final int AT_CRITICAL = 1;
    private static final int AT_BARRIER = 2;

    // what a thread's run stopped at
    private static final int STOP_BARRIER = 0;
    private static final int STOP_CRITICAL = 1;
    private static final int STOP_END = 2;
    private static final int STOP_RELEASED = 3;

    private static final int OPENMP = Paradigm.OPENMP.code();

    private final RankState rank;
    private final ThreadModel model;
    private final Member[] members;

    Team(RankState rank, int threads, ThreadModel model) {
        this.rank = rank;
        this.model = model;
        this.members = new Member[threads];
        for (int t = 0; t < threads; t++) {
            members[t] = new Member(t);
        }
    }

    /** Runs one parallel region forked at {@code fork}; returns the time of the master's THREAD_JOIN. */
    long run(Node.Parallel region, long fork) {
        int n = members.length;
        rank.threadEvent(0, fork, EventKind.THREAD_FORK_CODE, n, OPENMP, 0);
        for (Member m : members) {
            m.start(region.body, fork + model.forkTime(m.thread));
            rank.threadEvent(m.thread, m.now, EventKind.ENTER_CODE, region.region, 0, 0);
        }
        while (true) {
            Member next = null;
            for (Member m : members) {
                if (m.state != AT_BARRIER && (next == null || m.now < next.now)) {
                    next = m;
                }
            }
            if (next == null) {
                long leave = leaveBarrier(region);
                if (members[0].barrier == region.implicitBarrier) {
                    for (Member m : members) {
                        rank.threadEvent(m.thread, leave, EventKind.LEAVE_CODE, region.region, 0, 0);
                    }
                    long join = leave + model.join();
                    rank.threadEvent(0, join, EventKind.THREAD_JOIN_CODE, 0, OPENMP, 0);
                    return join;
                }
                continue;
            }
            if (next.state == AT_CRITICAL) {
                acquire(next);
                continue;
            }
            switch (next.run(false)) {
                case STOP_BARRIER -> arrive(next, ((Node.OmpBarrier) next.stopped).region);
                case STOP_CRITICAL -> next.state = AT_CRITICAL;
                case STOP_END -> arrive(next, region.implicitBarrier);
                default -> throw new IllegalStateException("unexpected stop");
            }
        }
    }

    private void arrive(Member m, int barrier) {
        m.state = AT_BARRIER;
        m.barrier = barrier;
        rank.threadEvent(m.thread, m.now, EventKind.ENTER_CODE, barrier, 0, 0);
    }

    /** Every thread waits at a barrier: they must all be at the same one; all leave at the latest entry + cost. */
    private long leaveBarrier(Node.Parallel region) {
        long latest = Long.MIN_VALUE;
        for (Member m : members) {
            if (m.barrier != members[0].barrier) {
                throw new IllegalStateException("rank " + rank.rank + ": in a parallel region thread 0 reaches "
                        + describe(members[0].barrier, region) + " while thread " + m.thread + " reaches "
                        + describe(m.barrier, region) + "; the threads of a team must pass the same barriers");
            }
            latest = Math.max(latest, m.now);
        }
        long leave = latest + model.barrier();
        for (Member m : members) {
            rank.threadEvent(m.thread, leave, EventKind.LEAVE_CODE, m.barrier, 0, 0);
            m.now = leave;
            m.state = RUNNING;
        }
        return leave;
    }

    private static String describe(int barrier, Node.Parallel region) {
        return barrier == region.implicitBarrier ? "the region's end" : "explicit barrier region " + barrier;
    }

    /**
     * Serves the earliest pending request for a critical section: the thread enters the construct, acquires the
     * lock once its previous holder has released it, and runs the whole body, so the release is known before the
     * next request is served.
     */
    private void acquire(Member m) {
        Node.Critical c = (Node.Critical) m.stopped;
        long enter = m.now;
        rank.threadEvent(m.thread, enter, EventKind.ENTER_CODE, c.region, 0, 0);
        m.now = Math.max(enter, rank.lockRelease[c.lock]);
        m.order = ++rank.lockOrder[c.lock];
        rank.threadEvent(m.thread, m.now, EventKind.THREAD_ACQUIRE_LOCK_CODE, c.lock, OPENMP, m.order);
        rank.threadEvent(m.thread, m.now, EventKind.ENTER_CODE, c.sblock, 0, 0);
        m.cursor.start();
        m.cursor.push(c.body);
        if (m.run(true) != STOP_RELEASED) {
            throw new IllegalStateException("unexpected stop in a critical section");
        }
        m.state = RUNNING;
    }

    /** One thread's interpreter of the region's body. */
    private final class Member implements Ctx {
        final int thread;
        long now;
        int state;
        int barrier;
        Node stopped;
        long order;
        final Cursor cursor = new Cursor();

        Member(int thread) {
            this.thread = thread;
        }

        void start(Node body, long t) {
            cursor.reset(body);
            now = t;
            state = RUNNING;
            barrier = -1;
        }

        /**
         * Executes local statements up to the next barrier, critical section or the end of the body; inside a
         * critical section ({@code inCritical}) up to the end of that section, which it records.
         */
        int run(boolean inCritical) {
            Node n;
            while ((n = cursor.next(this)) != null) {
                switch (n.kind) {
                    case Node.CALL -> {
                        Node.Call c = (Node.Call) n;
                        if (!cursor.started()) {
                            cursor.start();
                            rank.threadEvent(thread, now, EventKind.ENTER_CODE, c.region, 0, 0);
                            if (c.body != null) {
                                cursor.push(c.body);
                            }
                        } else {
                            rank.threadEvent(thread, now, EventKind.LEAVE_CODE, c.region, 0, 0);
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
                    case Node.OMP_BARRIER -> {
                        if (inCritical) {
                            throw misplaced("a barrier inside a critical section");
                        }
                        cursor.pop();
                        stopped = n;
                        return STOP_BARRIER;
                    }
                    case Node.CRITICAL -> {
                        Node.Critical c = (Node.Critical) n;
                        if (!cursor.started()) {
                            if (inCritical) {
                                throw misplaced("a critical section inside another");
                            }
                            stopped = n;
                            return STOP_CRITICAL;
                        }
                        rank.threadEvent(thread, now, EventKind.LEAVE_CODE, c.sblock, 0, 0);
                        rank.threadEvent(thread, now, EventKind.THREAD_RELEASE_LOCK_CODE, c.lock, OPENMP, order);
                        rank.threadEvent(thread, now, EventKind.LEAVE_CODE, c.region, 0, 0);
                        rank.lockRelease[c.lock] = now;
                        cursor.pop();
                        return STOP_RELEASED;
                    }
                    case Node.MPI -> throw misplaced(((Node.Mpi) n).call.regionName()
                            + " inside a parallel region; MPI calls run on the master thread outside parallel regions"
                            + " (MPI_THREAD_FUNNELED)");
                    case Node.PARALLEL -> throw misplaced("a nested parallel region (Scalasca 2.6 analyses none)");
                    default -> throw new IllegalStateException("unknown node kind " + n.kind);
                }
            }
            if (inCritical) {
                throw new IllegalStateException("a critical section ended without its release");
            }
            return STOP_END;
        }

        private IllegalStateException misplaced(String what) {
            return new IllegalStateException("rank " + rank.rank + " thread " + thread + ": " + what
                    + " is not simulated");
        }

        @Override
        public int rank() {
            return rank.rank();
        }

        @Override
        public int size() {
            return rank.size();
        }

        @Override
        public int commRank(int slot) {
            return rank.commRank(slot);
        }

        @Override
        public int commSize(int slot) {
            return rank.commSize(slot);
        }

        /** The loops around the region (the master's) first, then the thread's own loops inside it. */
        @Override
        public int iteration(int depth) {
            int outer = rank.cursor.loopDepth();
            if (depth >= 0 && depth < outer) {
                return rank.cursor.iteration(depth);
            }
            int d = depth - outer;
            if (d < 0 || d >= cursor.loopDepth()) {
                throw new IllegalArgumentException("rank " + rank.rank + " thread " + thread + " is in "
                        + (outer + cursor.loopDepth()) + " loops; no loop at depth " + depth);
            }
            return cursor.iteration(d);
        }

        @Override
        public long seed() {
            return rank.seed();
        }

        @Override
        public int thread() {
            return thread;
        }

        @Override
        public int threads() {
            return members.length;
        }
    }
}
