package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.trace.CollectiveOp;

/**
 * Early Scan ({@code mpi_earlyscan}), reference §1.4, for MPI_Scan and MPI_Exscan: member n waits
 * {@code max(0, min(latest_n, End_n) − Begin_n)} where {@code latest_n} is the last Begin among the members
 * 0..n that send data (an inclusive prefix maximum). A member with no payload at all takes no part.
 */
final class EarlyScan extends CollectivePattern {
    @Override
    int waitMetric() {
        return MetricTree.MPI_EARLYSCAN;
    }

    @Override
    boolean appliesTo(CollectiveOp op) {
        return op == CollectiveOp.SCAN || op == CollectiveOp.EXSCAN;
    }

    @Override
    void evaluate(CollectiveInstance c) {
        long latest = CollectiveInstance.NEG_INF;
        int latestRank = -1;
        for (int j = 0; j < c.size; j++) {
            if (c.sent[j] == 0 && c.received[j] == 0) {
                continue;
            }
            long v = c.sent[j] > 0 ? c.begin[j] : CollectiveInstance.NEG_INF;
            if (latestRank < 0 || v > latest) {
                latest = v;
                latestRank = j;
            }
            if (c.begin[j] < latest) {
                c.settle(j, latest, CollectiveInstance.POS_INF, ViolationKind.END_BEFORE_LATEST_BEGIN);
                c.completion[j] = 0;
                c.reference = latestRank;
            }
        }
    }
}
