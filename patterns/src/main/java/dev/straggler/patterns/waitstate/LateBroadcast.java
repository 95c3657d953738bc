package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.trace.CollectiveOp;

/**
 * Late Broadcast ({@code mpi_latebroadcast}), reference §1.4, for MPI_Bcast, Scatter and Scatterv: a member that
 * receives data and begins before the root waits {@code max(0, min(Begin_root, End_j) − Begin_j)}. Nothing
 * happens when the root sends no data. An End before the root's Begin is a clock violation.
 */
final class LateBroadcast extends CollectivePattern {
    @Override
    int waitMetric() {
        return MetricTree.MPI_LATEBROADCAST;
    }

    @Override
    boolean appliesTo(CollectiveOp op) {
        return op == CollectiveOp.BCAST || op == CollectiveOp.SCATTER || op == CollectiveOp.SCATTERV;
    }

    @Override
    void evaluate(CollectiveInstance c) {
        int root = c.root;
        if (root < 0 || root >= c.size || c.sent[root] == 0) {
            return;
        }
        long rootBegin = c.begin[root];
        long earliestEnd = CollectiveInstance.POS_INF;
        boolean[] waits = c.flag;
        for (int j = 0; j < c.size; j++) {
            c.participates[j] = true;
            waits[j] = c.received[j] > 0 && c.begin[j] < rootBegin;
            if (waits[j]) {
                earliestEnd = Math.min(earliestEnd, c.end[j]);
            }
        }
        c.reference = root;
        for (int j = 0; j < c.size; j++) {
            if (waits[j] || (j == root && earliestEnd < CollectiveInstance.POS_INF)) {
                // the 1-to-N completion is no metric, but the root-cause stage needs it (SynchpointHandler)
                c.settle(j, rootBegin, earliestEnd, ViolationKind.END_BEFORE_ROOT_BEGIN);
            }
        }
    }
}
