package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.trace.CollectiveOp;

/**
 * Wait at N x N ({@code mpi_wait_nxn}) and N x N Completion ({@code mpi_nxn_completion}), reference §1.4, for
 * MPI_Allgather(v), Alltoall, Allreduce and Reduce_scatter(_block). A member that neither sends nor receives data
 * is no synchronization point. If every member began before any ended (full overlap) all members synchronize on
 * the last Begin; otherwise the reference is the last Begin of a member that sends data, and only members that
 * receive data and began before it, plus that last sender, synchronize. Waits and completions then follow the
 * barrier formulas with the earliest End of the synchronizing members.
 */
final class WaitAtNxN extends CollectivePattern {
    @Override
    int waitMetric() {
        return MetricTree.MPI_WAIT_NXN;
    }

    @Override
    int completionMetric() {
        return MetricTree.MPI_NXN_COMPLETION;
    }

    @Override
    boolean appliesTo(CollectiveOp op) {
        return switch (op) {
            case ALLGATHER, ALLGATHERV, ALLTOALL, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> true;
            default -> false;
        };
    }

    private static boolean payload(CollectiveInstance c, int j) {
        return c.sent[j] != 0 || c.received[j] != 0;
    }

    @Override
    void evaluate(CollectiveInstance c) {
        int n = c.size;
        long latest = CollectiveInstance.NEG_INF;
        int latestRank = -1;
        long earliestEnd = CollectiveInstance.POS_INF;
        for (int j = 0; j < n; j++) {
            if (payload(c, j)) {
                // a member without payload returns before Scalasca's reductions: it takes no part
                c.participates[j] = true;
                if (latestRank < 0 || c.begin[j] > latest) {
                    latest = c.begin[j];
                    latestRank = j;
                }
                earliestEnd = Math.min(earliestEnd, c.end[j]);
            }
        }
        if (latestRank < 0) {
            return;
        }
        if (earliestEnd > latest) {
            // full overlap: everyone with payload synchronizes on the last Begin
            c.reference = latestRank;
            for (int j = 0; j < n; j++) {
                if (payload(c, j)) {
                    c.settle(j, latest, earliestEnd, ViolationKind.END_BEFORE_LATEST_BEGIN);
                }
            }
            return;
        }
        long latestSend = CollectiveInstance.NEG_INF;
        int latestSender = -1;
        for (int j = 0; j < n; j++) {
            if (payload(c, j)) {
                long v = c.sent[j] > 0 ? c.begin[j] : CollectiveInstance.NEG_INF;
                if (latestSender < 0 || v > latestSend) {
                    latestSend = v;
                    latestSender = j;
                }
            }
        }
        long syncEnd = CollectiveInstance.POS_INF;
        boolean[] sync = c.flag;
        for (int j = 0; j < n; j++) {
            if (payload(c, j)) {
                sync[j] = (c.received[j] > 0 && c.begin[j] < latestSend)
                        || (c.sent[j] > 0 && j == latestSender);
                if (sync[j]) {
                    syncEnd = Math.min(syncEnd, c.end[j]);
                }
            }
        }
        c.reference = latestSend == CollectiveInstance.NEG_INF ? -1 : latestSender;
        for (int j = 0; j < n; j++) {
            if (sync[j]) {
                c.settle(j, latestSend, syncEnd, ViolationKind.END_BEFORE_LATEST_BEGIN);
            }
        }
    }
}
