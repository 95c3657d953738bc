package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Ctx;
import dev.straggler.testdata.sim.Noise;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * A BT-like solver on a q × q process grid (p = q², as NPB BT requires), strong-scaled: MPI_Comm_split into rows,
 * an imbalanced {@code initialize} and an MPI_Barrier, then iterations of {@code adi}: {@code copy_faces} (Irecv and
 * Isend with the four grid neighbours, MPI_Waitall), {@code compute_rhs}, the x, y and z sweeps (a pipeline of q
 * stages along rows, columns and diagonals: MPI_Irecv + MPI_Wait from the predecessor, a cell solve, MPI_Isend to
 * the successor, then back-substitution in reverse, the sends completed by MPI_Waitall) and {@code add}; finally
 * {@code verify} reduces the error norms.
 *
 * <p>Designed to scale badly (mean time per rank grows with p): MPI_Comm_split (an allgather of p keys), the
 * barrier after the imbalanced initialisation (imbalance × log2 p), and the sweeps' MPI_Wait (pipeline fill of
 * q − 1 stages whose fixed part {@code stage} does not shrink). Designed to scale well (shrinks ∝ 1/p):
 * compute_rhs, the cell solves and add. Model-level expectation.
 */
final class BtLike extends FamilyScenario {
    private static final int ST_INIT = 1;
    private static final int ST_RHS = 2;
    private static final int ST_CELL = 3;
    private static final int ST_BACK = 4;
    private static final int ST_ADD = 5;

    BtLike() {
        super("bt-like", "BT-like solver on a sqrt(p) x sqrt(p) grid: x/y/z pipeline sweeps with Waits, copy_faces Waitall, Comm_split and Barrier that grow with p",
                List.of(new ParamSpec("n", "64", "grid points per dimension"),
                        new ParamSpec("niter", "10", "iterations"),
                        new ParamSpec("cpoint", "1e-9", "work per grid point per phase, s"),
                        new ParamSpec("stage", "5e-5", "fixed work per pipeline stage, s"),
                        new ParamSpec("imbalance", "0.001", "initialisation imbalance per log2(p) on odd ranks, s")),
                Map.of(), List.of(1, 4, 9, 16, 25, 36, 64));
    }

    @Override
    public int minRanks() {
        return 1;
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        int q = q(p.ranks());
        if (q * q != p.ranks()) {
            throw new IllegalArgumentException("scenario bt-like needs a square number of ranks (as NPB BT does), got " + p.ranks());
        }
    }

    @Override
    protected List<String> problemParameters() {
        return List.of("n", "niter");
    }

    static int q(int ranks) {
        int q = (int) Math.round(Math.sqrt(ranks));
        while (q * q > ranks) {
            q--;
        }
        return q;
    }

    private long volume(Params p) {
        long n = p.integer("n");
        return Math.round(p.real("cpoint") * 1e9 * n * n * n / p.ranks());
    }

    /** Seeded jitter with the noise resolved once (lambdas run once per call and must not parse parameters). */
    private record Jitter(double noise, long seed) {
        long apply(long t, int rank, int stream, long index) {
            return Noise.jitter(t, noise, seed, rank, stream, index);
        }
    }

    /** One sweep: a pipeline along chains given by position, predecessor and successor. */
    private Node sweep(ProgramBuilder b, Params p, Jitter j, String dim, int line, int q, ToIntFunction<Ctx> pos,
                       ToIntFunction<Ctx> pred, ToIntFunction<Ctx> succ, int stream) {
        long cell = p.duration("stage") + volume(p);
        long back = volume(p) / 2;
        long n = p.integer("n");
        long bytes = 8 * (n / q) * (n / q);
        int tf = 20 + stream;
        int tb = 30 + stream;
        return b.call(dim + "_solve", line,
                b.when(c -> pos.applyAsInt(c) > 0, b.seq(b.irecv(Program.WORLD, pred, c -> tf, c -> 0), b.await(c -> 0))),
                b.call(dim + "_solve_cell", line + 100,
                        b.compute(c -> j.apply(cell, c.rank(), ST_CELL * 8 + stream, c.iteration(0)))),
                b.when(c -> pos.applyAsInt(c) < q - 1, b.isend(Program.WORLD, succ, c -> tf, c -> bytes, c -> 1)),
                b.when(c -> pos.applyAsInt(c) < q - 1, b.seq(b.irecv(Program.WORLD, succ, c -> tb, c -> 2), b.await(c -> 2))),
                b.call(dim + "_backsubstitute", line + 200,
                        b.compute(c -> j.apply(back, c.rank(), ST_BACK * 8 + stream, c.iteration(0)))),
                b.when(c -> pos.applyAsInt(c) > 0, b.isend(Program.WORLD, pred, c -> tb, c -> bytes, c -> 3)),
                b.waitall(c -> 1, c -> 3));
    }

