package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;

/**
 * A producer and its consumers running different routines, joined by point-to-point messages only. Rank 0
 * repeats {@code reps} times, for each consumer k = 1 … p−1 in turn: {@code produce} ({@code produce} s), then
 * MPI_Send of 0 bytes to k. Each rank k ≥ 1 repeats {@code reps} times: MPI_Recv from 0, then {@code consume}
 * ({@code consume} s, less than (p − 1) · produce, so that every receive is a Late Sender).
 *
 * <h2>Closed form</h2>
 * Ideal network of {@link RootCauseScenario} (eager sends and calls that do not wait take no time). P = produce,
 * C = consume (C &lt; (p − 1)P), R = reps, Π = R(p − 1)P, the producer's whole produce.
 * <ul>
 *   <li>Timeline: the producer sends its r-th message to k at (r(p − 1) + k)P and enters MPI_Finalize at Π. Consumer
 *   k waits kP at its first receive and (p − 1)P − C at every later one (Late Sender), and enters MPI_Finalize at
 *   ((R − 1)(p − 1) + k)P + C; rank p − 1 is the last, at Π + C. In all, consumer k waits Π − (R − 1)C, the producer
 *   C (at MPI_Finalize).</li>
 *   <li>Critical path: it starts on rank p − 1, books its last consume C (its MPI_Recv lasts exactly its wait),
 *   moves to the producer at that Late Sender, and the producer, which never waits (its sends are eager), books all
 *   its produce Π back to MPI_Init. critical_path: produce Π on rank 0, consume C on rank p − 1; in all Π + C.</li>
 *   <li>Local times (exclusive time less waiting): produce Π on rank 0, consume RC on each consumer; sends,
 *   receives and MPI_Finalize 0.</li>
 *   <li>critical_path_activities: produce Π on rank 0, consume min(C, RC) = C on every consumer.
 *   non_critical_path_activities: consume (R − 1)C on every consumer.</li>
 *   <li>critical_imbalance_impact: the producer's excess is {consume: C}, equal to its waiting; consumer k's is
 *   {produce: Π} (its consume RC ≥ C is no excess) against its waiting Π + C − RC, scale (Π − (R − 1)C) / Π. Handed
 *   to the holders: produce (p − 1)(Π − (R − 1)C) on rank 0, consume C on rank p − 1: all the waiting.</li>
 *   <li>inter_partition_imbalance: the producer runs produce only, headroom {consume: C} with hrf = (Π + C − Π) / C
 *   = 1; consumer k runs consume only (lplen = max(RC, C) = RC), headroom {produce: Π} with hrf = (Π + C − RC) / Π.
 *   Handed to the holders: the same values as the impact, so intra_partition_imbalance is 0 everywhere: every wait
 *   is one partition waiting for the other's routine.</li>
 *   <li>critical_path_imbalance (CubePL): produce Π − Π/p on rank 0; consume max(0, C − (p − 1)RC/p) on rank
 *   p − 1 (C/p for R = 1, else 0).</li>
 * </ul>
 * With the defaults (P = 10 ms, C = 6 ms, R = 3) on 4 ranks: Π = 90 ms, the path is 90 ms of produce on rank 0 and
 * 6 ms of consume on rank 3 (96 ms); consumers wait 78 ms each, the producer 6 ms; impact and inter-partition
 * imbalance 234 ms at produce and 6 ms at consume; non-critical activities 12 ms at each consumer's consume;
 * critical-path imbalance 67.5 ms at produce.
 */
final class ProducerConsumerScenario extends RootCauseScenario {
    private static final int TAG = 3;
    static final String PRODUCE = "produce";
    static final String CONSUME = "consume";

