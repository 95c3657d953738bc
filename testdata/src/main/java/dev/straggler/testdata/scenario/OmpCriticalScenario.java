package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.ProgramBuilder;
import dev.straggler.testdata.sim.Program;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Contention for an OpenMP critical section (the omp-kernels trace's {@code k3_critical}). Every rank repeats
 * {@code reps} times: {@code critical_kernel} forks a team of T threads, and every thread enters at once an
 * unnamed {@code !$omp critical} whose block runs {@code update} for {@code c} = {@code critical} s.
 *
 * <p>Closed form (docs/openmp.md §5.2): the threads request the lock in the order they enter the construct, ties by
 * thread number, so thread k is the (k+1)-th to acquire it in a region (with {@code omp.fork_stagger} s: thread k
 * enters k·s after the master). It acquires when the previous holder releases, and Scalasca measures its waiting
 * from its ENTER of {@code !$omp critical} to that release: with s = 0 (the default) thread k waits k·c per
 * repetition, {@code omp_lock_contention_critical} = k·c at [main, critical_kernel, !$omp parallel,
 * !$omp critical], T(T−1)/2·c per region and rank (in general max(0, k·c − k·s) while s ≤ c). The first acquisition
 * of a region waits for nothing: the previous one (order 1, 2, 3 … counts across the regions of a rank) was
 * released in the previous region, before it entered; the first one of the run has no previous acquisition. Thread
 * k then reaches the implicit barrier when it releases the lock, at (k+1)·c after the fork, and waits there
 * (T−1−k)·c ({@code omp_ibarrier_wait}).
 */
final class OmpCriticalScenario extends OpenMpScenario {
    static final String FILE = "omp_critical.c";
    static final String KERNEL = "critical_kernel";
    static final String UPDATE = "update";
    private static final int PARALLEL_LINE = 22;
    private static final int END_LINE = 30;
    private static final int CRITICAL_LINE = 24;
    private static final int CRITICAL_END = 28;

    OmpCriticalScenario() {
        super("omp-critical-contention",
                "hybrid: every thread of a rank's OpenMP team enters a critical section of length c at once: omp_lock_contention_critical = k x c for the k-th acquirer (k = 0 .. T-1) per region",
                List.of(new ParamSpec("reps", "3", "parallel regions per rank"),
                        new ParamSpec("critical", "0.001", "length of the critical section's block, s")),
                Map.of(), Map.of());
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        p.count("reps", 0, 1_000_000);
        p.duration("critical");
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder(FILE).threads(threads(p));
        long c = p.duration("critical");
        return b.program("main", 10, b.loop(p.count("reps", 0, 1_000_000), b.call(KERNEL, 20,
                b.parallel(PARALLEL_LINE, END_LINE,
                        b.critical(CRITICAL_LINE, CRITICAL_END, b.call(UPDATE, 40, b.compute(c)))))));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, Team team) {
        long c = p.duration("critical");
        int reps = p.count("reps", 0, 1_000_000);
        int n = team.threads;
        List<String> parallel = path(KERNEL, construct("!$omp parallel", FILE, PARALLEL_LINE));
        List<String> critical = under(parallel, construct("!$omp critical", FILE, CRITICAL_LINE));
        List<String> implicit = under(parallel, construct("!$omp implicit barrier", FILE, END_LINE));
        // requests in order of entry, ties by thread number
        Integer[] order = new Integer[n];
        for (int t = 0; t < n; t++) {
            order[t] = t;
        }
        for (int r = 0; r < p.ranks(); r++) {
            long released = Long.MIN_VALUE; // the previous acquisition's release; none before the first
            for (int k = 0; k < reps; k++) {
                long fork = team.clock[r];
                long[] enter = team.enter(fork);
                Arrays.sort(order, (a, b) -> enter[a] != enter[b] ? Long.compare(enter[a], enter[b]) : a - b);
                long[] done = new long[n];
                for (int t : order) {
                    if (released != Long.MIN_VALUE) {
                        e.add(Metrics.OMP_LOCK_CONTENTION_CRITICAL, critical, r, t,
                                team.obs(r, released) - team.obs(r, enter[t]));
                    }
                    long acquire = released == Long.MIN_VALUE ? enter[t] : Math.max(enter[t], released);
                    released = acquire + c;
                    done[t] = released;
                }
                long leave = team.barrier(r, implicit, Metrics.OMP_IBARRIER_WAIT, done);
                team.clock[r] = team.management(r, parallel, fork, enter, leave);
            }
        }
    }
}
