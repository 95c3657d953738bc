package dev.straggler.patterns.rootcause;

import dev.straggler.trace.CollectiveOp;

import java.util.Arrays;

/**
 * How the members of one MPI collective instance synchronise, by Scalasca 2.6's rules
 * ({@code MpiCommunicationHandler::cb_pre_coll_*} and the {@code PRE_COLL_*} patterns): which members take part at
 * all (payload rules), which are synchronisation points, whose Begin the others wait for (the reference rank:
 * the latest Begin, or the root of a 1-to-N operation), each member's waiting and completion time, and the ranks
 * each synchronisation point synchronised with ({@code SynchpointHandler}). Ties of MAXLOC/MINLOC go to the lowest
 * communicator rank, as MPI defines them. Reused from instance to instance by one thread.
 */
final class CollectiveSync {
    /** The delay and critical-path kind of an operation; NONE for operations without root-cause semantics. */
    enum Kind { NONE, BARRIER, ONE_TO_N, N_TO_N, N_TO_ONE }

    Kind kind;
    int size;
    /** Reference (communicator rank): the latest rank for barrier, N×N and N-to-1, the root for 1-to-N. */
    int reference;
    long[] begin = new long[0];
    long[] end = new long[0];
    long[] sent = new long[0];
    long[] received = new long[0];
    boolean[] participates = new boolean[0];
    boolean[] sync = new boolean[0];
    long[] wait = new long[0];
    long[] completion = new long[0];

    static Kind kindOf(CollectiveOp op) {
        if (op == null) {
            return Kind.NONE;
        }
        return switch (op) {
            case BARRIER -> Kind.BARRIER;
            case BCAST, SCATTER, SCATTERV -> Kind.ONE_TO_N;
            case ALLGATHER, ALLGATHERV, ALLTOALL, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> Kind.N_TO_N;
            case GATHER, GATHERV, REDUCE -> Kind.N_TO_ONE;
            // Scan has no delay or critical-path rules; Alltoallv/w and Score-P 8's handle operations are ignored
            default -> Kind.NONE;
        };
    }

    void reset(int n, Kind k) {
        size = n;
        kind = k;
        reference = -1;
        if (begin.length < n) {
            begin = new long[n];
            end = new long[n];
            sent = new long[n];
            received = new long[n];
            participates = new boolean[n];
            sync = new boolean[n];
            wait = new long[n];
            completion = new long[n];
        }
        Arrays.fill(participates, 0, n, false);
        Arrays.fill(sync, 0, n, false);
        Arrays.fill(wait, 0, n, 0);
        Arrays.fill(completion, 0, n, 0);
    }

    /** Evaluates the loaded members ({@link #begin}, {@link #end}, bytes) with the given root (or -1). */
    void evaluate(int rootRank) {
        this.root = rootRank;
        if (size < 2) {
            return; // self-like communicators do not synchronise
        }
        switch (kind) {
            case BARRIER -> barrier();
            case ONE_TO_N -> oneToN(rootRank);
            case N_TO_N -> nToN();
            case N_TO_ONE -> nToOne(rootRank);
            default -> {
            }
        }
    }

    private void barrier() {
        int latest = 0;
        long earliestEnd = Long.MAX_VALUE;
        for (int j = 0; j < size; j++) {
            participates[j] = true;
            sync[j] = true;
            if (begin[j] > begin[latest]) {
                latest = j;
            }
            earliestEnd = Math.min(earliestEnd, end[j]);
        }
        reference = latest;
        for (int j = 0; j < size; j++) {
            settle(j, begin[latest], earliestEnd);
        }
    }

    private void oneToN(int root) {
        // MPI_Bcast of the root's bytes sent: without payload nobody takes part
        if (root < 0 || root >= size || sent[root] == 0) {
            return;
        }
        reference = root;
        long rootBegin = begin[root];
        long earliestEnd = Long.MAX_VALUE;
        for (int j = 0; j < size; j++) {
            participates[j] = true;
            if (received[j] > 0 && begin[j] < rootBegin) {
                sync[j] = true;
                earliestEnd = Math.min(earliestEnd, end[j]);
            }
        }
        if (earliestEnd < Long.MAX_VALUE) {
            sync[root] = true;
        }
        for (int j = 0; j < size; j++) {
            if (sync[j]) {
                settle(j, rootBegin, earliestEnd);
            }
        }
    }

