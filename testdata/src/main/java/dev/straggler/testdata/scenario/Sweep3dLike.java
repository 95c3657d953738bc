package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Ctx;
import dev.straggler.testdata.sim.Noise;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * A Sweep3D-like wavefront, weak-scaled on a px × py grid (px the largest divisor of p not above sqrt(p)): every
 * iteration sweeps from the four corners; for each of {@code kblocks} blocks a rank receives from its upstream
 * neighbours in i and j (MPI_Recv), computes the block and sends downstream (MPI_Send). Each rank's first blocks
 * wait for the wavefront to arrive from the corner: cascading Late Senders whose pipeline fill grows with
 * px + py. {@code flux_err} ends the iteration with an MPI_Allreduce.
 *
 * <p>Designed to scale badly: the sweep's MPI_Recv (fill ≈ (px + py − 2) blocks per octant). Designed to scale
 * well: {@code compute_block}, constant per rank under weak scaling. Model-level expectation.
 */
final class Sweep3dLike extends FamilyScenario {
    private static final int[] DI = {1, -1, 1, -1};
    private static final int[] DJ = {1, 1, -1, -1};

    Sweep3dLike() {
        super("sweep3d-like", "Sweep3D-like wavefront from four corners, weak scaling: cascading late senders whose fill grows with px + py",
                List.of(new ParamSpec("iterations", "4", "source iterations"),
                        new ParamSpec("kblocks", "10", "pipelined blocks per octant"),
                        new ParamSpec("block", "2e-4", "work per block, s"),
                        new ParamSpec("bytes", "4096", "boundary message size, bytes")),
                Map.of(), List.of(1, 2, 4, 8, 16, 32, 64));
    }

    @Override
    protected List<String> problemParameters() {
        return List.of("iterations", "kblocks", "block");
    }

    static int px(int ranks) {
        int best = 1;
        for (int d = 1; (long) d * d <= ranks; d++) {
            if (ranks % d == 0) {
                best = d;
            }
        }
        return best;
    }

    @Override
    protected Program program(Params p) {
        int ranks = p.ranks();
        int px = px(ranks);
        int py = ranks / px;
        long block = p.duration("block");
        long bytes = p.integer("bytes");
        double noise = noise(p);
        int kblocks = p.count("kblocks", 1, 1 << 20);
        ProgramBuilder b = new ProgramBuilder("sweep.f");
        // loop depths: 0 iteration, 1 octant, 2 block
        ToIntFunction<Ctx> oct = c -> c.iteration(1);
        Predicate<Ctx> hasUpI = c -> inside(c.rank() % px - DI[oct.applyAsInt(c)], px);
        Predicate<Ctx> hasUpJ = c -> inside(c.rank() / px - DJ[oct.applyAsInt(c)], py);
        Predicate<Ctx> hasDownI = c -> inside(c.rank() % px + DI[oct.applyAsInt(c)], px);
        Predicate<Ctx> hasDownJ = c -> inside(c.rank() / px + DJ[oct.applyAsInt(c)], py);
        Node blockStep = b.seq(
                b.when(hasUpI, b.recv(Program.WORLD, c -> c.rank() - DI[oct.applyAsInt(c)], c -> oct.applyAsInt(c))),
                b.when(hasUpJ, b.recv(Program.WORLD, c -> c.rank() - DJ[oct.applyAsInt(c)] * px, c -> 10 + oct.applyAsInt(c))),
                b.call("compute_block", 200, b.compute(c -> Noise.jitter(block, noise, c.seed(), c.rank(), 1,
                        ((long) c.iteration(0) * 4 + c.iteration(1)) * kblocks + c.iteration(2)))),
                b.when(hasDownI, b.send(Program.WORLD, c -> c.rank() + DI[oct.applyAsInt(c)], c -> oct.applyAsInt(c), c -> bytes)),
                b.when(hasDownJ, b.send(Program.WORLD, c -> c.rank() + DJ[oct.applyAsInt(c)] * px, c -> 10 + oct.applyAsInt(c), c -> bytes)));
        Node iteration = b.seq(
                b.call("sweep", 100, b.loop(4, b.loop(kblocks, blockStep))),
                b.call("flux_err", 300, b.allreduce(Program.WORLD, c -> 8)));
        return b.program("main", 10, b.loop(p.count("iterations", 0, 1 << 24), iteration));
    }

    private static boolean inside(int v, int n) {
        return v >= 0 && v < n;
    }

    @Override
    protected void expect(Params p, ExpectedBuilder e) {
        e.modelLevel();
        int px = px(p.ranks());
        int py = p.ranks() / px;
        String mean = "mean exclusive time per rank";
        e.scaling(new ExpectedSeverities.Scaling(
                List.of(site(path("sweep", "MPI_Recv"), mean, "increasing",
                        "pipeline fill ≈ (px + py − 2) × (block + transfer) per octant")),
                List.of(site(path("sweep", "compute_block"), mean, "constant", "4 × kblocks × block per iteration")),
                Map.of("px", (double) px, "py", (double) py, "block", p.real("block")), null, null));
        e.note("model-level; weak scaling: every rank owns the same block whatever p");
    }
}
