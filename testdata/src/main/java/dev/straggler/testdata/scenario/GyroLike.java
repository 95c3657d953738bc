package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Noise;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A GYRO-like time-stepping code: MPI_COMM_WORLD is split into sub-communicators of at most {@code group} ranks
 * (colour = rank / group); each step computes the nonlinear term, transposes with MPI_Alltoall inside the
 * sub-communicator, and solves the field with an MPI_Allreduce on MPI_COMM_WORLD.
 *
 * <p>The {@code units} work units are dealt to ranks in the order (rank mod group, rank / group), so when p does
 * not divide {@code units} the extra units land on the low ranks of <em>every</em> sub-communicator: the
 * imbalance, and so Wait at N×N in the transpose, appears inside the sub-communicators. At p = 128 (which divides
 * the default 2048 units) there is none; at p = 192 every sub-communicator waits one unit per step — the
 * "128 vs 192" comparison. The closed form is exact, noise included (the jitter is a hash of seed, rank and step).
 */
final class GyroLike extends FamilyScenario {
    private static final int STREAM_NL = 1;
    private static final int STREAM_FIELD = 2;

    GyroLike() {
        super("gyro-like", "GYRO-like steps: Alltoall in sub-communicators of <= 16 ranks whose Wait at N x N appears when p does not divide the work (128 vs 192)",
                List.of(new ParamSpec("units", "2048", "work units of the nonlinear term, dealt to ranks"),
                        new ParamSpec("unit", "2e-5", "time per work unit, s"),
                        new ParamSpec("steps", "10", "time steps"),
                        new ParamSpec("group", "16", "largest sub-communicator size"),
                        new ParamSpec("field", "0.004", "field-solve work at p = 1, s (divided by p)"),
                        new ParamSpec("bytes", "4194304", "transpose volume per rank at p = 1, bytes (divided by p, per peer)"),
                        new ParamSpec("noise", "0", "relative amplitude of the seeded jitter of every computation")),
                Map.of(), List.of(32, 64, 128, 192));
    }

    @Override
    protected List<String> problemParameters() {
        return List.of("units", "steps", "group");
    }

    private int group(Params p) {
        return Math.min(p.count("group", 1, 1 << 20), p.ranks());
    }

    /** Units per rank: dealt in the order (rank mod group, rank / group). */
    private int[] units(Params p) {
        int n = p.ranks();
        int g = group(p);
        long total = p.integer("units");
        Integer[] order = new Integer[n];
        for (int r = 0; r < n; r++) {
            order[r] = r;
        }
        Arrays.sort(order, (a, b) -> a % g != b % g ? Integer.compare(a % g, b % g) : Integer.compare(a / g, b / g));
        int[] u = new int[n];
        long extra = total % n;
        for (int i = 0; i < n; i++) {
            u[order[i]] = (int) (total / n + (i < extra ? 1 : 0));
        }
        return u;
    }

    /** The computations' durations, resolved once: lambdas run once per call and must not parse parameters. */
    private record Work(int[] units, long unit, long field, double noise, long seed) {
        long nl(int rank, int step) {
            return Noise.jitter(units[rank] * unit, noise, seed, rank, STREAM_NL, step);
        }

        long field(int rank, int step) {
            return Noise.jitter(field, noise, seed, rank, STREAM_FIELD, step);
        }
    }

    private Work work(Params p) {
        return new Work(units(p), p.duration("unit"), p.duration("field") / p.ranks(), noise(p), p.seed());
    }

    private long perPeer(Params p) {
        return Math.max(8, p.integer("bytes") / p.ranks());
    }

    @Override
    protected Program program(Params p) {
        Work w = work(p);
        int g = group(p);
        long perPeer = perPeer(p);
        ProgramBuilder b = new ProgramBuilder("gyro.f90");
        int sub = b.newCommSlot();
        Node split = b.commSplit(Program.WORLD, c -> c.rank() / g, c -> c.rank(), sub);
        Node step = b.call("timestep", 120,
                b.call("nl_compute", 300, b.compute(c -> w.nl(c.rank(), c.iteration(0)))),
                b.call("transpose", 400, b.alltoall(sub, c -> perPeer)),
                b.call("field_solve", 500, b.compute(c -> w.field(c.rank(), c.iteration(0))),
                        b.allreduce(Program.WORLD, c -> 256)));
        return b.program("main", 10, split, b.loop(p.count("steps", 0, 1 << 24), step));
    }

    @Override
    protected void expect(Params p, ExpectedBuilder e) {
        int n = p.ranks();
        Work w = work(p);
        int g = group(p);
        long perPeer = perPeer(p);
        long[] clock = ClosedForm.init(p, e);
        ClosedForm.splitWorld(p, clock);
        List<int[]> groups = new java.util.ArrayList<>();
        for (int first = 0; first < n; first += g) {
            int[] m = new int[Math.min(g, n - first)];
            for (int i = 0; i < m.length; i++) {
                m[i] = first + i;
            }
            groups.add(m);
        }
        int[] world = ClosedForm.identity(n);
        List<String> transpose = path("timestep", "transpose", "MPI_Alltoall");
        List<String> allreduce = path("timestep", "field_solve", "MPI_Allreduce");
        for (int s = 0; s < p.count("steps", 0, 1 << 24); s++) {
            for (int r = 0; r < n; r++) {
                clock[r] += w.nl(r, s);
            }
            for (int[] m : groups) {
                ClosedForm.collective(p, e, MpiCall.ALLTOALL, m, clock, perPeer, -1, transpose);
            }
            for (int r = 0; r < n; r++) {
                clock[r] += w.field(r, s);
            }
            ClosedForm.collective(p, e, MpiCall.ALLREDUCE, world, clock, 256, -1, allreduce);
        }
        ClosedForm.finalize(p, e, clock);
        long total = p.integer("units");
        e.scaling(new ExpectedSeverities.Scaling(
                List.of(site(transpose, "mpi_wait_nxn summed over ranks", "increasing from p=128 to p=192",
                        "per step, unit × (max units in the sub-communicator − own units); zero when p divides units")),
                List.of(site(path("timestep", "nl_compute"), "mean exclusive time per rank", "decreasing",
                        "≈ units/p × unit per step")),
                Map.of("units", (double) total, "unit", p.real("unit"), "group", (double) g), null, null));
    }
}
