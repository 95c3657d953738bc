package dev.straggler.patterns.callsite;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.IntArrayList;

import java.util.List;

/**
 * Waiting time at collective synchronization, from the collective instances of every rank: the n-th collective of
 * a communicator on one rank is the n-th on every member. Per rank the reference time of its operation kind
 * (reference §1.4, SCOUT's MPI.pattern) minus its own begin, clipped to its own end:
 * <ul>
 *   <li>Barrier and N×N (Allgather[v], Alltoall, Allreduce, Reduce_scatter[_block]): the latest begin;</li>
 *   <li>1-to-N (Bcast, Scatter[v]), non-root ranks: the root's begin;</li>
 *   <li>N-to-1 (Reduce, Gather[v]), root only: the latest begin of the other ranks;</li>
 *   <li>Scan and Exscan: the latest begin of the lower ranks.</li>
 * </ul>
 * Not analysed, as in Scalasca: communicators of one rank, Alltoallv and Alltoallw (the trace lacks per-peer
 * counts) and the handle-management operations Score-P 8 records for MPI_Init, MPI_Comm_split and the like.
 */
final class CollectiveWaits {
    private CollectiveWaits() {
    }

    /**
     * @param scans       by rank (null where a rank has no scanned location)
     * @param waitTicks   output, [rank][local node] of {@code scans[rank]}
     * @param notes       receives a line per communicator whose ranks disagree on the number of collectives
     */
    static void compute(TraceDefinitions defs, LocationScan[] scans, long[][] waitTicks, List<String> notes) {
        for (Communicator c : defs.communicators()) {
            int n = c.size();
            if (n <= 1) {
                continue;
            }
            IntArrayList[] seq = new IntArrayList[n];
            int instances = Integer.MAX_VALUE;
            int most = 0;
            boolean complete = true;
            for (int i = 0; i < n; i++) {
                int r = c.members()[i];
                LocationScan s = r >= 0 && r < scans.length ? scans[r] : null;
                if (s == null) {
                    complete = false;
                    break;
                }
                seq[i] = new IntArrayList();
                for (int k = 0; k < s.collComm.size(); k++) {
                    if (s.collComm.getInt(k) == c.id()) {
                        seq[i].add(k);
                    }
                }
                instances = Math.min(instances, seq[i].size());
                most = Math.max(most, seq[i].size());
            }
            if (!complete) {
                notes.add("communicator " + c.id() + " (" + c.name() + "): a member rank was not scanned; its collectives are not matched");
                continue;
            }
            if (instances != most) {
                notes.add("communicator " + c.id() + " (" + c.name() + "): ranks recorded between " + instances + " and "
                        + most + " collectives; only the first " + instances + " are matched");
            }
            long[] begin = new long[n];
            long[] end = new long[n];
            int mismatched = 0;
            for (int k = 0; k < instances; k++) {
                LocationScan first = scans[c.members()[0]];
                int op = first.collOp.getInt(seq[0].getInt(k));
                boolean same = true;
                for (int i = 0; i < n; i++) {
                    LocationScan s = scans[c.members()[i]];
                    int idx = seq[i].getInt(k);
                    same &= s.collOp.getInt(idx) == op;
                    begin[i] = s.collBegin.getLong(idx);
                    end[i] = s.collEnd.getLong(idx);
                }
                if (!same) {
                    mismatched++;
                    continue;
                }
                int root = first.collRoot.getInt(seq[0].getInt(k));
                for (int i = 0; i < n; i++) {
                    long ref = reference(op, i, root, begin, n);
                    if (ref == Long.MIN_VALUE) {
                        continue;
                    }
                    long idle = Math.max(0, Math.min(ref, end[i]) - begin[i]);
                    if (idle > 0) {
                        int r = c.members()[i];
                        int node = scans[r].collNode.getInt(seq[i].getInt(k));
                        waitTicks[r][node] += idle;
                    }
                }
            }
            if (mismatched > 0) {
                notes.add("communicator " + c.id() + " (" + c.name() + "): " + mismatched
                        + " collective instances where ranks recorded different operations were skipped");
            }
        }
    }

    /** The time member {@code i} waits for; {@link Long#MIN_VALUE} when it waits for nothing in this operation. */
    private static long reference(int opCode, int i, int root, long[] begin, int n) {
        if (!CollectiveOp.isValidCode(opCode)) {
            return Long.MIN_VALUE;
        }
        switch (CollectiveOp.of(opCode)) {
            case BARRIER, ALLGATHER, ALLGATHERV, ALLTOALL, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> {
                return max(begin, 0, n, -1);
            }
            case BCAST, SCATTER, SCATTERV -> {
                return root < 0 || root >= n || i == root ? Long.MIN_VALUE : begin[root];
            }
            case REDUCE, GATHER, GATHERV -> {
                return root < 0 || root >= n || i != root ? Long.MIN_VALUE : max(begin, 0, n, root);
            }
            case SCAN, EXSCAN -> {
                return i == 0 ? Long.MIN_VALUE : max(begin, 0, i, -1);
            }
            default -> {
                return Long.MIN_VALUE;
            }
        }
    }

    private static long max(long[] a, int from, int to, int skip) {
        long m = Long.MIN_VALUE;
        for (int i = from; i < to; i++) {
            if (i != skip) {
                m = Math.max(m, a[i]);
            }
        }
        return m;
    }
}