    ProducerConsumerScenario() {
        super("critical-path-producer-consumer",
                "rank 0 produces and sends to ranks 1..p-1 in turn, which receive and consume: Late Sender at every receive, critical path through all of produce and the last consume, all imbalance impact inter-partition",
                List.of(new ParamSpec("reps", "3", "messages to each consumer"),
                        new ParamSpec("produce", "0.01", "the producer's produce per message, s (positive)"),
                        new ParamSpec("consume", "0.006", "each consumer's consume per message, s (positive, below (p-1) x produce)")));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        p.count("reps", 1, 1_000_000);
        long produce = p.positiveDuration("produce");
        long consume = p.duration("consume");
        if (consume == 0 || consume >= (p.ranks() - 1) * produce) {
            throw p.bad("consume", "must be positive and below (p-1) x produce, so that every receive waits");
        }
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("producer_consumer.c");
        int reps = p.count("reps", 1, 1_000_000);
        long produce = p.duration("produce");
        long consume = p.duration("consume");
        Node producer = b.loop(reps,
                b.loop(c -> c.size() - 1,
                        b.call(PRODUCE, 20, b.compute(produce)),
                        b.send(Program.WORLD, c -> c.iteration(1) + 1, TAG, c -> 0L)));
        Node consumer = b.loop(reps,
                b.recv(Program.WORLD, c -> 0, TAG),
                b.call(CONSUME, 30, b.compute(consume)));
        return b.program("main", 10, b.when(c -> c.rank() == 0, producer, consumer));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, long[] clock) {
        NetworkModel net = p.network();
        int n = p.ranks();
        long produce = p.duration("produce");
        long consume = p.duration("consume");
        List<String> sendPath = path(MpiCall.SEND.regionName());
        List<String> recvPath = path(MpiCall.RECV.regionName());
        for (int r = 0; r < p.count("reps", 1, 1_000_000); r++) {
            for (int k = 1; k < n; k++) {
                clock[0] += produce;
                long t = clock[0];
                long entered = clock[k];
                long[] l = MessageModel.blocking(net, MpiCall.SEND, 0, t, entered);
                e.receives(k).receive(recvPath, 0, e.obs(0, t),
                        ScalascaRules.lateSender(e.obs(0, t), e.obs(k, entered), e.obs(k, l[1])));
                e.add(Metrics.LATE_RECEIVER, sendPath, 0,
                        ScalascaRules.lateReceiver(e.obs(0, t), e.obs(0, l[0]), e.obs(k, entered)));
                clock[0] = l[0];
                clock[k] = l[1] + consume;
            }
        }
    }

    @Override
    protected List<String> rootCauseMetrics() {
        return Metrics.CRITICAL_PATH_METRICS;
    }

    @Override
    protected void rootCauses(Params p, ExpectedBuilder e) {
        int n = p.ranks();
        int last = n - 1;
        int reps = p.count("reps", 1, 1_000_000);
        double bigP = p.duration("produce");
        double c = p.duration("consume");
        double pi = reps * (n - 1) * bigP;
        List<String> produce = path(PRODUCE);
        List<String> consume = path(CONSUME);

        e.addShare(Metrics.CRITICAL_PATH, produce, 0, pi);
        e.addShare(Metrics.CRITICAL_PATH, consume, last, c);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, produce, 0, pi - pi / n);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, consume, last, c - (n - 1) * reps * c / n);

        for (String m : List.of(Metrics.CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(m, produce, 0, pi);
            for (int k = 1; k < n; k++) {
                e.addShare(m, consume, k, Math.min(c, reps * c));
            }
        }
        for (String m : List.of(Metrics.NON_CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT)) {
            for (int k = 1; k < n; k++) {
                e.addShare(m, consume, k, (reps - 1) * c);
            }
        }
        // every wait is one partition waiting for the other's routine: impact = inter, intra 0
        for (String m : List.of(Metrics.CRITICAL_IMBALANCE_IMPACT, Metrics.INTER_PARTITION_IMBALANCE,
                Metrics.PERFORMANCE_IMPACT_CRITICALPATH, Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(m, produce, 0, (n - 1) * (pi - (reps - 1) * c));
            e.addShare(m, consume, last, c);
        }
    }
}
