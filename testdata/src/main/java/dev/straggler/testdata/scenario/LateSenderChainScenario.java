package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;

/**
 * A Late Sender chain 0 → 1 → … → p−1, once. Rank k works {@code base + k·ramp} s in {@code work}; rank 0 then
 * works {@code delay} s more in {@code imbalanced_work} and sends to rank 1; rank k ≥ 1 receives from k − 1
 * (MPI_Recv), works {@code relay} s in {@code relay_work} and, unless it is the last rank, sends to k + 1
 * (MPI_Send, 0 bytes). The ramp makes each receiver ready a little later than its sender was, so that part of
 * what a sender's wait state passes on is absorbed.
 *
 * <h2>Closed form</h2>
 * Ideal network of {@link RootCauseScenario}; b = base, δ = delay, ε = relay, β = ramp; everything starts at 0.
 * <ul>
 *   <li>Sends: rank 0 sends at S₀ = b + δ; rank k receives at S_{k−1} and sends at S_k = S_{k−1} + ε, so
 *   S_k = b + δ + kε; every rank k ≥ 1 enters MPI_Finalize at S_k, rank 0 at S₀.</li>
 *   <li>Late Sender at rank k ≥ 1 (MPI_Recv entered at b + kβ): w_k = S_{k−1} − (b + kβ)
 *   = δ + (k−1)ε − kβ (positive for δ &gt; β, ε ≥ β).</li>
 *   <li>Synchronisation points (Scalasca's SynchpointHandler): each Late Sender receive (partner k − 1), each send
 *   whose receive is a Late Sender (partner k + 1), MPI_Init and MPI_Finalize (all). For the wait at k, the
 *   previous point rank k shares with k − 1, and rank k − 1 with k, is MPI_Init, so the interval runs from
 *   MPI_Init to the receive (rank k) and to the send (rank k − 1). Time maps (MPI_Init takes no time; the
 *   receive of k − 1 lies inside, its wait w_{k−1} pruned, and it lasts exactly that wait):
 *   rank k: {work: b + kβ}; rank k − 1: {work: b + (k−1)β, relay_work: ε} (rank 0: imbalanced_work: δ).</li>
 *   <li>Delay (positive differences): work b + (k−1)β − (b + kβ) &lt; 0 drops out, so d_k = ε at rank k − 1's
 *   relay_work (d₁ = δ at rank 0's imbalanced_work); the waiting in the interval is w_{k−1} (w₀ = 0). With
 *   D_k = d_k + w_{k−1} = w_k + β the scale of the rule is s_k = min(w_k / D_k, 1) = w_k / (w_k + β).</li>
 *   <li>Short-term ({@code delay_latesender}): d_k · s_k on rank k − 1 — rank 0's imbalanced_work gets
 *   δ · (δ − β) / δ = δ − β, rank k − 1 ≥ 1 its relay_work ε · w_k / (w_k + β). The last rank's relay_work
 *   causes no Late Sender.</li>
 *   <li>Indirect ({@code mpi_wait_indirect_latesender}, handed from the send to its receive): s_k · w_{k−1} at
 *   rank k's MPI_Recv; direct = w_k − s_k · w_{k−1} = s_k · ε for k ≥ 2, all of w₁ at rank 1.</li>
 *   <li>Propagating ({@code mpi_wait_propagating_ls}: the largest s · wait over the later wait states whose
 *   interval holds it): the wait of rank k lies only in the interval of the wait at k + 1, so propagating
 *   = s_{k+1} · w_k for k ≤ p − 2, 0 for the last rank; terminal = w_k − propagating.</li>
 *   <li>Long-term ({@code delay_latesender_longterm}): the wait at k carries the Late Sender costs C_k it caused
 *   further down the chain (C_{p−1} = 0). Processing it charges C_k / D_k · d_k to rank k − 1's delay and
 *   C_{k−1} = (s_k + C_k / D_k) · w_{k−1} to the wait of rank k − 1 ({@code DelayCostMap.addCosts}). For β = 0
 *   every s_k is 1, C_k = (p−1−k) · w_k, and rank j's relay_work gets (p−2−j) · ε, rank 0's imbalanced_work
 *   (p−2) · δ: every second of waiting is charged to exactly one delay.</li>
 *   <li>Critical path: it starts on the rank entering MPI_Finalize last, p − 1 (S_{p−1}), books its relay_work ε
 *   (its MPI_Recv lasts exactly its wait), moves to the sender at each Late Sender, books each relay_work ε,
 *   and on rank 0 books work b and imbalanced_work δ back to MPI_Init. So critical_path = b and δ on rank 0, ε
 *   at relay_work on every rank k ≥ 1, nothing else (no other rank's work); in all S_{p−1} = b + δ + (p−1)ε, the
 *   time the last rank enters MPI_Finalize.</li>
 * </ul>
 * With the defaults (b = 10 ms, δ = 40 ms, ε = 10 ms, β = 5 ms) on 4 ranks: w = 35, 40, 45 ms, D = 40, 45, 50 ms.
 */
final class LateSenderChainScenario extends RootCauseScenario {
    private static final int TAG = 7;
    static final String WORK = "work";
    static final String IMBALANCED = "imbalanced_work";
    static final String RELAY = "relay_work";

