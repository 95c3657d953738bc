package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;
import java.util.Map;

/**
 * An OpenMP imbalance that becomes an MPI wait state (the pattern of BT-MZ, where the zones' thread imbalance
 * delays the boundary exchange). Every rank repeats {@code reps} times: {@code solve}, a parallel region in which
 * every thread runs {@code work} for w = {@code work} s, except thread s = {@code slow_thread} of rank 0, which
 * works w + δ (δ = {@code delta}); then {@code exchange} on the master: rank 0 sends a message of {@code bytes}
 * (MPI_Send) to ranks 1, 2, …, p−1 in turn, each of which receives it (MPI_Recv) right after its own region.
 *
 * <h2>Wait states (any parameters; exact values from the cost model)</h2>
 * With the defaults (no latency, no call overhead, no OpenMP overheads) every repetition starts on all ranks at
 * once, and per repetition:
 * <ul>
 *   <li>on rank 0 every thread t ≠ s reaches the implicit barrier δ before thread s: {@code omp_ibarrier_wait} = δ
 *   at [main, solve, !$omp parallel, !$omp implicit barrier] (rank 0, each t ≠ s);</li>
 *   <li>rank 0's master sends δ after the receivers entered MPI_Recv: {@code mpi_latesender} = δ at
 *   [main, exchange, MPI_Recv] on every rank j ≥ 1;</li>
 *   <li>meanwhile the receivers' workers idle: {@code omp_idle_threads} = δ at [main, exchange, MPI_Recv] on every
 *   worker of every rank j ≥ 1 (the master's time in MPI_Recv is serial time);</li>
 *   <li>the message leaves every rank at the same instant, so the next repetition starts together again.</li>
 * </ul>
 * Other parameters (latency, overhead, {@code omp.*}) add their terms; the expectation computes them exactly.
 *
 * <h2>Root causes by Scalasca 2.6's rules</h2>
 * Derived by hand for the default, ideal parameters (no latency, call overhead, exit stagger, OpenMP overheads, a
 * 0-byte message, true clocks; δ > 0, so that thread s alone is last at the barrier), from {@code Delay.MPI.pattern}, {@code Delay.OMP.pattern},
 * {@code OmpDelayOps.cpp}, {@code CriticalPath.pattern}, {@code SynchpointHandler.cpp} and
 * {@code TmapCacheHandler.cpp}; the expectation lists them for these parameters only.
 * Let R = {@code reps}, T = {@code threads}, W = [main, solve, !$omp parallel, work]. For s ≥ 1:
 * <ul>
 *   <li><b>Late Sender, short-term.</b> At rank 0's send to j the synchronisation interval runs from the previous
 *   synchronisation point shared with j (its previous send to j, or MPI_Init_thread) and holds on rank 0's master w
 *   at W and δ at the implicit barrier; that δ is a wait state (an OpenMP barrier is a synchronisation point of its
 *   thread, wait δ), so it is subtracted: the sender's map is {W: w}, the receiver's {W: w} (its previous
 *   MPI_Recv pruned by its own duration). No difference: {@code delay_latesender} = 0, and the whole wait is
 *   propagated: scale = min(δ / (0 + δ), 1) = 1.</li>
 *   <li><b>Long-term costs carried to the barrier.</b> Each of the p−1 receivers adds 1·δ to the long-term Late
 *   Sender cost of rank 0's master's barrier wait ({@code DelayCostMap}), (p−1)·δ per repetition. Each receiver's
 *   master waited δ in serial code, which left its T−1 workers idle: at its next fork (or at the end of the trace)
 *   Scalasca's {@code DELAY_OMPIDLE} finds that wait in the serial interval, (T−1)·δ becomes the receive's
 *   long-term idleness cost, which the Late Sender passes to rank 0 with scale (T−1)δ/δ: (p−1)(T−1)·δ on the
 *   master's barrier wait per repetition.</li>
 *   <li><b>OpenMP barrier.</b> At the implicit barrier the latest thread is s. Each thread's interval runs from the
 *   fork: s holds {W: w + δ}, every other thread {W: w}, difference {W: δ}, scale = input / δ. With the waiting
 *   time as input (δ for each t ≠ s): {@code delay_ompbarrier} = (T−1)·δ at W on rank 0 thread s. With the long-term
 *   costs as input (only the master has any): {@code delay_latesender_longterm} = (p−1)·δ and
 *   {@code delay_ompidle_longterm} = (p−1)(T−1)·δ at W on rank 0 thread s. Thread s waits nowhere, so nothing
 *   propagates further: {@code delay_ompbarrier_longterm} = 0.</li>
 *   <li><b>Idle threads.</b> The serial intervals between a join and the next fork hold no delay (the sends take no
 *   time, a receiver's MPI_Recv is all wait state): {@code delay_ompidle} = 0.</li>
 *   <li><b>Critical path.</b> Everybody enters MPI_Finalize at once; MPI_MAXLOC's tie gives rank 0, whose master
 *   carries the path back to the implicit barrier (its δ there is a wait state and is subtracted); the barrier hands
 *   it to the thread without waiting time, s, which carries it to the fork (w + δ at W); the fork hands it back to
 *   the master, which crosses the sends (their receivers are off the path) to the previous barrier, and so on down to
 *   MPI_Init_thread. {@code critical_path} = R·(w + δ) at W on rank 0 thread s, the whole run.</li>
 * </ul>
 * Summed over the run each of these is R times the per-repetition value. For s = 0 the master itself is late: no
 * barrier wait on the master, so the sender's interval keeps {W: δ} more than the receiver's and
 * {@code delay_latesender} = R·(p−1)·δ at W on rank 0 thread 0 (scale 1); the idleness costs give
 * {@code delay_ompidle_longterm} = R·(p−1)(T−1)·δ there; {@code delay_ompbarrier} = R·(T−1)·δ, {@code critical_path}
 * = R·(w + δ) at W on thread 0; no Late Sender long-term cost.
 */