    private void nToN() {
        int latest = -1;
        int earliest = -1;
        for (int j = 0; j < size; j++) {
            // a member without payload returns before the reductions and takes no part
            participates[j] = sent[j] != 0 || received[j] != 0;
            if (!participates[j]) {
                continue;
            }
            if (latest < 0 || begin[j] > begin[latest]) {
                latest = j;
            }
            if (earliest < 0 || end[j] < end[earliest]) {
                earliest = j;
            }
        }
        if (latest < 0) {
            return;
        }
        if (end[earliest] > begin[latest]) {
            // full overlap: every participant synchronises on the latest Begin
            reference = latest;
            for (int j = 0; j < size; j++) {
                if (participates[j]) {
                    sync[j] = true;
                    settle(j, begin[latest], end[earliest]);
                }
            }
            return;
        }
        // partial overlap: the latest Begin of the senders (non-senders contribute -max)
        int latestSender = -1;
        long latestTime = 0;
        for (int j = 0; j < size; j++) {
            if (!participates[j]) {
                continue;
            }
            long v = sent[j] > 0 ? begin[j] : Long.MIN_VALUE;
            if (latestSender < 0 || v > latestTime) {
                latestTime = v;
                latestSender = j;
            }
        }
        reference = latestSender;
        long earliestEnd = Long.MAX_VALUE;
        for (int j = 0; j < size; j++) {
            if (participates[j]) {
                sync[j] = (received[j] > 0 && begin[j] < latestTime) || (sent[j] > 0 && j == latestSender);
                if (sync[j]) {
                    earliestEnd = Math.min(earliestEnd, end[j]);
                }
            }
        }
        for (int j = 0; j < size; j++) {
            if (sync[j]) {
                settle(j, latestTime, earliestEnd);
            }
        }
    }

    private void nToOne(int root) {
        // MPI_Bcast of the root's bytes received: without payload nobody takes part
        if (root < 0 || root >= size || received[root] == 0) {
            return;
        }
        int latest = 0;
        long latestTime = 0;
        for (int j = 0; j < size; j++) {
            participates[j] = true;
            long v = sent[j] > 0 ? begin[j] : Long.MIN_VALUE;
            if (j == 0 || v > latestTime) {
                latestTime = v;
                latest = j;
            }
        }
        reference = latest;
        if (!(begin[root] < latestTime)) {
            return;
        }
        sync[root] = true;
        sync[latest] = true;
        long earliestEnd = Math.min(end[root], end[latest]);
        settle(root, latestTime, earliestEnd);
        if (latest != root) {
            settle(latest, latestTime, earliestEnd);
        }
    }

    /** Scalasca's clipped wait and completion of a synchronising member (reference §1.4). */
    private void settle(int j, long referenceBegin, long earliestEnd) {
        long ref = Math.min(referenceBegin, end[j]);
        long eEnd = Math.max(earliestEnd, ref);
        wait[j] = ref > begin[j] ? ref - begin[j] : 0;
        completion[j] = end[j] > eEnd ? end[j] - eEnd : 0;
    }

    /**
     * The communicator ranks a synchronising member synchronised with ({@code SynchpointHandler::cb_pre_coll_*});
     * null for "all members".
     */
    int[] syncPartners(int j) {
        switch (kind) {
            case BARRIER:
                return null;
            case ONE_TO_N: {
                if (j != reference) {
                    return new int[] {reference};
                }
                int n = 0;
                int[] r = new int[size];
                for (int k = 0; k < size; k++) {
                    if (k != reference && sync[k]) {
                        r[n++] = k;
                    }
                }
                return Arrays.copyOf(r, n);
            }
            case N_TO_N: {
                int n = 0;
                int[] r = new int[size];
                for (int k = 0; k < size; k++) {
                    if (sync[k]) {
                        r[n++] = k;
                    }
                }
                return Arrays.copyOf(r, n);
            }
            case N_TO_ONE:
                // the root synchronised with the latest sender and vice versa
                return new int[] {j == reference ? rootOf() : reference};
            default:
                return new int[0];
        }
    }

    private int root = -1;

    private int rootOf() {
        return root;
    }
}
