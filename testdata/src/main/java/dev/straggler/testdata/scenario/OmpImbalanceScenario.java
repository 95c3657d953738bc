package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;

/**
 * Load imbalance between the threads of an OpenMP team (the omp-kernels trace's {@code k1_explicit_barrier} and
 * {@code k2_unbalanced_for}). Every rank repeats {@code reps} times: {@code imbalance_kernel} forks a team of T
 * threads; thread t runs {@code work} for {@code work + t·delta} s, then meets the team at an explicit
 * {@code !$omp barrier} (explicit variant) or at the region's implicit barrier (implicit variant).
 *
 * <p>Closed form, per repetition, with s = {@code omp.fork_stagger} (thread t enters the region s·t after the
 * master) and δ = {@code delta}: thread t reaches the barrier (f + t·s + w + t·δ) after the fork, so it waits
 * (T−1−t)·(δ + s) there: {@code omp_ebarrier_wait} (resp. {@code omp_ibarrier_wait}) at
 * [main, imbalance_kernel, !$omp parallel, !$omp barrier (implicit barrier)] = (T−1−t)·δ per repetition at the
 * default s = 0. In the explicit variant the team leaves the explicit barrier together and waits 0 at the implicit
 * one. Thread management and idle threads as {@link OpenMpScenario} gives them; no MPI wait state besides the
 * MPI_Init_thread / MPI_Finalize frame (the ranks never communicate).
 */
final class OmpImbalanceScenario extends OpenMpScenario {
    static final String FILE = "omp_imbalance.c";
    static final String KERNEL = "imbalance_kernel";
    static final String WORK = "work";
    private static final int PARALLEL_LINE = 22;
    private static final int END_LINE = 28;
    private static final int BARRIER_LINE = 27;

    private final boolean explicit;

    OmpImbalanceScenario(String name, String description, boolean explicit) {
        super(name, description, List.of(
                new ParamSpec("reps", "3", "parallel regions per rank"),
                new ParamSpec("work", "0.01", "work of thread 0 per region, s"),
                new ParamSpec("delta", "0.002", "thread t works t·delta longer than thread 0, s")),
                Map.of(), Map.of());
        this.explicit = explicit;
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        p.count("reps", 0, 1_000_000);
        p.duration("work");
        p.duration("delta");
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder(FILE).threads(threads(p));
        long work = p.duration("work");
        long delta = p.duration("delta");
        Node w = b.call(WORK, 40, b.compute(c -> work + c.thread() * delta));
        Node region = explicit ? b.parallel(PARALLEL_LINE, END_LINE, w, b.ompBarrier(BARRIER_LINE))
                : b.parallel(PARALLEL_LINE, END_LINE, w);
        return b.program("main", 10, b.loop(p.count("reps", 0, 1_000_000), b.call(KERNEL, 20, region)));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, Team team) {
        long work = p.duration("work");
        long delta = p.duration("delta");
        List<String> parallel = path(KERNEL, construct("!$omp parallel", FILE, PARALLEL_LINE));
        List<String> barrier = under(parallel, construct("!$omp barrier", FILE, BARRIER_LINE));
        List<String> implicit = under(parallel, construct("!$omp implicit barrier", FILE, END_LINE));
        int reps = p.count("reps", 0, 1_000_000);
        for (int r = 0; r < p.ranks(); r++) {
            for (int k = 0; k < reps; k++) {
                long fork = team.clock[r];
                long[] enter = team.enter(fork);
                long[] arrive = new long[team.threads];
                for (int t = 0; t < team.threads; t++) {
                    arrive[t] = enter[t] + work + t * delta;
                }
                if (explicit) {
                    long leave = team.barrier(r, barrier, Metrics.OMP_EBARRIER_WAIT, arrive);
                    java.util.Arrays.fill(arrive, leave);
                }
                long leave = team.barrier(r, implicit, Metrics.OMP_IBARRIER_WAIT, arrive);
                team.clock[r] = team.management(r, parallel, fork, enter, leave);
            }
        }
    }
}