    LateSenderChainScenario() {
        super("late-sender-chain",
                "rank 0 works 'delay' longer, then a Late Sender chain 0 -> 1 -> ... -> p-1 with 'relay' work between receive and send: short- vs long-term delay, direct vs indirect and propagating vs terminal waiting, critical path along the chain",
                List.of(new ParamSpec("base", "0.01", "work of rank 0 before the chain, s"),
                        new ParamSpec("ramp", "0.005", "additional work per rank number (rank k works base + k*ramp), s"),
                        new ParamSpec("delay", "0.04", "rank 0's imbalanced_work before it sends, s (more than ramp)"),
                        new ParamSpec("relay", "0.01", "relay_work of every rank between its receive and its send, s (at least ramp, positive)")));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        long ramp = p.duration("ramp");
        p.duration("base");
        if (p.duration("delay") <= ramp) {
            throw p.bad("delay", "must be more than ramp, so that rank 1 waits");
        }
        long relay = p.duration("relay");
        if (relay < ramp || relay == 0) {
            throw p.bad("relay", "must be positive and at least ramp, so that every receiver waits");
        }
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("chain.c");
        long base = p.duration("base");
        long ramp = p.duration("ramp");
        long delay = p.duration("delay");
        long relay = p.duration("relay");
        Node first = b.seq(b.call(IMBALANCED, 30, b.compute(delay)), b.send(Program.WORLD, c -> 1, TAG, c -> 0L));
        Node next = b.seq(
                b.recv(Program.WORLD, c -> c.rank() - 1, TAG),
                b.call(RELAY, 40, b.compute(relay)),
                b.when(c -> c.rank() + 1 < c.size(), b.send(Program.WORLD, c -> c.rank() + 1, TAG, c -> 0L)));
        return b.program("main", 10,
                b.call(WORK, 20, b.compute(c -> base + c.rank() * ramp)),
                b.when(c -> c.rank() == 0, first, next));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, long[] clock) {
        NetworkModel net = p.network();
        long base = p.duration("base");
        long ramp = p.duration("ramp");
        List<String> sendPath = path(MpiCall.SEND.regionName());
        List<String> recvPath = path(MpiCall.RECV.regionName());
        int n = p.ranks();
        for (int k = 0; k < n; k++) {
            clock[k] += base + k * ramp;
        }
        clock[0] += p.duration("delay");
        for (int k = 1; k < n; k++) {
            long t = clock[k - 1];
            long r = clock[k];
            long[] l = MessageModel.blocking(net, MpiCall.SEND, 0, t, r);
            e.receives(k).receive(recvPath, k - 1, e.obs(k - 1, t),
                    ScalascaRules.lateSender(e.obs(k - 1, t), e.obs(k, r), e.obs(k, l[1])));
            e.add(Metrics.LATE_RECEIVER, sendPath, k - 1,
                    ScalascaRules.lateReceiver(e.obs(k - 1, t), e.obs(k - 1, l[0]), e.obs(k, r)));
            clock[k - 1] = l[0];
            clock[k] = l[1] + p.duration("relay");
        }
    }

    @Override
    protected List<String> rootCauseMetrics() {
        return metrics(Metrics.DELAY_COSTS, Metrics.WAIT_CLASSES, List.of(Metrics.CRITICAL_PATH));
    }

    /** w_k = δ + (k−1)ε − kβ, the Late Sender at rank k ≥ 1 (ticks). */
    static double wait(Params p, int k) {
        return p.duration("delay") + (k - 1.0) * p.duration("relay") - k * (double) p.duration("ramp");
    }

    @Override
    protected void rootCauses(Params p, ExpectedBuilder e) {
        int n = p.ranks();
        double delta = p.duration("delay");
        double eps = p.duration("relay");
        List<String> recv = path(MpiCall.RECV.regionName());
        double carried = 0; // C_k, starting with C_{p−1} = 0
        for (int k = n - 1; k >= 1; k--) {
            double w = wait(p, k);
            double d = k == 1 ? delta : eps;
            double before = k == 1 ? 0 : wait(p, k - 1);
            double scale = Math.min(w / (d + before), 1);
            List<String> delayPath = path(k == 1 ? IMBALANCED : RELAY);
            e.addShare(Metrics.DELAY_LATESENDER, delayPath, k - 1, d * scale);
            e.addShare(Metrics.DELAY_LATESENDER_LONGTERM, delayPath, k - 1, d * carried / (d + before));
            e.addShare(Metrics.INDIRECT_LS, recv, k, scale * before);
            e.addShare(Metrics.DIRECT_LS, recv, k, w - scale * before);
            e.addShare(Metrics.PROPAGATING_LS, recv, k - 1, scale * before);
            e.addShare(Metrics.TERMINAL_LS, recv, k - 1, before - scale * before);
            carried = (scale + carried / (d + before)) * before;
        }
        e.addShare(Metrics.TERMINAL_LS, recv, n - 1, wait(p, n - 1));
        // the critical path: rank 0 up to its send, then each relay_work along the chain
        e.addShare(Metrics.CRITICAL_PATH, path(WORK), 0, p.duration("base"));
        e.addShare(Metrics.CRITICAL_PATH, path(IMBALANCED), 0, delta);
        for (int k = 1; k < n; k++) {
            e.addShare(Metrics.CRITICAL_PATH, path(RELAY), k, eps);
        }
    }
}
