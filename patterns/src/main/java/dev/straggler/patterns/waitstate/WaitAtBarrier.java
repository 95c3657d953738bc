package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.trace.CollectiveOp;

/**
 * Wait at Barrier ({@code mpi_barrier_wait}) and Barrier Completion ({@code mpi_barrier_completion}),
 * reference §1.4. Every member synchronizes. With {@code latest} the last Begin and {@code earliestEnd} the
 * first End over all members, member j waits {@code max(0, min(latest, End_j) − Begin_j)} and needs
 * {@code max(0, End_j − max(earliestEnd, min(latest, End_j)))} to complete. An End before {@code latest} is a
 * clock violation.
 */
final class WaitAtBarrier extends CollectivePattern {
    @Override
    int waitMetric() {
        return MetricTree.MPI_BARRIER_WAIT;
    }

    @Override
    int completionMetric() {
        return MetricTree.MPI_BARRIER_COMPLETION;
    }

    @Override
    boolean appliesTo(CollectiveOp op) {
        return op == CollectiveOp.BARRIER;
    }

    @Override
    void evaluate(CollectiveInstance c) {
        int latest = maxLoc(c.begin, c.size);
        long earliestEnd = CollectiveInstance.POS_INF;
        for (int j = 0; j < c.size; j++) {
            earliestEnd = Math.min(earliestEnd, c.end[j]);
        }
        c.reference = latest;
        for (int j = 0; j < c.size; j++) {
            c.participates[j] = true;
            c.settle(j, c.begin[latest], earliestEnd, ViolationKind.END_BEFORE_LATEST_BEGIN);
        }
    }
}
