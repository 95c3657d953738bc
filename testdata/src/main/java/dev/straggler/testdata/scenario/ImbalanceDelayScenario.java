package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Computational imbalance as the root cause of wait states. Every rank repeats {@code iteration} {@code reps}
 * times: {@code balanced_work} ({@code balanced} s on every rank), {@code imbalanced_work} ({@code work} s; the
 * rank {@code slow}: {@code work + delta} s), then one synchronisation: MPI_Barrier, MPI_Allreduce of {@code bytes}
 * per rank, or the slow rank sends a 0-byte message to every other rank in rank order (MPI_Send), which each
 * receives (MPI_Recv).
 *
 * <p>Closed form, for p ranks, slow rank s and the ideal network of {@link RootCauseScenario} (δ = delta):
 * <ul>
 *   <li>Wait states. Every repetition starts on all ranks at once (the previous synchronisation, or MPI_Init, left
 *   them together); rank j ≠ s enters the synchronisation after balanced + work, s δ later, and the collective
 *   ends (the message arrives) when s enters. So every j ≠ s waits δ per repetition: Wait at Barrier, Wait at N×N
 *   or Late Sender, reps·δ in all at [main, iteration, call].</li>
 *   <li>Synchronisation interval (Scalasca's {@code findPreviousMpiSynchpoint} / {@code
 *   findPreviousMpiGroupSynchpoints}): from the previous point the waiting rank and s share (the previous
 *   repetition's collective or MPI_Init; for the messages the previous send to / receive from the same partner)
 *   to the current one. The previous point's call falls into the interval but is pruned by its time minus its
 *   completion time ({@code PruneDelayTimemap}); the completion is 0 as all partners leave together. The time maps
 *   are then j: {balanced_work: balanced, imbalanced_work: work}, s: {balanced_work: balanced, imbalanced_work:
 *   work + δ}.</li>
 *   <li>Delay (positive per-call-path difference s − j, {@code CalculateDiff}): δ at imbalanced_work, sum d = δ.
 *   s waits nowhere, so the waiting in its interval is w = 0.</li>
 *   <li>Short-term cost, per waiting rank: δ · min(δ / (d + w), 1) = δ for the Late Sender ({@code
 *   DELAY_LATESENDER}); δ · δ / (d + propagated wait) = δ for the collectives ({@code CalculateCollectiveDelay},
 *   summed over the waiting ranks on s). So {@code delay_barrier} / {@code delay_n2n} / {@code delay_latesender}
 *   at [main, iteration, imbalanced_work] on s = reps · (p − 1) · δ, and 0 at every other call path and rank,
 *   balanced_work included.</li>
 *   <li>No interval holds a wait state of s: long-term costs, indirect and propagating waiting are 0; every Late
 *   Sender wait is direct and terminal (reps·δ at each receiver's MPI_Recv).</li>
 * </ul>
 */
final class ImbalanceDelayScenario extends RootCauseScenario {
    /** How the ranks synchronise after the imbalanced work. */
    enum Sync { BARRIER, ALLREDUCE, SENDS }

    private static final int TAG = 11;
    static final String BALANCED = "balanced_work";
    static final String IMBALANCED = "imbalanced_work";
    private static final String ITERATION = "iteration";

    private final Sync sync;

    ImbalanceDelayScenario(String name, String description, Sync sync) {
        super(name, description, params(sync));
        this.sync = sync;
    }

    private static List<ParamSpec> params(Sync sync) {
        List<ParamSpec> l = new ArrayList<>(List.of(
                new ParamSpec("reps", "3", "repetitions of iteration"),
                new ParamSpec("balanced", "0.01", "balanced_work of every rank per repetition, s"),
                new ParamSpec("work", "0.01", "imbalanced_work of every rank but the slow one per repetition, s"),
                new ParamSpec("delta", "0.02", "the slow rank's extra imbalanced_work per repetition, s"),
                new ParamSpec("slow", "1", "the slow rank")));
        if (sync == Sync.ALLREDUCE) {
            l.add(new ParamSpec("bytes", "8", "MPI_Allreduce payload per rank, bytes (at least 1: Scalasca needs data to synchronise)"));
        }
        return l;
    }

    private MpiCall call() {
        return switch (sync) {
            case BARRIER -> MpiCall.BARRIER;
            case ALLREDUCE -> MpiCall.ALLREDUCE;
            case SENDS -> MpiCall.SEND;
        };
    }

    private long bytes(Params p) {
        return sync == Sync.ALLREDUCE ? p.integer("bytes") : 0;
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        rank(p, "slow");
        p.count("reps", 0, 1_000_000);
        p.duration("balanced");
        p.duration("work");
        p.positiveDuration("delta");
        if (sync == Sync.ALLREDUCE && p.integer("bytes") < 1) {
            throw p.bad("bytes", "must be at least 1");
        }
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("imbalance.c");
        int slow = rank(p, "slow");
        long balanced = p.duration("balanced");
        long work = p.duration("work");
        long delta = p.duration("delta");
        long n = bytes(p);
        Node op = switch (sync) {
            case BARRIER -> b.barrier(Program.WORLD);
            case ALLREDUCE -> b.allreduce(Program.WORLD, c -> n);
            case SENDS -> b.when(c -> c.rank() == slow,
                    b.loop(c -> c.size() - 1, b.send(Program.WORLD, c -> peer(c.iteration(1), slow), TAG, c -> 0L)),
                    b.recv(Program.WORLD, c -> slow, TAG));
        };
        Node body = b.call(ITERATION, 20,
                b.call(BALANCED, 30, b.compute(balanced)),
                b.call(IMBALANCED, 40, b.compute(c -> work + (c.rank() == slow ? delta : 0))),
                op);
        return b.program("main", 10, b.loop(p.count("reps", 0, 1_000_000), body));
    }

    /** The i-th receiver of the slow rank's messages: every other rank in rank order. */
    private static int peer(int i, int slow) {
        return i < slow ? i : i + 1;
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, long[] clock) {
        int n = p.ranks();
        int slow = rank(p, "slow");
        long balanced = p.duration("balanced");
        long work = p.duration("work");
        long delta = p.duration("delta");
        NetworkModel net = p.network();
        List<String> at = path(ITERATION, call().regionName());
        List<String> recvPath = path(ITERATION, MpiCall.RECV.regionName());
        for (int rep = 0; rep < p.count("reps", 0, 1_000_000); rep++) {
            for (int i = 0; i < n; i++) {
                clock[i] += balanced + work + (i == slow ? delta : 0);
            }
            if (sync != Sync.SENDS) {
                ClosedForm.collective(p, e, call(), ClosedForm.identity(n), clock, bytes(p), -1, at);
                continue;
            }
            long t = clock[slow];
            for (int i = 0; i < n - 1; i++) {
                int j = peer(i, slow);
                long r = clock[j];
                long[] l = MessageModel.blocking(net, MpiCall.SEND, 0, t, r);
                e.receives(j).receive(recvPath, slow, e.obs(slow, t),
                        ScalascaRules.lateSender(e.obs(slow, t), e.obs(j, r), e.obs(j, l[1])));
                e.add(Metrics.LATE_RECEIVER, at, slow,
                        ScalascaRules.lateReceiver(e.obs(slow, t), e.obs(slow, l[0]), e.obs(j, r)));
                clock[j] = l[1];
                t = l[0];
            }
            clock[slow] = t;
        }
    }

    @Override
    protected List<String> rootCauseMetrics() {
        return metrics(Metrics.DELAY_COSTS, Metrics.WAIT_CLASSES);
    }

    @Override
    protected void rootCauses(Params p, ExpectedBuilder e) {
        int n = p.ranks();
        int slow = rank(p, "slow");
        int reps = p.count("reps", 0, 1_000_000);
        double delta = p.duration("delta");
        String delay = switch (sync) {
            case BARRIER -> Metrics.DELAY_BARRIER;
            case ALLREDUCE -> Metrics.DELAY_N2N;
            case SENDS -> Metrics.DELAY_LATESENDER;
        };
        // each of the p − 1 waiting ranks charges its δ per repetition to the slow rank's imbalanced_work
        e.addShare(delay, path(ITERATION, IMBALANCED), slow, (double) reps * (n - 1) * delta);
        if (sync == Sync.SENDS) {
            List<String> recv = path(ITERATION, MpiCall.RECV.regionName());
            for (int j = 0; j < n; j++) {
                if (j != slow) {
                    // no wait state of the slow rank lies before a send: direct and terminal
                    e.addShare(Metrics.DIRECT_LS, recv, j, reps * delta);
                    e.addShare(Metrics.TERMINAL_LS, recv, j, reps * delta);
                }
            }
        }
    }
}
