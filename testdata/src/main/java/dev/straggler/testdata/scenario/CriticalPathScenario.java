package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;

/**
 * An SPMD time-step loop whose critical path runs through one known slowest rank. Every rank repeats {@code
 * timestep} {@code reps} times: {@code solve} ({@code base} s; the rank {@code slow}: {@code base + delta} s), then
 * MPI_Allreduce of {@code bytes} per rank. After the loop every rank calls {@code write_output} ({@code tail} s;
 * the rank {@code writer}: {@code tail + extra} s), which makes the writer the last to enter MPI_Finalize.
 *
 * <h2>Closed form</h2>
 * Ideal network of {@link RootCauseScenario}: MPI_Init and MPI_Finalize take no time, the Allreduce c =
 * 2⌈log2 p⌉ · bytes / bandwidth after its last member enters. b = base, δ = delta, f = tail, γ = extra, R = reps,
 * s = slow, t = writer (t ≠ s).
 * <ul>
 *   <li>Timeline: time step r ends on every rank at r·(b + δ + c); rank j ≠ s waits δ in each Allreduce (Wait at
 *   N×N, R·δ); rank l enters MPI_Finalize at R·(b + δ + c) + f, the writer γ later, so every other rank waits γ
 *   there.</li>
 *   <li>Delay ({@code delay_n2n}): each Allreduce's interval runs from the previous one (or MPI_Init), whose time
 *   is pruned; the slow rank's solve exceeds each waiting rank's by δ and it waits nowhere, so each of the p − 1
 *   waits δ is charged to [main, timestep, solve] on s: R·(p−1)·δ. No point-to-point wait state: the
 *   propagating/indirect classes are 0.</li>
 *   <li>Critical path (CriticalPath.pattern): it starts on t, which enters MPI_Finalize last, and books from its
 *   last Allreduce on: the Allreduce (δ + c) less its wait δ, i.e. c, and write_output f + γ. There t waited, so
 *   the path moves to the Allreduce's latest rank s, which never waits: it books all its solve R·(b + δ), its
 *   first R − 1 Allreduces (R − 1)·c and MPI_Init (0). No other computation is on it: critical_path at
 *   [main, timestep, solve] = R·(b + δ) on s only; at [main, write_output] f + γ on t only; at the Allreduce
 *   (R − 1)·c on s and c on t. Total R·(b + δ + c) + f + γ: the time the last rank enters MPI_Finalize.</li>
 *   <li>Critical-path imbalance (CubePL max(0, cp − (time − waiting) / p) / cp · cp per call path): solve
 *   R·(b+δ) − (R·p·b + R·δ)/p = R·δ·(p−1)/p on s; write_output γ·(p−1)/p on t; the Allreduce, balanced
 *   outside its waits (R·c on every rank), none.</li>
 *   <li>Performance impact (Böhme's heuristic as CriticalPath.pattern computes it). Local times without waiting:
 *   solve R·b (R·(b + δ) on s), Allreduce R·c, write_output f (f + γ on t), MPI_Finalize 0. Critical-path
 *   activities = min(critical path over all ranks, local time): solve R·b (s: R·(b + δ)), Allreduce R·c,
 *   write_output f (t: f + γ) on every rank. Non-critical-path activities (local − path, where positive): none.
 *   Imbalance impact: each rank's excess of the path over its own time (s: write_output γ; t: solve R·δ; others:
 *   both) scaled by its waiting over that excess (here 1), summed over ranks — solve (p−1)·R·δ, write_output
 *   (p−1)·γ — and handed to the call path's critical-path holder: (p−1)·R·δ at solve on s, (p−1)·γ at
 *   write_output on t. All of it is intra-partition: every rank runs every call path, so the inter-partition
 *   headroom is empty (0/0, not recorded).</li>
 * </ul>
 */
final class CriticalPathScenario extends RootCauseScenario {
    static final String TIMESTEP = "timestep";
    static final String SOLVE = "solve";
    static final String OUTPUT = "write_output";

