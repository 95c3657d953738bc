package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.trace.CollectiveOp;

/**
 * Early Reduce ({@code mpi_earlyreduce}), reference §1.4, for MPI_Reduce, Gather and Gatherv: the root waits
 * {@code max(0, min(latest, End_root) − Begin_root)} where {@code latest} is the last Begin of a member that
 * sends data, provided the root began before it. Only the root and that last sender synchronize; only the root
 * can wait. Nothing happens when the root receives no data.
 */
final class EarlyReduce extends CollectivePattern {
    @Override
    int waitMetric() {
        return MetricTree.MPI_EARLYREDUCE;
    }

    @Override
    boolean appliesTo(CollectiveOp op) {
        return op == CollectiveOp.REDUCE || op == CollectiveOp.GATHER || op == CollectiveOp.GATHERV;
    }

    @Override
    void evaluate(CollectiveInstance c) {
        int root = c.root;
        if (root < 0 || root >= c.size || c.received[root] == 0) {
            return;
        }
        long latest = CollectiveInstance.NEG_INF;
        int latestSender = 0;
        for (int j = 0; j < c.size; j++) {
            c.participates[j] = true;
            long v = c.sent[j] > 0 ? c.begin[j] : CollectiveInstance.NEG_INF;
            if (j == 0 || v > latest) {
                latest = v;
                latestSender = j;
            }
        }
        if (!(c.begin[root] < latest)) {
            return;
        }
        long earliestEnd = Math.min(c.end[root], c.end[latestSender]);
        c.reference = latestSender;
        c.settle(root, latest, earliestEnd, ViolationKind.END_BEFORE_LATEST_BEGIN);
        if (latestSender != root) {
            c.settle(latestSender, latest, earliestEnd, ViolationKind.END_BEFORE_LATEST_BEGIN);
        }
        // the N-to-1 completion is no metric, but the root-cause stage needs it (SynchpointHandler)
    }
}
