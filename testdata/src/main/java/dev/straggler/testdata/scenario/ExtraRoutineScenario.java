package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;

/**
 * An SPMD loop in which one rank alone runs an extra routine before each collective, as a rank holding a domain
 * boundary does. Every rank repeats {@code iteration} {@code reps} times: {@code compute} ({@code compute} s), on
 * the rank {@code boundary} also {@code extra} ({@code extra} s), then MPI_Barrier. After the loop every rank calls
 * {@code write_output} ({@code tail} s; the rank {@code writer}: {@code tail + tail_extra} s), which makes the
 * writer the last to enter MPI_Finalize and puts the critical path on two ranks.
 *
 * <h2>Closed form</h2>
 * Ideal network of {@link RootCauseScenario} (MPI_Init, MPI_Barrier and MPI_Finalize take no time beyond their
 * waiting). b = compute, x = extra, f = tail, γ = tail_extra, R = reps, e = boundary, t = writer (t ≠ e).
 * <ul>
 *   <li>Timeline: each barrier is entered last by e, x after the others, who wait x there; write_output ends at
 *   R(b + x) + f, on t γ later, so every other rank waits γ at MPI_Finalize.</li>
 *   <li>Critical path: it starts on t, books write_output f + γ and its last barrier less its wait (0), moves to
 *   e, which never waits, and books e's compute Rb and extra Rx back to MPI_Init. critical_path: compute Rb and
 *   extra Rx on e, write_output f + γ on t; in all R(b + x) + f + γ.</li>
 *   <li>Local times (exclusive time less waiting): compute Rb on every rank, extra Rx on e only, write_output f
 *   (t: f + γ); barriers and MPI_Finalize 0.</li>
 *   <li>critical_path_activities = min(gcpath, ltimes): compute Rb on every rank, extra Rx on e, write_output f
 *   (t: f + γ). No local time exceeds the path: no non_critical_path_activities.</li>
 *   <li>critical_imbalance_impact: excess max(gcpath − ltimes, 0) is {write_output: γ} on e, {extra: Rx} on t,
 *   both on every other rank, in each case equal to the rank's waiting (scale 1). Summed and handed to the
 *   holders: extra (p − 1)Rx on e, write_output (p − 1)γ on t.</li>
 *   <li>inter_partition_imbalance: none, by Scalasca's IEEE arithmetic. Rank e runs every call path of the
 *   critical path (compute, extra, write_output), so its headroom is empty: lhrlen = 0 and gcplen − lplen = 0
 *   (lplen = Rb + Rx + f + (f + γ − f)), hence hrf = 0/0 = NaN (or ±∞ if rounding leaves a residue), and
 *   hr · hrf = 0 · NaN = NaN on every call path. The sum over locations is NaN everywhere and NaN &gt; 0 is false,
 *   so nothing is recorded. (Without e, the other ranks' headroom at extra, Rx each with hrf = 1, would make all
 *   of extra's impact inter-partition.)</li>
 *   <li>intra_partition_imbalance = impact − inter = the whole impact: extra (p − 1)Rx on e, write_output
 *   (p − 1)γ on t.</li>
 *   <li>critical_path_imbalance (CubePL): compute Rb − pRb/p = 0; extra Rx − Rx/p on e; write_output f + γ −
 *   (pf + γ)/p = γ(p − 1)/p on t.</li>
 * </ul>
 * With the defaults (b = 10, x = 5, f = 4, γ = 2 ms, R = 4, e = 1, t = 0) on 4 ranks: the path is 40 ms compute and
 * 20 ms extra on rank 1, 6 ms write_output on rank 0 (66 ms); impact 60 ms at extra, 6 ms at write_output, all of
 * it intra-partition; critical-path imbalance 15 ms at extra, 1.5 ms at write_output.
 */
final class ExtraRoutineScenario extends RootCauseScenario {
    static final String ITERATION = "iteration";
    static final String COMPUTE = "compute";
    static final String EXTRA = "extra";
    static final String OUTPUT = "write_output";

