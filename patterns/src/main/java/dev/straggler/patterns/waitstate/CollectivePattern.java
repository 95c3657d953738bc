package dev.straggler.patterns.waitstate;

import dev.straggler.trace.CollectiveOp;

/**
 * A wait-state pattern of MPI collective operations (reference §1.4): computes, for every member of one
 * operation, its waiting time (and completion time where the pattern has one) from the members' Begin/End
 * timestamps and byte counts, exactly as Scalasca's MAXLOC/MINLOC reductions do (ties go to the lowest
 * communicator rank). Collectives on communicators of size 1, MPI_Alltoallv/w and the communicator/window
 * management operations Score-P 8 records are not analysed.
 */
abstract class CollectivePattern {
    /** Metric of the waiting time. */
    abstract int waitMetric();

    /** Metric of the completion time, -1 when the pattern has none. */
    int completionMetric() {
        return -1;
    }

    abstract boolean appliesTo(CollectiveOp op);

    /** Fills the instance's per-member outcome. */
    abstract void evaluate(CollectiveInstance c);

    private static final CollectivePattern[] ALL = {
            new WaitAtBarrier(), new WaitAtNxN(), new LateBroadcast(), new EarlyReduce(), new EarlyScan()};

    /** The pattern analysing an operation, null when none does. */
    static CollectivePattern forOp(CollectiveOp op) {
        if (op == null) {
            return null;
        }
        for (CollectivePattern p : ALL) {
            if (p.appliesTo(op)) {
                return p;
            }
        }
        return null;
    }

    /** Index of the member with the largest value (lowest index among equals), as MPI_MAXLOC. */
    static int maxLoc(long[] v, int n) {
        int best = 0;
        for (int j = 1; j < n; j++) {
            if (v[j] > v[best]) {
                best = j;
            }
        }
        return best;
    }
}