    @Override
    protected Program program(Params p) {
        int ranks = p.ranks();
        int q = q(ranks);
        long n = p.integer("n");
        long face = 40 * (n / q) * (n / q);
        long vol = volume(p);
        long imbalance = Math.round(p.real("imbalance") * 1e9 * (Math.log(ranks) / Math.log(2)));
        Jitter j = new Jitter(noise(p), p.seed());
        ProgramBuilder b = new ProgramBuilder("bt.f").requestSlots(12);
        int row = b.newCommSlot();
        // neighbours on the q x q torus: left, right, up, down
        ToIntFunction<Ctx> left = c -> c.rank() / q * q + (c.rank() % q + q - 1) % q;
        ToIntFunction<Ctx> right = c -> c.rank() / q * q + (c.rank() % q + 1) % q;
        ToIntFunction<Ctx> up = c -> (c.rank() / q + q - 1) % q * q + c.rank() % q;
        ToIntFunction<Ctx> down = c -> (c.rank() / q + 1) % q * q + c.rank() % q;
        Node copyFaces = b.call("copy_faces", 40, b.when(c -> q > 1, b.seq(
                b.irecv(Program.WORLD, left, c -> 10, c -> 4),
                b.irecv(Program.WORLD, right, c -> 11, c -> 5),
                b.irecv(Program.WORLD, up, c -> 12, c -> 6),
                b.irecv(Program.WORLD, down, c -> 13, c -> 7),
                b.isend(Program.WORLD, right, c -> 10, c -> face, c -> 8),
                b.isend(Program.WORLD, left, c -> 11, c -> face, c -> 9),
                b.isend(Program.WORLD, down, c -> 12, c -> face, c -> 10),
                b.isend(Program.WORLD, up, c -> 13, c -> face, c -> 11),
                b.waitall(c -> 4, c -> 8))));
        Node x = sweep(b, p, j, "x", 60, q, c -> c.rank() % q,
                c -> c.rank() - 1, c -> c.rank() + 1, 0);
        Node y = sweep(b, p, j, "y", 70, q, c -> c.rank() / q,
                c -> c.rank() - q, c -> c.rank() + q, 1);
        Node z = sweep(b, p, j, "z", 80, q, c -> c.rank() / q,
                c -> (c.rank() / q - 1) * q + (c.rank() % q + q - 1) % q,
                c -> (c.rank() / q + 1) * q + (c.rank() % q + 1) % q, 2);
        Node adi = b.call("adi", 30,
                copyFaces,
                b.call("compute_rhs", 50, b.compute(c -> j.apply(vol, c.rank(), ST_RHS, c.iteration(0)))),
                x, y, z,
                b.call("add", 90, b.compute(c -> j.apply(vol / 2, c.rank(), ST_ADD, c.iteration(0)))));
        return b.program("main", 10,
                b.commSplit(Program.WORLD, c -> c.rank() / q, c -> c.rank() % q, row),
                b.call("initialize", 20, b.compute(c ->
                        j.apply(vol + (c.rank() % 2 == 1 ? imbalance : 0), c.rank(), ST_INIT, 0))),
                b.barrier(Program.WORLD),
                b.loop(p.count("niter", 0, 1 << 24), adi),
                b.call("verify", 100, b.allreduce(row, c -> 40), b.reduce(Program.WORLD, 0, c -> 40)));
    }

    @Override
    protected void expect(Params p, ExpectedBuilder e) {
        e.modelLevel();
        String mean = "mean exclusive time per rank";
        List<ExpectedSeverities.Callsite> bad = new ArrayList<>(List.of(
                site(path("MPI_Comm_split"), mean, "increasing", "ceil(log2 p) × latency + 8(p − 1)/bandwidth"),
                site(path("MPI_Barrier"), mean, "increasing", "imbalance × log2(p) / 2")));
        List<ExpectedSeverities.Callsite> good = new ArrayList<>(List.of(
                site(path("adi", "compute_rhs"), mean, "decreasing", "cpoint × n³ / p"),
                site(path("adi", "add"), mean, "decreasing", "cpoint × n³ / (2p)")));
        for (String d : List.of("x", "y", "z")) {
            bad.add(site(path("adi", d + "_solve", "MPI_Wait"), mean, "increasing",
                    "pipeline fill ≈ (sqrt(p) − 1) × (stage + cpoint × n³/p)"));
            good.add(site(path("adi", d + "_solve", d + "_solve_cell"), mean, "decreasing", "stage + cpoint × n³ / p"));
        }
        e.scaling(new ExpectedSeverities.Scaling(bad, good,
                Map.of("n", p.real("n"), "cpoint", p.real("cpoint"), "stage", p.real("stage"), "imbalance", p.real("imbalance")),
                null, null));
        e.note("model-level: the trends hold for noise-free runs at square p; with noise they hold for the means over repetitions");
    }
}
