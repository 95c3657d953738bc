package dev.straggler.testdata.scenario;

import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;

import java.util.Arrays;
import java.util.List;

/**
 * Closed-form pieces shared by the scenarios: the MPI_Init / MPI_Finalize frame of every program, and one
 * collective call (when each member leaves it, and the wait states Scalasca attributes to it), both from the
 * simulator's cost model ({@link NetworkModel}, {@link MpiCall.Sync}) and {@link ScalascaRules}.
 */
final class ClosedForm {
    static final List<String> INIT = List.of("main", "MPI_Init");
    static final List<String> FINALIZE = List.of("main", "MPI_Finalize");

    private ClosedForm() {
    }

    /**
     * Every rank enters MPI_Init at 0; Init ends like a barrier. Records Initialization Completion and returns, per
     * rank, the true time it leaves MPI_Init.
     */
    static long[] init(Params p, ExpectedBuilder e) {
        return init(p, e, INIT);
    }

    /** {@link #init(Params, ExpectedBuilder)} with the call path of MPI_Init (or MPI_Init_thread). */
    static long[] init(Params p, ExpectedBuilder e, List<String> path) {
        int n = p.ranks();
        NetworkModel net = p.network();
        long cost = net.collectiveCost(MpiCall.INIT, 0, n);
        long[] clock = new long[n];
        long[] enter = new long[n];
        long[] leave = new long[n];
        long[] completion = new long[n];
        for (int i = 0; i < n; i++) {
            clock[i] = cost + net.exitDelay(i);
            enter[i] = e.obs(i, 0);
            leave[i] = e.obs(i, clock[i]);
        }
        ScalascaRules.initCompletion(enter, leave, completion);
        for (int i = 0; i < n; i++) {
            e.add(Metrics.INIT_COMPLETION, path, i, completion[i]);
        }
        return clock;
    }

    /**
     * MPI_Finalize entered at {@code clock[i]}; ends like a barrier. Records Wait at Finalize and returns, per rank,
     * the true time it leaves MPI_Finalize.
     */
    static long[] finalize(Params p, ExpectedBuilder e, long[] clock) {
        int n = p.ranks();
        NetworkModel net = p.network();
        long dep = ScalascaRules.max(clock);
        long cost = net.collectiveCost(MpiCall.FINALIZE, 0, n);
        long[] enter = new long[n];
        long[] leave = new long[n];
        long[] wait = new long[n];
        long[] left = new long[n];
        for (int i = 0; i < n; i++) {
            left[i] = dep + cost + net.exitDelay(i);
            enter[i] = e.obs(i, clock[i]);
            leave[i] = e.obs(i, left[i]);
        }
        ScalascaRules.finalizeWait(enter, leave, wait);
        for (int i = 0; i < n; i++) {
            e.add(Metrics.FINALIZE_WAIT, FINALIZE, i, wait[i]);
        }
        return left;
    }

    /** MPI_Comm_split on MPI_COMM_WORLD entered at {@code clock[i]}: advances the clocks; no wait state. */
    static void splitWorld(Params p, long[] clock) {
        collective(p, null, MpiCall.COMM_SPLIT, identity(p.ranks()), clock, 0, -1, null);
    }

    /**
     * One collective on the communicator {@code members} (global ranks in communicator-rank order), entered by
     * member j at {@code clock[members[j]]}: advances those clocks to when each member leaves and, unless
     * {@code e} is null, records the wait states Scalasca finds at {@code path}.
     *
     * @param n per-rank payload in bytes (Alltoallv: each rank's total sent and received)
     */
    static void collective(Params p, ExpectedBuilder e, MpiCall call, int[] members, long[] clock, long n, int root,
                           List<String> path) {
        NetworkModel net = p.network();
        int size = members.length;
        long cost = net.collectiveCost(call, n, size);
        long[] begin = new long[size];
        long latest = Long.MIN_VALUE;
        for (int j = 0; j < size; j++) {
            begin[j] = clock[members[j]];
            latest = Math.max(latest, begin[j]);
        }
        long[] ob = new long[size];
        long[] oe = new long[size];
        long[] sent = new long[size];
        long[] recv = new long[size];
        long prefix = Long.MIN_VALUE;
        for (int j = 0; j < size; j++) {
            prefix = Math.max(prefix, begin[j]);
            long dep = switch (call.sync()) {
                case ALL -> latest;
                case ONE_TO_ALL -> j == root ? begin[root] : Math.max(begin[j], begin[root]);
                case ALL_TO_ONE -> j == root ? latest : begin[j];
                case PREFIX -> prefix;
            };
            long end = dep + cost + net.exitDelay(j);
            clock[members[j]] = end;
            if (e != null) {
                ob[j] = e.obs(members[j], begin[j]);
                oe[j] = e.obs(members[j], end);
                long[] sr = call.scorepBytes(n, n, size, j, root);
                sent[j] = sr[0];
                recv[j] = sr[1];
            }
        }
        if (e == null) {
            return;
        }
        long[] wait = new long[size];
        long[] completion = new long[size];
        String waitMetric = null;
        String completionMetric = null;
        switch (call) {
            case BARRIER -> {
                ScalascaRules.barrier(ob, oe, wait, completion);
                waitMetric = Metrics.BARRIER_WAIT;
                completionMetric = Metrics.BARRIER_COMPLETION;
            }
            case ALLREDUCE, ALLGATHER, ALLTOALL -> {
                ScalascaRules.nxn(ob, oe, sent, recv, wait, completion);
                waitMetric = Metrics.WAIT_NXN;
                completionMetric = Metrics.NXN_COMPLETION;
            }
            case BCAST, SCATTER -> {
                ScalascaRules.oneToN(ob, oe, root, sent[root], recv, wait);
                waitMetric = Metrics.LATE_BROADCAST;
            }
            case GATHER, REDUCE -> {
                ScalascaRules.nToOne(ob, oe, root, sent, recv[root], wait);
                waitMetric = Metrics.EARLY_REDUCE;
            }
            case SCAN -> {
                ScalascaRules.scan(ob, oe, sent, recv, wait);
                waitMetric = Metrics.EARLY_SCAN;
            }
            default -> {
                // Alltoallv and communicator management: Scalasca computes no wait state (reference §1.4)
            }
        }
        for (int j = 0; j < size; j++) {
            if (waitMetric != null) {
                e.add(waitMetric, path, members[j], wait[j]);
            }
            if (completionMetric != null) {
                e.add(completionMetric, path, members[j], completion[j]);
            }
        }
    }

    static int[] identity(int n) {
        int[] r = new int[n];
        Arrays.setAll(r, i -> i);
        return r;
    }
}
