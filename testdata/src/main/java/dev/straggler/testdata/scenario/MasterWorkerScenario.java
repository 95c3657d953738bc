package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;

/**
 * A master/worker (MPMD-like) loop whose two partitions run different call paths and take turns on the critical
 * path. Every rank repeats {@code iteration} {@code reps} times: MPI_Barrier (the hand-out of a batch), then rank 0
 * runs {@code manage} ({@code manage} s, plus {@code heavy} s in the even iterations r = 0, 2, …) while ranks
 * 1 … p−1 run {@code work} ({@code work} s; the last rank, p − 1, {@code work + delta} s). The last iteration is
 * joined by MPI_Finalize. With manage &lt; work + delta &lt; manage + heavy the master is the latest in the even
 * iterations and rank p − 1 in the odd ones, so both {@code manage} and {@code work} lie on the critical path.
 *
 * <h2>Closed form</h2>
 * Ideal network of {@link RootCauseScenario} (MPI_Init, MPI_Barrier and MPI_Finalize take no time beyond their
 * waiting). m = manage, H = manage + heavy, b = work, W = work + delta (m &lt; W &lt; H), R = reps, E = ⌈R/2⌉ heavy
 * iterations, O = ⌊R/2⌋ light ones; w_k = b for 1 ≤ k ≤ p − 2, w_{p−1} = W.
 * <ul>
 *   <li>Timeline: iteration r lasts L_r = H (r even) or W (r odd) from its barrier on every rank; its latest rank
 *   ℓ_r is 0 (r even) or p − 1 (r odd), and every other rank waits L_r minus its own time at the next barrier (or,
 *   after the last iteration, at MPI_Finalize). Rank ℓ_{R−1} enters MPI_Finalize last, at EH + OW.</li>
 *   <li>Critical path (CriticalPath.pattern): it starts on ℓ_{R−1} and books iteration R−1's routine; at the
 *   barrier opening that iteration ℓ_{R−1} waited for ℓ_{R−2} (the latest ranks alternate), so the path moves
 *   there, and so on back to the first barrier, where no one waits, and MPI_Init. The barriers on it take no
 *   time (the holder never waits there). critical_path: [main, iteration, manage] EH on rank 0, [main, iteration,
 *   work] OW on rank p − 1, nothing else; in all EH + OW.</li>
 *   <li>Local times (exclusive time less waiting, per call path): rank 0 manage M = EH + Om; worker k work R·w_k;
 *   the barriers and MPI_Finalize hold only waiting, 0.</li>
 *   <li>critical_path_activities = min(gcpath, ltimes) where gcpath &gt; 0: manage EH on rank 0; work OW on rank
 *   p − 1, min(OW, Rb) on ranks 1 … p−2 (0 on the other partition). non_critical_path_activities = ltimes −
 *   gcpath where positive: manage Om on rank 0, work EW on rank p − 1, max(Rb − OW, 0) on ranks 1 … p−2.</li>
 *   <li>critical_imbalance_impact (Böhme's heuristic). Rank 0: excess max(gcpath − ltimes, 0) = {work: OW}, its
 *   waiting gcplen − M = O(W − m), scaled onto work: O(W − m). Worker k: excess {manage: EH, work: max(OW − Rw_k,
 *   0)}, waiting EH + OW − Rw_k; if OW ≥ Rw_k the scale is 1, else (EH − (Rw_k − OW)) / EH on manage alone; both
 *   cases give manage EH − max(Rw_k − OW, 0) and work max(OW − Rw_k, 0). Summed over locations and handed to the
 *   holders (each holds its call path's whole path, lcpath / gcpath = 1): manage on rank 0 Σ_k (EH − max(Rw_k −
 *   OW, 0)) = (p − 2)(EH − max(Rb − OW, 0)) + E(H − W); work on rank p − 1 O(W − m) + (p − 2)·max(OW − Rb, 0).
 *   Its total is all the waiting.</li>
 *   <li>inter_partition_imbalance (headroom). Rank 0 runs manage only: lplen = max(M, EH) = M, headroom {work:
 *   OW}, hrf = (gcplen − M) / OW, so O(W − m) at work. Worker k runs work only: lplen = max(Rw_k, OW), headroom
 *   {manage: EH}, hrf = (gcplen − lplen) / EH, so EH + OW − max(Rw_k, OW) = EH − max(Rw_k − OW, 0) at manage.
 *   No location runs both call paths, so every headroom is non-empty and finite. Handed to the holders: manage on
 *   rank 0 the same sum as its imbalance impact, work on rank p − 1 O(W − m).</li>
 *   <li>intra_partition_imbalance = impact − inter (scout.spec's remapping): manage 0 (all of the workers'
 *   waiting for the master is between partitions), work (p − 2)·max(OW − Rb, 0) on rank p − 1 (the light
 *   workers' shortfall against the path's work, within the worker partition).</li>
 *   <li>critical_path_imbalance (CubePL): manage EH − M/p on rank 0; work max(0, OW − ((p−2)Rb + RW)/p) on rank
 *   p − 1. performance_impact_criticalpath = activities + impact, performance_impact adds the non-critical
 *   activities.</li>
 * </ul>
 * With the defaults (m = 5, H = 35, b = 10, W = 25 ms, R = 4) on 4 ranks: iterations 35, 25, 35, 25 ms, so the path
 * is 70 ms of manage on rank 0 and 50 ms of work on rank 3 (120 ms, when rank 3 enters MPI_Finalize); local times
 * manage 80 ms, work 40, 40, 100 ms; waiting 40 (rank 0), 80, 80, 20 ms. Impact: manage 70 + 70 + 20 = 160 ms,
 * work 40 + 2 · 10 = 60 ms (= 220 ms of waiting); inter manage 160, work 40 ms; intra work 20 ms; activities
 * manage 70, work 40, 40, 50 ms; non-critical manage 10, work 50 ms on rank 3; critical-path imbalance manage
 * 70 − 80/4 = 50 ms, work max(0, 50 − 180/4) = 5 ms.
 */