final class HybridLateSenderScenario extends OpenMpScenario {
    static final String FILE = "hybrid_exchange.c";
    static final String SOLVE = "solve";
    static final String WORK = "work";
    static final String EXCHANGE = "exchange";
    private static final int PARALLEL_LINE = 22;
    private static final int END_LINE = 26;
    private static final int TAG = 5;
    private static final Map<String, String> IDEAL_NETWORK = Map.of("latency", "0", "overhead", "0");
    private static final Map<String, String> FREE_TEAM = Map.of("omp.fork", "0", "omp.join", "0", "omp.barrier", "0");

    /** The root-cause metrics the closed form gives (Scalasca's rules across threads, docs/openmp.md §6). */
    static final List<String> ROOT_CAUSES = List.of(Metrics.DELAY_LATESENDER, Metrics.DELAY_LATESENDER_LONGTERM,
            Metrics.DELAY_OMPBARRIER, Metrics.DELAY_OMPBARRIER_LONGTERM, Metrics.DELAY_OMPIDLE,
            Metrics.DELAY_OMPIDLE_LONGTERM, Metrics.CRITICAL_PATH);

    HybridLateSenderScenario() {
        super("hybrid-omp-to-late-sender",
                "hybrid, BT-MZ-like: one thread of rank 0 works delta longer, so its team waits at the implicit barrier (omp_ibarrier_wait = delta) and every other rank waits delta in MPI_Recv for rank 0's message (mpi_latesender); and Scalasca's root causes across threads and ranks",
                List.of(new ParamSpec("reps", "3", "repetitions of solve and exchange"),
                        new ParamSpec("work", "0.01", "work of every thread in solve, s"),
                        new ParamSpec("delta", "0.005", "extra work of rank 0's slow thread, s"),
                        new ParamSpec("slow_thread", "1", "the slow thread of rank 0 (0 = its master)"),
                        new ParamSpec("bytes", "0", "message size, bytes")),
                IDEAL_NETWORK, FREE_TEAM);
    }

