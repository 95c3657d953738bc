package dev.straggler.testdata.scenario;

import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.sim.MpiCall;

import java.util.List;
import java.util.Map;

/** Every scenario, with the defaults that make it show its property. */
public final class Catalogue {
    private static final Map<String, String> NONE = Map.of();

    public static final List<Scenario> ALL = List.of(
            new PairwiseScenario("late-sender",
                    "ATS late_sender: even ranks Ssend after base+extra, odd ranks Recv after base: Late Sender ≈ extra per repetition",
                    true, false, "ssend", NONE),
            new PairwiseScenario("late-receiver",
                    "ATS late_receiver: receivers work base+extra; Late Receiver ≈ extra at MPI_Ssend (mode=ssend) or rendezvous MPI_Send; none when eager",
                    false, false, "ssend", NONE),
            new PairwiseScenario("late-sender-nonblocking",
                    "late sender with Isend+Wait / Irecv+Wait: Late Sender at the receiver's MPI_Wait",
                    true, true, "send", NONE),
            new PairwiseScenario("late-receiver-nonblocking",
                    "late receiver with a rendezvous Isend+Wait: Late Receiver at the sender's MPI_Wait",
                    false, true, "send", Map.of("eager", "0")),
            new WaitallScenario(),
            new CollectiveScenario("imbalance-at-barrier",
                    "ATS imbalance_at_mpi_barrier: block2 work, then MPI_Barrier: Wait at Barrier = max work - own work",
                    MpiCall.BARRIER, Map.of("dist", "block2"), NONE),
            new CollectiveScenario("imbalance-at-alltoall",
                    "ATS imbalance_at_mpi_alltoall: cyclic2 work, then MPI_Alltoall: Wait at N x N = max work - own work",
                    MpiCall.ALLTOALL, NONE, NONE),
            new CollectiveScenario("imbalance-at-allreduce",
                    "cyclic2 work, then MPI_Allreduce: Wait at N x N = max work - own work",
                    MpiCall.ALLREDUCE, NONE, NONE),
            new CollectiveScenario("imbalance-at-allgather",
                    "cyclic2 work, then MPI_Allgather: Wait at N x N = max work - own work",
                    MpiCall.ALLGATHER, NONE, NONE),
            new CollectiveScenario("late-broadcast",
                    "ATS late_broadcast: the root works longer, then MPI_Bcast: Late Broadcast = high - low at every non-root",
                    MpiCall.BCAST, Map.of("dist", "peak", "low", "0.01", "high", "0.06"), NONE),
            new CollectiveScenario("late-scatter",
                    "ATS late_scatter: the root works longer, then MPI_Scatter: Late Broadcast = high - low at every non-root",
                    MpiCall.SCATTER, Map.of("dist", "peak", "low", "0.01", "high", "0.06"), NONE),
            new CollectiveScenario("early-reduce",
                    "ATS early_reduce: the root works less, then MPI_Reduce: Early Reduce = low - high at the root",
                    MpiCall.REDUCE, Map.of("dist", "peak", "low", "0.06", "high", "0.01"), NONE),
            new CollectiveScenario("early-gather",
                    "ATS early_gather: the root works less, then MPI_Gather: Early Reduce = low - high at the root",
                    MpiCall.GATHER, Map.of("dist", "peak", "low", "0.06", "high", "0.01"), NONE),
            new CollectiveScenario("early-scan",
                    "work falling linearly with rank, then MPI_Scan: Early Scan at rank i = work(0) - work(i)",
                    MpiCall.SCAN, Map.of("dist", "linear", "low", "0.05", "high", "0.01"), NONE),
            new WrongOrderScenario("wrong-order-different",
                    "ATS wrong_order: token ring, rank 0 receives results from p-1 down to 1: Late Sender, Wrong Order (different sources)",
                    true),
            new WrongOrderSameScenario(),
            new WrongOrderScenario("right-order",
                    "ATS right_order (negative test for wrong order): rank 0 receives results from 1 up to p-1: Late Sender, no Wrong Order",
                    false),
            new CollectiveScenario("barrier-completion",
                    "balanced work, then MPI_Barrier whose ranks leave one 'stagger' apart: Barrier Completion = stagger x rank",
                    MpiCall.BARRIER, Map.of("dist", "same"), Map.of("stagger", "1e-5")),
            new CollectiveScenario("nxn-completion",
                    "balanced work, then MPI_Allreduce whose ranks leave one 'stagger' apart: N x N Completion = stagger x rank",
                    MpiCall.ALLREDUCE, Map.of("dist", "same"), Map.of("stagger", "1e-5")),
            new CollectiveScenario("alltoallv-excluded",
                    "imbalance before MPI_Alltoallv, which Scalasca excludes: no collective wait state",
                    MpiCall.ALLTOALLV, NONE, NONE),
            new CollectiveScenario("size1-comm-excluded",
                    "imbalance before MPI_Allreduce on size-1 communicators (MPI_Comm_split by rank): no collective wait state",
                    MpiCall.ALLREDUCE, Map.of("comm", "self"), NONE),
            new PairwiseScenario("clock-violation",
                    "late sender whose sender clock runs 'skew.offset' ahead: receives appear before their sends; Late Sender is clipped to the receive's duration",
                    true, false, "ssend", Map.of("skew.rank", "0", "skew.offset", "0.1")),
            new ImbalanceDelayScenario("imbalance-delay-barrier",
                    "rank 'slow' works 'delta' longer in imbalanced_work before MPI_Barrier: delay_barrier = reps x (p-1) x delta on its imbalanced_work",
                    ImbalanceDelayScenario.Sync.BARRIER),
            new ImbalanceDelayScenario("imbalance-delay-allreduce",
                    "rank 'slow' works 'delta' longer in imbalanced_work before MPI_Allreduce: delay_n2n = reps x (p-1) x delta on its imbalanced_work",
                    ImbalanceDelayScenario.Sync.ALLREDUCE),
            new ImbalanceDelayScenario("imbalance-delay-sends",
                    "rank 'slow' works 'delta' longer in imbalanced_work, then sends to every other rank: delay_latesender = reps x (p-1) x delta on its imbalanced_work",
                    ImbalanceDelayScenario.Sync.SENDS),
            new LateSenderChainScenario(),
            new DeepCallTree(),
            new BtLike(),
            new GyroLike(),
            new Sweep3dLike(),
            new Graph500Like());

    private Catalogue() {
    }
}
