package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.ViolationKind;
import dev.straggler.replay.CollectiveMatching;
import dev.straggler.replay.CollectiveTable;
import dev.straggler.replay.Replay;
import dev.straggler.trace.CollectiveOp;

import java.util.Arrays;

/**
 * One collective operation seen from all members of its communicator, in communicator-rank order, and the
 * per-member outcome the patterns compute for it: waiting time, completion time and clock violations (ticks).
 * Reused from instance to instance by one thread.
 */
final class CollectiveInstance {
    static final long NEG_INF = Long.MIN_VALUE;
    static final long POS_INF = Long.MAX_VALUE;

    int size;
    CollectiveOp op;
    /** Root as a communicator rank, -1 for none. */
    int root;
    boolean consistent;
    long[] begin = new long[0];
    long[] end = new long[0];
    long[] sent = new long[0];
    long[] received = new long[0];
    int[] location = new int[0];
    int[] record = new int[0];
    /** Per member: unified call path of its record, its rank and thread (what an occurrence names). */
    int[] path = new int[0];
    int[] rank = new int[0];
    int[] thread = new int[0];

    /** Outcome per member. */
    long[] waitTime = new long[0];
    long[] completion = new long[0];
    /** {@link ViolationKind} ordinal + 1 per member, 0 for none. */
    byte[] violation = new byte[0];
    /** Scratch per member for the patterns (synchronization point or not); cleared by {@link #load}. */
    boolean[] flag = new boolean[0];
    /**
     * Per member: takes part in the operation's synchronisation (Scalasca evaluates it at all: every member, or for
     * N x N only members with payload), and is a synchronisation point (its wait and completion were settled).
     */
    boolean[] participates = new boolean[0];
    boolean[] sync = new boolean[0];
    /** Communicator rank whose time the others waited for (latest or root), -1 when none. */
    int reference;

    void load(Replay replay, int comm, int k) {
        CollectiveMatching cm = replay.collectives();
        int n = cm.size(comm);
        start(n);
        for (int j = 0; j < n; j++) {
            int loc = cm.memberLocation(comm, j);
            int rec = cm.record(comm, k, j);
            CollectiveTable t = replay.location(loc).collectives();
            location[j] = loc;
            record[j] = rec;
            path[j] = replay.location(loc).globalCallPath(t.callPath(rec));
            rank[j] = replay.location(loc).rank();
            thread[j] = replay.location(loc).thread();
            begin[j] = t.begin(rec);
            end[j] = t.end(rec);
            sent[j] = t.sent(rec);
            received[j] = t.received(rec);
            operation(j, t.op(rec), t.root(rec));
        }
        clearOutcomes(n);
    }

    /** Loads instance {@code k} of the columns (members of consecutive instances, communicator-rank order). */
    void load(CollectiveChunk.Members m, int k) {
        int n = m.size();
        start(n);
        int base = k * n;
        for (int j = 0; j < n; j++) {
            int x = base + j;
            location[j] = m.location()[x];
            record[j] = m.record()[x];
            path[j] = m.path()[x];
            rank[j] = m.rank()[x];
            thread[j] = m.thread()[x];
            begin[j] = m.begin()[x];
            end[j] = m.end()[x];
            sent[j] = m.sent()[x];
            received[j] = m.received()[x];
            operation(j, m.op()[x], m.root()[x]);
        }
        clearOutcomes(n);
    }

    private void start(int n) {
        ensure(n);
        size = n;
        consistent = true;
    }

    /** The operation and root member j names: member 0's are the instance's, any other must agree. */
    private void operation(int j, byte code, int memberRoot) {
        if (j == 0) {
            op = CollectiveOp.isValidCode(code) ? CollectiveOp.of(code) : null;
            root = memberRoot;
        } else if (op == null || code != op.code() || memberRoot != root) {
            consistent = false;
        }
    }

    private void clearOutcomes(int n) {
        Arrays.fill(waitTime, 0, n, 0);
        Arrays.fill(completion, 0, n, 0);
        Arrays.fill(violation, 0, n, (byte) 0);
        Arrays.fill(flag, 0, n, false);
        Arrays.fill(participates, 0, n, false);
        Arrays.fill(sync, 0, n, false);
        reference = -1;
    }

    /** Sets wait and completion of a synchronizing member against a reference (latest or root) begin. */
    void settle(int j, long referenceBegin, long earliestEnd, ViolationKind ifViolated) {
        sync[j] = true;
        if (referenceBegin > end[j]) {
            violation[j] = (byte) (ifViolated.ordinal() + 1);
        }
        // Clip the reference to the member's own end: a wait never exceeds the time spent in the operation.
        long ref = Math.min(referenceBegin, end[j]);
        long eEnd = Math.max(earliestEnd, ref);
        // compared before subtracting: the infinities must not overflow
        waitTime[j] = ref > begin[j] ? ref - begin[j] : 0;
        completion[j] = end[j] > eEnd ? end[j] - eEnd : 0;
    }

    private void ensure(int n) {
        if (begin.length < n) {
            begin = new long[n];
            end = new long[n];
            sent = new long[n];
            received = new long[n];
            location = new int[n];
            record = new int[n];
            path = new int[n];
            rank = new int[n];
            thread = new int[n];
            waitTime = new long[n];
            completion = new long[n];
            violation = new byte[n];
            flag = new boolean[n];
            participates = new boolean[n];
            sync = new boolean[n];
        }
    }
}