    CriticalPathScenario() {
        super("critical-path-slowest-rank",
                "SPMD loop of solve + MPI_Allreduce where rank 'slow' solves 'delta' longer, then write_output, longest on rank 'writer': the critical path runs through the slow rank's solve",
                List.of(new ParamSpec("reps", "4", "time steps"),
                        new ParamSpec("base", "0.01", "solve of every rank but the slow one per time step, s (positive)"),
                        new ParamSpec("delta", "0.005", "the slow rank's extra solve per time step, s (positive)"),
                        new ParamSpec("slow", "1", "the slow rank"),
                        new ParamSpec("tail", "0.004", "write_output of every rank but the writer, s (positive)"),
                        new ParamSpec("extra", "0.002", "the writer's extra write_output, s (positive)"),
                        new ParamSpec("writer", "0", "the rank that writes longest (not the slow one)"),
                        new ParamSpec("bytes", "8", "MPI_Allreduce payload per rank, bytes (at least 1)")));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        if (rank(p, "slow") == rank(p, "writer")) {
            throw p.bad("writer", "must differ from slow");
        }
        p.count("reps", 1, 1_000_000);
        for (String positive : List.of("base", "delta", "tail", "extra")) {
            p.positiveDuration(positive);
        }
        if (p.integer("bytes") < 1) {
            throw p.bad("bytes", "must be at least 1");
        }
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("timestep.c");
        int slow = rank(p, "slow");
        int writer = rank(p, "writer");
        long base = p.duration("base");
        long delta = p.duration("delta");
        long tail = p.duration("tail");
        long extra = p.duration("extra");
        long n = p.integer("bytes");
        Node step = b.call(TIMESTEP, 20,
                b.call(SOLVE, 30, b.compute(c -> base + (c.rank() == slow ? delta : 0))),
                b.allreduce(Program.WORLD, c -> n));
        return b.program("main", 10,
                b.loop(p.count("reps", 1, 1_000_000), step),
                b.call(OUTPUT, 50, b.compute(c -> tail + (c.rank() == writer ? extra : 0))));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, long[] clock) {
        int n = p.ranks();
        int slow = rank(p, "slow");
        int writer = rank(p, "writer");
        List<String> at = path(TIMESTEP, MpiCall.ALLREDUCE.regionName());
        for (int rep = 0; rep < p.count("reps", 1, 1_000_000); rep++) {
            for (int i = 0; i < n; i++) {
                clock[i] += p.duration("base") + (i == slow ? p.duration("delta") : 0);
            }
            ClosedForm.collective(p, e, MpiCall.ALLREDUCE, ClosedForm.identity(n), clock, p.integer("bytes"), -1, at);
        }
        for (int i = 0; i < n; i++) {
            clock[i] += p.duration("tail") + (i == writer ? p.duration("extra") : 0);
        }
    }

    @Override
    protected List<String> rootCauseMetrics() {
        return metrics(Metrics.DELAY_COSTS, Metrics.WAIT_CLASSES, Metrics.CRITICAL_PATH_METRICS);
    }

    @Override
    protected void rootCauses(Params p, ExpectedBuilder e) {
        int n = p.ranks();
        int slow = rank(p, "slow");
        int writer = rank(p, "writer");
        int reps = p.count("reps", 1, 1_000_000);
        double b = p.duration("base");
        double delta = p.duration("delta");
        double f = p.duration("tail");
        double gamma = p.duration("extra");
        double c = p.network().collectiveCost(MpiCall.ALLREDUCE, p.integer("bytes"), n);
        List<String> solve = path(TIMESTEP, SOLVE);
        List<String> allreduce = path(TIMESTEP, MpiCall.ALLREDUCE.regionName());
        List<String> output = path(OUTPUT);

        e.addShare(Metrics.DELAY_N2N, solve, slow, reps * (n - 1) * delta);

        e.addShare(Metrics.CRITICAL_PATH, solve, slow, reps * (b + delta));
        e.addShare(Metrics.CRITICAL_PATH, allreduce, slow, (reps - 1) * c);
        e.addShare(Metrics.CRITICAL_PATH, allreduce, writer, c);
        e.addShare(Metrics.CRITICAL_PATH, output, writer, f + gamma);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, solve, slow, reps * delta * (n - 1) / n);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, output, writer, gamma * (n - 1) / n);

        for (int l = 0; l < n; l++) {
            double solveActivity = reps * (b + (l == slow ? delta : 0));
            double outputActivity = f + (l == writer ? gamma : 0);
            double allreduceActivity = reps * c;
            for (String m : List.of(Metrics.CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                    Metrics.PERFORMANCE_IMPACT)) {
                e.addShare(m, solve, l, solveActivity);
                e.addShare(m, allreduce, l, allreduceActivity);
                e.addShare(m, output, l, outputActivity);
            }
        }
        // the imbalance impact of the other ranks' waiting, on the critical path's holder of each call path
        double solveImpact = (n - 1) * reps * delta;
        double outputImpact = (n - 1) * gamma;
        for (String m : List.of(Metrics.CRITICAL_IMBALANCE_IMPACT, Metrics.INTRA_PARTITION_IMBALANCE,
                Metrics.PERFORMANCE_IMPACT_CRITICALPATH, Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(m, solve, slow, solveImpact);
            e.addShare(m, output, writer, outputImpact);
        }
    }
}