final class MasterWorkerScenario extends RootCauseScenario {
    static final String ITERATION = "iteration";
    static final String MANAGE = "manage";
    static final String WORK = "work";

    MasterWorkerScenario() {
        super("critical-path-master-worker",
                "rank 0 runs manage (longer every other iteration) while ranks 1..p-1 run work (rank p-1 longest), each iteration opened by MPI_Barrier: both partitions on the critical path, inter- and intra-partition imbalance",
                List.of(new ParamSpec("reps", "4", "iterations (at least 2: the heavy ones are r = 0, 2, ...)"),
                        new ParamSpec("manage", "0.005", "the master's manage per iteration, s (below work + delta)"),
                        new ParamSpec("heavy", "0.03", "the master's extra manage in even iterations, s (manage + heavy above work + delta)"),
                        new ParamSpec("work", "0.01", "work of ranks 1..p-2 per iteration, s (positive)"),
                        new ParamSpec("delta", "0.015", "the last rank's extra work per iteration, s (positive)")));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        p.count("reps", 2, 1_000_000);
        long m = p.duration("manage");
        long h = p.duration("heavy");
        long b = p.positiveDuration("work");
        long w = b + p.duration("delta");
        if (w <= b) {
            throw p.bad("delta", "must be positive, so that rank p-1 is the latest worker");
        }
        if (m >= w) {
            throw p.bad("manage", "must be below work + delta, so that the workers are the latest in light iterations");
        }
        if (m + h <= w) {
            throw p.bad("heavy", "must make manage + heavy exceed work + delta, so that the master is the latest in heavy iterations");
        }
    }

    /** The master's manage in iteration {@code r}, ticks. */
    private static long manage(Params p, int r) {
        return p.duration("manage") + (r % 2 == 0 ? p.duration("heavy") : 0);
    }

