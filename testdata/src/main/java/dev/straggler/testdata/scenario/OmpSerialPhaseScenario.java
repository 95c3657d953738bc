package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;

/**
 * Serial code between parallel regions (the omp-kernels trace's {@code k5_serial}): every rank repeats {@code reps}
 * times {@code phase_a} (a parallel region in which every thread runs {@code work} for {@code work} s),
 * {@code serial_phase} ({@code serial} s on the master alone) and {@code phase_b} (like {@code phase_a}).
 *
 * <p>Closed form. Idle threads (docs/openmp.md §3.2): every worker gets its master's exclusive time on each call path
 * outside the parallel regions, so {@code omp_idle_threads} = reps·s at [main, serial_phase] on every worker
 * thread (s = {@code serial}), plus the master's MPI_Init_thread and MPI_Finalize time at their call paths; the
 * phases' own call paths hold no master time (the fork and join overheads move into the parallel regions), and
 * inside the regions every thread spends join − fork, so there is no limited parallelism. Thread management
 * (§4): thread t enters each region f + t·s' after the fork (f = {@code omp.fork}, s' = {@code omp.fork_stagger})
 * and every thread leaves it j = {@code omp.join} before the join: {@code omp_fork} = reps·(f + t·s') and
 * {@code omp_management} = reps·(f + t·s' + j) at each region's call path, thread t. The staggered start makes
 * thread t wait (T−1−t)·s' at each implicit barrier ({@code omp_ibarrier_wait}).
 */
final class OmpSerialPhaseScenario extends OpenMpScenario {
    static final String FILE = "omp_serial.c";
    static final String PHASE_A = "phase_a";
    static final String PHASE_B = "phase_b";
    static final String SERIAL = "serial_phase";
    static final String WORK = "work";
    private static final int A_LINE = 22;
    private static final int A_END = 25;
    private static final int B_LINE = 42;
    private static final int B_END = 45;

    OmpSerialPhaseScenario() {
        super("omp-serial-phase",
                "hybrid: the master runs 'serial' s alone between two parallel regions: omp_idle_threads = reps x serial on every worker at serial_phase; omp_fork, omp_management from the fork and join overheads",
                List.of(new ParamSpec("reps", "3", "repetitions of phase_a, serial_phase, phase_b"),
                        new ParamSpec("work", "0.01", "work of every thread in each parallel region, s"),
                        new ParamSpec("serial", "0.02", "the master's serial work between the regions, s")),
                Map.of(), Map.of("omp.fork", "5e-6", "omp.fork_stagger", "1e-6", "omp.join", "3e-6"));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        p.count("reps", 0, 1_000_000);
        p.duration("work");
        p.duration("serial");
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder(FILE).threads(threads(p));
        long work = p.duration("work");
        Node a = b.call(PHASE_A, 20, b.parallel(A_LINE, A_END, b.call(WORK, 60, b.compute(work))));
        Node s = b.call(SERIAL, 30, b.compute(p.duration("serial")));
        Node c = b.call(PHASE_B, 40, b.parallel(B_LINE, B_END, b.call(WORK, 60, b.compute(work))));
        return b.program("main", 10, b.loop(p.count("reps", 0, 1_000_000), a, s, c));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, Team team) {
        long work = p.duration("work");
        long serial = p.duration("serial");
        int reps = p.count("reps", 0, 1_000_000);
        List<String> a = path(PHASE_A, construct("!$omp parallel", FILE, A_LINE));
        List<String> b = path(PHASE_B, construct("!$omp parallel", FILE, B_LINE));
        List<String> serialPath = path(SERIAL);
        for (int r = 0; r < p.ranks(); r++) {
            for (int k = 0; k < reps; k++) {
                region(team, r, a, construct("!$omp implicit barrier", FILE, A_END), work);
                long start = team.clock[r];
                team.clock[r] += serial;
                team.serial(r, serialPath, start, team.clock[r]);
                region(team, r, b, construct("!$omp implicit barrier", FILE, B_END), work);
            }
        }
    }

    /** A balanced parallel region forked at the master's clock. */
    private static void region(Team team, int r, List<String> parallel, String barrier, long work) {
        long fork = team.clock[r];
        long[] enter = team.enter(fork);
        long[] done = new long[team.threads];
        for (int t = 0; t < team.threads; t++) {
            done[t] = enter[t] + work;
        }
        long leave = team.barrier(r, under(parallel, barrier), Metrics.OMP_IBARRIER_WAIT, done);
        team.clock[r] = team.management(r, parallel, fork, enter, leave);
    }
}