    @Override
    public int minRanks() {
        return 2;
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        p.count("reps", 0, 1_000_000);
        p.duration("work");
        p.duration("delta");
        p.count("slow_thread", 0, threads(p) - 1);
        if (p.integer("bytes") < 0) {
            throw p.bad("bytes", "must not be negative");
        }
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder(FILE).threads(threads(p));
        long work = p.duration("work");
        long delta = p.duration("delta");
        int slow = p.count("slow_thread", 0, threads(p) - 1);
        long bytes = p.integer("bytes");
        return b.program("main", 10, b.loop(p.count("reps", 0, 1_000_000),
                b.call(SOLVE, 20, b.parallel(PARALLEL_LINE, END_LINE,
                        b.call(WORK, 40, b.compute(c -> work + (c.rank() == 0 && c.thread() == slow ? delta : 0))))),
                b.call(EXCHANGE, 30, b.when(c -> c.rank() == 0,
                        b.loop(c -> c.size() - 1, b.send(Program.WORLD, c -> c.iteration(1) + 1, TAG, c -> bytes)),
                        b.recv(Program.WORLD, c -> 0, TAG)))));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, Team team) {
        int n = p.ranks();
        long work = p.duration("work");
        long delta = p.duration("delta");
        int slow = p.count("slow_thread", 0, team.threads - 1);
        long bytes = p.integer("bytes");
        NetworkModel net = p.network();
        List<String> parallel = path(SOLVE, construct("!$omp parallel", FILE, PARALLEL_LINE));
        List<String> implicit = under(parallel, construct("!$omp implicit barrier", FILE, END_LINE));
        List<String> send = path(EXCHANGE, MpiCall.SEND.regionName());
        List<String> recv = path(EXCHANGE, MpiCall.RECV.regionName());
        for (int k = 0; k < p.count("reps", 0, 1_000_000); k++) {
            for (int r = 0; r < n; r++) {
                long fork = team.clock[r];
                long[] enter = team.enter(fork);
                long[] done = new long[team.threads];
                for (int t = 0; t < team.threads; t++) {
                    done[t] = enter[t] + work + (r == 0 && t == slow ? delta : 0);
                }
                long leave = team.barrier(r, implicit, Metrics.OMP_IBARRIER_WAIT, done);
                team.clock[r] = team.management(r, parallel, fork, enter, leave);
            }
            long t = team.clock[0];
            for (int j = 1; j < n; j++) {
                long posted = team.clock[j];
                long[] l = MessageModel.blocking(net, MpiCall.SEND, bytes, t, posted);
                e.receives(j).receive(recv, 0, e.obs(0, t),
                        ScalascaRules.lateSender(e.obs(0, t), e.obs(j, posted), e.obs(j, l[1])));
                e.add(Metrics.LATE_RECEIVER, send, 0,
                        ScalascaRules.lateReceiver(e.obs(0, t), e.obs(0, l[0]), e.obs(j, posted)));
                team.serial(0, send, t, l[0]);
                team.serial(j, recv, posted, l[1]);
                team.clock[j] = l[1];
                t = l[0];
            }
            team.clock[0] = t;
        }
    }

    /**
     * Whether the root-cause closed forms apply: the ideal network, free OpenMP overheads, 0 bytes, true clocks, and
     * δ > 0 (without it no thread is late: every thread of a team would carry the critical path).
     */
    private static boolean ideal(Params p) {
        NetworkModel net = p.network();
        return p.duration("delta") > 0 && net.latency() == 0 && net.overhead() == 0 && net.exitStagger() == 0 && p.integer("skew.rank") < 0
                && p.duration("omp.fork") == 0 && p.duration("omp.fork_stagger") == 0 && p.duration("omp.join") == 0
                && p.duration("omp.barrier") == 0 && p.integer("bytes") == 0;
    }

    @Override
    protected void more(Params p, ExpectedBuilder e) {
        if (!ideal(p)) {
            e.note("Scalasca's root causes are predicted only with delta > 0, latency=0, overhead=0, stagger=0, bytes=0,"
                    + " true clocks and omp.fork=omp.fork_stagger=omp.join=omp.barrier=0");
            return;
        }
        e.covers(ROOT_CAUSES);
        int n = p.ranks();
        int threads = threads(p);
        int slow = p.count("slow_thread", 0, threads - 1);
        double reps = p.count("reps", 0, 1_000_000);
        double w = p.duration("work");
        double delta = p.duration("delta");
        List<String> work = path(SOLVE, construct("!$omp parallel", FILE, PARALLEL_LINE), WORK);
        // the waiting threads' δ each, charged to the slow thread's extra work
        e.addShare(Metrics.DELAY_OMPBARRIER, work, 0, slow, reps * (threads - 1) * delta);
        // the receivers' idle workers: (T - 1)·δ per receiver, carried by the Late Sender to rank 0
        e.addShare(Metrics.DELAY_OMPIDLE_LONGTERM, work, 0, slow, reps * (n - 1) * (threads - 1) * delta);
        // a late master delays the sends itself (short-term); a late worker through the master's barrier wait
        e.addShare(slow == 0 ? Metrics.DELAY_LATESENDER : Metrics.DELAY_LATESENDER_LONGTERM, work, 0, slow,
                reps * (n - 1) * delta);
        e.addShare(Metrics.CRITICAL_PATH, work, 0, slow, reps * (w + delta));
    }
}