    /** Worker {@code k}'s work per iteration, ticks. */
    private static long work(Params p, int k) {
        return p.duration("work") + (k == p.ranks() - 1 ? p.duration("delta") : 0);
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("master_worker.c");
        Node body = b.call(ITERATION, 20,
                b.barrier(Program.WORLD),
                b.when(c -> c.rank() == 0,
                        b.call(MANAGE, 30, b.compute(c -> manage(p, c.iteration(0)))),
                        b.call(WORK, 40, b.compute(c -> work(p, c.rank())))));
        return b.program("main", 10, b.loop(p.count("reps", 2, 1_000_000), body));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, long[] clock) {
        int n = p.ranks();
        List<String> at = path(ITERATION, MpiCall.BARRIER.regionName());
        for (int r = 0; r < p.count("reps", 2, 1_000_000); r++) {
            ClosedForm.collective(p, e, MpiCall.BARRIER, ClosedForm.identity(n), clock, 0, -1, at);
            clock[0] += manage(p, r);
            for (int k = 1; k < n; k++) {
                clock[k] += work(p, k);
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
        int reps = p.count("reps", 2, 1_000_000);
        int heavyIterations = (reps + 1) / 2;
        int lightIterations = reps / 2;
        double m = p.duration("manage");
        double bigH = m + p.duration("heavy");
        double b = p.duration("work");
        double bigW = b + p.duration("delta");
        List<String> manage = path(ITERATION, MANAGE);
        List<String> work = path(ITERATION, WORK);

        double cpManage = heavyIterations * bigH; // EH, all on rank 0
        double cpWork = lightIterations * bigW; // OW, all on rank p − 1
        double localManage = cpManage + lightIterations * m; // M = EH + Om
        e.addShare(Metrics.CRITICAL_PATH, manage, 0, cpManage);
        e.addShare(Metrics.CRITICAL_PATH, work, last, cpWork);

        // critical-path activities and non-critical-path activities, per location
        double[] activities = new double[n];
        double[] nonCritical = new double[n];
        activities[0] = Math.min(cpManage, localManage);
        nonCritical[0] = Math.max(localManage - cpManage, 0);
        for (int k = 1; k < n; k++) {
            double local = reps * (double) work(p, k);
            activities[k] = Math.min(cpWork, local);
            nonCritical[k] = Math.max(local - cpWork, 0);
        }

        // imbalance impact and headroom, summed over locations (derivation in the class comment)
        double impactManage = 0;
        double impactWork = lightIterations * (bigW - m); // rank 0's waiting
        double interManage = 0;
        double interWork = lightIterations * (bigW - m); // rank 0's headroom at work
        for (int k = 1; k < n; k++) {
            double local = reps * (double) work(p, k);
            impactManage += cpManage - Math.max(local - cpWork, 0);
            impactWork += Math.max(cpWork - local, 0);
            interManage += cpManage + cpWork - Math.max(local, cpWork);
        }
        double intraManage = impactManage - interManage;
        double intraWork = impactWork - interWork;

        for (String metric : List.of(Metrics.CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(metric, manage, 0, activities[0]);
            for (int k = 1; k < n; k++) {
                e.addShare(metric, work, k, activities[k]);
            }
        }
        for (String metric : List.of(Metrics.NON_CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(metric, manage, 0, nonCritical[0]);
            for (int k = 1; k < n; k++) {
                e.addShare(metric, work, k, nonCritical[k]);
            }
        }
        for (String metric : List.of(Metrics.CRITICAL_IMBALANCE_IMPACT, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(metric, manage, 0, impactManage);
            e.addShare(metric, work, last, impactWork);
        }
        e.addShare(Metrics.INTER_PARTITION_IMBALANCE, manage, 0, interManage);
        e.addShare(Metrics.INTER_PARTITION_IMBALANCE, work, last, interWork);
        e.addShare(Metrics.INTRA_PARTITION_IMBALANCE, manage, 0, intraManage);
        e.addShare(Metrics.INTRA_PARTITION_IMBALANCE, work, last, intraWork);

        // critical-path imbalance: time on the path above the average busy time per location
        double busyWork = 0;
        for (int k = 1; k < n; k++) {
            busyWork += reps * (double) work(p, k);
        }
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, manage, 0, cpManage - localManage / n);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, work, last, cpWork - busyWork / n);
    }
}
