package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Noise;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;

/**
 * A Graph500-like BFS whose run time follows {@code c0 + c1/p + c2/sqrt(p)}: graph generation and validation take
 * {@code c0} in all, each of {@code nbfs} searches expands its frontier ({@code c1/(p·nbfs)}), exchanges it with
 * MPI_Alltoallv (which Scalasca excludes) and packs the next frontier ({@code c2/(sqrt(p)·nbfs)}), then agrees on
 * termination with MPI_Allreduce. By default the network costs nothing (latency and overhead 0, bandwidth 1e15),
 * so the run time is the law up to the integer rounding of each term and a few ticks per collective; the
 * expectation reports it exactly ({@code predictedRuntime}, noise-free). Ground truth for the regression models.
 */
final class Graph500Like extends FamilyScenario {
    private static final int STREAM_EXPAND = 1;
    private static final int STREAM_EXCHANGE = 2;

    Graph500Like() {
        super("graph500-like", "Graph500-like BFS with run time c0 + c1/p + c2/sqrt(p) (ground truth for regression models)",
                List.of(new ParamSpec("c0", "0.2", "serial time (generation + validation), s"),
                        new ParamSpec("c1", "4.0", "perfectly parallel time at p = 1, s"),
                        new ParamSpec("c2", "0.5", "time that shrinks with sqrt(p), s"),
                        new ParamSpec("nbfs", "8", "breadth-first searches"),
                        new ParamSpec("bytes", "1000000", "frontier volume per search at p = 1, bytes (divided by p)"),
                        new ParamSpec("noise", "0", "relative amplitude of the seeded jitter of every computation")),
                Map.of("latency", "0", "overhead", "0", "bandwidth", "1e15"), List.of(1, 2, 4, 8, 16, 32, 64));
    }

    @Override
    protected List<String> problemParameters() {
        return List.of("c0", "c1", "c2", "nbfs");
    }

    private long generate(Params p) {
        return p.duration("c0") / 2;
    }

    private long validate(Params p) {
        return p.duration("c0") - generate(p);
    }

    /** One search's computations, resolved once: lambdas run once per call and must not parse parameters. */
    private record Search(long expand, long exchange, double noise, long seed) {
        long expand(int rank, int bfs) {
            return Noise.jitter(expand, noise, seed, rank, STREAM_EXPAND, bfs);
        }

        long exchange(int rank, int bfs) {
            return Noise.jitter(exchange, noise, seed, rank, STREAM_EXCHANGE, bfs);
        }
    }

    private Search search(Params p, double noise) {
        return new Search(Math.round(p.real("c1") * 1e9 / (p.ranks() * (double) nbfs(p))),
                Math.round(p.real("c2") * 1e9 / (Math.sqrt(p.ranks()) * nbfs(p))), noise, p.seed());
    }

    private int nbfs(Params p) {
        return p.count("nbfs", 1, 1 << 24);
    }

    private long volume(Params p) {
        return Math.max(1, p.integer("bytes") / p.ranks());
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("graph500.c");
        long v = volume(p);
        Search w = search(p, noise(p));
        return b.program("main", 10,
                b.call("generate_graph", 40, b.compute(generate(p))),
                b.loop(nbfs(p), b.call("bfs", 80,
                        b.call("expand", 120, b.compute(c -> w.expand(c.rank(), c.iteration(0)))),
                        b.alltoallv(Program.WORLD, c -> v, c -> v),
                        b.call("exchange", 160, b.compute(c -> w.exchange(c.rank(), c.iteration(0)))),
                        b.allreduce(Program.WORLD, c -> 8))),
                b.call("validate", 200, b.compute(validate(p))));
    }

    @Override
    protected void expect(Params p, ExpectedBuilder e) {
        long[] clock = ClosedForm.init(p, e);
        searches(p, e, noise(p), clock);
        ClosedForm.finalize(p, e, clock);
        long[] quiet = new long[p.ranks()];
        long init = p.network().collectiveCost(MpiCall.INIT, 0, p.ranks());
        for (int r = 0; r < quiet.length; r++) {
            quiet[r] = init + p.network().exitDelay(r);
        }
        searches(p, null, 0, quiet);
        long runtime = ScalascaRules.max(quiet) + p.network().collectiveCost(MpiCall.FINALIZE, 0, p.ranks())
                + p.network().exitDelay(p.ranks() - 1);
        double c0 = p.real("c0");
        double c1 = p.real("c1");
        double c2 = p.real("c2");
        e.scaling(new ExpectedSeverities.Scaling(
                List.of(),
                List.of(site(path("bfs", "expand"), "mean exclusive time per rank", "decreasing", "c1/p"),
                        site(path("bfs", "exchange"), "mean exclusive time per rank", "decreasing", "c2/sqrt(p)"),
                        site(path("generate_graph"), "mean exclusive time per rank", "constant", "c0/2")),
                Map.of("c0", c0, "c1", c1, "c2", c2), "c0 + c1/p + c2/sqrt(p)", runtime / 1e9));
        e.note("run time = the trace's length (every rank starts at 0 and the last one leaves MPI_Finalize at its end); "
                + "predictedRuntime is exact for noise = 0 and includes the rounding of each term and the collectives' costs");
    }

    /** Generation, the searches and validation, from the clocks at the end of MPI_Init; records waits unless e is null. */
    private void searches(Params p, ExpectedBuilder e, double noise, long[] clock) {
        int n = p.ranks();
        int[] world = ClosedForm.identity(n);
        Search w = search(p, noise);
        List<String> a2av = path("bfs", "MPI_Alltoallv");
        List<String> allreduce = path("bfs", "MPI_Allreduce");
        for (int r = 0; r < n; r++) {
            clock[r] += generate(p);
        }
        for (int k = 0; k < nbfs(p); k++) {
            for (int r = 0; r < n; r++) {
                clock[r] += w.expand(r, k);
            }
            ClosedForm.collective(p, e, MpiCall.ALLTOALLV, world, clock, volume(p), -1, a2av);
            for (int r = 0; r < n; r++) {
                clock[r] += w.exchange(r, k);
            }
            ClosedForm.collective(p, e, MpiCall.ALLREDUCE, world, clock, 8, -1, allreduce);
        }
        for (int r = 0; r < n; r++) {
            clock[r] += validate(p);
        }
    }
}
