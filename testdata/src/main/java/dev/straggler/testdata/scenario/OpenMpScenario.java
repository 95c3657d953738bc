package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.ThreadModel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A hybrid MPI+OpenMP scenario: every rank runs {@code threads} OpenMP threads (its master, thread 0, and workers
 * 1 … T−1), forks them in parallel regions, and calls MPI only on the master outside parallel regions. Its program is
 * {@code main}: MPI_Init_thread, {@code reps} repetitions of the scenario's kernels, MPI_Finalize; the kernels fork
 * right when they are entered and leave right after the join, so no serial code hides in them.
 *
 * <p>The closed forms cover, besides the MPI wait states, every OpenMP metric of docs/openmp.md
 * ({@link Metrics#OPENMP}) per call path, rank and thread, from the simulator's cost model ({@link ThreadModel},
 * the network) and Scalasca 2.6's rules, on the recorded (possibly skewed) timestamps:
 * <ul>
 *   <li>{@code omp_fork} of thread t at a parallel region: enter − fork = {@code omp.fork + t·omp.fork_stagger};
 *   {@code omp_management}: that plus join − leave = {@code omp.join} (§4);</li>
 *   <li>waits at a barrier: latest entry − own entry (§5.1); lock contention: release of the previous acquisition −
 *   own entry into {@code !$omp critical}, when positive (§5.2);</li>
 *   <li>{@code omp_idle_threads}: each worker gets its master's exclusive time on every call path outside parallel
 *   regions (§3.2): MPI_Init_thread, MPI_Finalize and the scenario's serial code; {@code omp_limited_parallelism}
 *   is 0, since every thread spends join − fork in each region.</li>
 * </ul>
 */
abstract class OpenMpScenario extends SimulatedScenario {
    static final List<String> INIT_THREAD = List.of("main", "MPI_Init_thread");

    OpenMpScenario(String name, String description, List<ParamSpec> own, Map<String, String> commonDefaults,
                   Map<String, String> ompDefaults) {
        super(name, description, false, withTeam(own, ompDefaults), commonDefaults);
    }

    private static List<ParamSpec> withTeam(List<ParamSpec> own, Map<String, String> d) {
        List<ParamSpec> l = new ArrayList<>(own);
        l.add(new ParamSpec("threads", d.getOrDefault("threads", "4"), "OpenMP threads per rank (the team of every parallel region)"));
        l.add(new ParamSpec("omp.fork", d.getOrDefault("omp.fork", "2e-6"), "time from THREAD_FORK to the master's entry into the parallel region, s"));
        l.add(new ParamSpec("omp.fork_stagger", d.getOrDefault("omp.fork_stagger", "0"), "each thread enters the region this much later than the previous one, s"));
        l.add(new ParamSpec("omp.join", d.getOrDefault("omp.join", "1e-6"), "time from the master's leave of the region to THREAD_JOIN, s"));
        l.add(new ParamSpec("omp.barrier", d.getOrDefault("omp.barrier", "5e-7"), "time from the last thread's entry into a barrier to when all leave it, s"));
        return l;
    }

    static int threads(Params p) {
        return p.count("threads", 1, 1024);
    }

    @Override
    protected final ThreadModel threadModel(Params p) {
        return new ThreadModel(p.duration("omp.fork"), p.duration("omp.fork_stagger"), p.duration("omp.join"),
                p.duration("omp.barrier"));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        threads(p);
        threadModel(p);
    }

    /**
     * The program between MPI_Init_thread and MPI_Finalize, in closed form.
     *
     * @param team the ranks' clocks (true time each leaves MPI_Init_thread; to be advanced to when each enters
     *             MPI_Finalize) and the OpenMP bookkeeping
     */
    protected abstract void timeline(Params p, ExpectedBuilder e, Team team);

    /** Expectations beyond the wait states and the OpenMP metrics (none by default). */
    protected void more(Params p, ExpectedBuilder e) {
    }

    @Override
    protected final void expect(Params p, ExpectedBuilder e) {
        e.covers(Metrics.OPENMP);
        long[] clock = ClosedForm.init(p, e, INIT_THREAD);
        Team team = new Team(p, e, clock);
        for (int r = 0; r < p.ranks(); r++) {
            team.serial(r, INIT_THREAD, 0, clock[r]);
        }
        timeline(p, e, team);
        long[] enter = clock.clone();
        long[] leave = ClosedForm.finalize(p, e, clock);
        for (int r = 0; r < p.ranks(); r++) {
            team.serial(r, ClosedForm.FINALIZE, enter[r], leave[r]);
        }
        more(p, e);
    }

    /** A call path from the root: [main, names...]. */
    static List<String> path(String... names) {
        return RootCauseScenario.path(names);
    }

    /** The same call path extended by more names. */
    static List<String> under(List<String> path, String... names) {
        List<String> l = new ArrayList<>(path);
        l.addAll(List.of(names));
        return l;
    }

    /** The region names OPARI2 gives a construct at {@code line} of {@code file}. */
    static String construct(String construct, String file, int line) {
        return construct + " @" + file + ":" + line;
    }

    /**
     * The closed forms of the team's timestamps and the OpenMP metrics they give, on the ranks' recorded clocks.
     * Times are true (simulated) times; every duration Scalasca would measure is taken between recorded
     * timestamps ({@link ExpectedBuilder#obs}).
     */
    static final class Team {
        final int threads;
        final ThreadModel model;
        /** Per rank, the master's true time. */
        final long[] clock;
        private final ExpectedBuilder e;

        Team(Params p, ExpectedBuilder e, long[] clock) {
            this.threads = threads(p);
            this.model = new ThreadModel(p.duration("omp.fork"), p.duration("omp.fork_stagger"),
                    p.duration("omp.join"), p.duration("omp.barrier"));
            this.clock = clock;
            this.e = e;
        }

        long obs(int rank, long t) {
            return e.obs(rank, t);
        }

        /** The master runs serial code on {@code path} from {@code from} to {@code to}: idle time of every worker. */
        void serial(int rank, List<String> path, long from, long to) {
            long d = obs(rank, to) - obs(rank, from);
            for (int t = 1; t < threads; t++) {
                e.add(Metrics.OMP_IDLE_THREADS, path, rank, t, d);
            }
        }

        /** Per thread, the true time it enters a parallel region forked at {@code fork}. */
        long[] enter(long fork) {
            long[] enter = new long[threads];
            for (int t = 0; t < threads; t++) {
                enter[t] = fork + model.forkTime(t);
            }
            return enter;
        }

        /**
         * A barrier entered by thread t at {@code enter[t]} (true times): books the waits at {@code path} and returns
         * when every thread leaves it.
         */
        long barrier(int rank, List<String> path, String metric, long[] enter) {
            long latest = Arrays.stream(enter).max().orElseThrow();
            for (int t = 0; t < threads; t++) {
                e.add(metric, path, rank, t, obs(rank, latest) - obs(rank, enter[t]));
            }
            return latest + model.barrier();
        }

        /**
         * A parallel region at {@code path} forked at {@code fork}, entered at {@code enter[t]}, left by every thread
         * at {@code leave}: books thread management and returns the master's join time.
         */
        long management(int rank, List<String> path, long fork, long[] enter, long leave) {
            long join = leave + model.join();
            for (int t = 0; t < threads; t++) {
                long f = Math.max(0, obs(rank, enter[t]) - obs(rank, fork));
                long j = Math.max(0, obs(rank, join) - obs(rank, leave));
                e.add(Metrics.OMP_FORK, path, rank, t, f);
                e.add(Metrics.OMP_MANAGEMENT, path, rank, t, f + j);
            }
            return join;
        }
    }
}