    ExtraRoutineScenario() {
        super("critical-path-extra-routine",
                "SPMD loop of compute + MPI_Barrier where rank 'boundary' alone also runs extra, then write_output, longest on rank 'writer': imbalance impact at extra, and no inter-partition imbalance because the boundary rank runs every routine of the critical path",
                List.of(new ParamSpec("reps", "4", "iterations"),
                        new ParamSpec("compute", "0.01", "compute of every rank per iteration, s"),
                        new ParamSpec("extra", "0.005", "the boundary rank's extra per iteration, s (positive)"),
                        new ParamSpec("boundary", "1", "the rank that runs extra"),
                        new ParamSpec("tail", "0.004", "write_output of every rank but the writer, s (positive)"),
                        new ParamSpec("tail_extra", "0.002", "the writer's extra write_output, s (positive)"),
                        new ParamSpec("writer", "0", "the rank that writes longest (not the boundary rank)")));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        if (rank(p, "boundary") == rank(p, "writer")) {
            throw p.bad("writer", "must differ from boundary");
        }
        p.count("reps", 1, 1_000_000);
        p.duration("compute");
        for (String positive : List.of("extra", "tail", "tail_extra")) {
            p.positiveDuration(positive);
        }
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("boundary.c");
        int boundary = rank(p, "boundary");
        int writer = rank(p, "writer");
        long compute = p.duration("compute");
        long extra = p.duration("extra");
        long tail = p.duration("tail");
        long tailExtra = p.duration("tail_extra");
        Node body = b.call(ITERATION, 20,
                b.call(COMPUTE, 30, b.compute(compute)),
                b.when(c -> c.rank() == boundary, b.call(EXTRA, 40, b.compute(extra))),
                b.barrier(Program.WORLD));
        return b.program("main", 10,
                b.loop(p.count("reps", 1, 1_000_000), body),
                b.call(OUTPUT, 50, b.compute(c -> tail + (c.rank() == writer ? tailExtra : 0))));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, long[] clock) {
        int n = p.ranks();
        int boundary = rank(p, "boundary");
        int writer = rank(p, "writer");
        List<String> at = path(ITERATION, MpiCall.BARRIER.regionName());
        for (int r = 0; r < p.count("reps", 1, 1_000_000); r++) {
            for (int i = 0; i < n; i++) {
                clock[i] += p.duration("compute") + (i == boundary ? p.duration("extra") : 0);
            }
            ClosedForm.collective(p, e, MpiCall.BARRIER, ClosedForm.identity(n), clock, 0, -1, at);
        }
        for (int i = 0; i < n; i++) {
            clock[i] += p.duration("tail") + (i == writer ? p.duration("tail_extra") : 0);
        }
    }

    @Override
    protected List<String> rootCauseMetrics() {
        return Metrics.CRITICAL_PATH_METRICS;
    }

    @Override
    protected void rootCauses(Params p, ExpectedBuilder e) {
        int n = p.ranks();
        int boundary = rank(p, "boundary");
        int writer = rank(p, "writer");
        int reps = p.count("reps", 1, 1_000_000);
        double b = p.duration("compute");
        double x = p.duration("extra");
        double f = p.duration("tail");
        double gamma = p.duration("tail_extra");
        List<String> compute = path(ITERATION, COMPUTE);
        List<String> extra = path(ITERATION, EXTRA);
        List<String> output = path(OUTPUT);

        e.addShare(Metrics.CRITICAL_PATH, compute, boundary, reps * b);
        e.addShare(Metrics.CRITICAL_PATH, extra, boundary, reps * x);
        e.addShare(Metrics.CRITICAL_PATH, output, writer, f + gamma);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, extra, boundary, reps * x * (n - 1) / n);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, output, writer, gamma * (n - 1) / n);

        for (int l = 0; l < n; l++) {
            for (String m : List.of(Metrics.CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                    Metrics.PERFORMANCE_IMPACT)) {
                e.addShare(m, compute, l, reps * b);
                e.addShare(m, extra, l, l == boundary ? reps * x : 0);
                e.addShare(m, output, l, f + (l == writer ? gamma : 0));
            }
        }
        // the waiting of the other ranks, on the holders of extra and write_output; inter-partition is NaN (none)
        for (String m : List.of(Metrics.CRITICAL_IMBALANCE_IMPACT, Metrics.INTRA_PARTITION_IMBALANCE,
                Metrics.PERFORMANCE_IMPACT_CRITICALPATH, Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(m, extra, boundary, (n - 1) * reps * x);
            e.addShare(m, output, writer, (n - 1) * gamma);
        }
    }
}
