package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.List;

/**
 * One rank runs more distinct routines between two synchronisation points than Scalasca 2.6's time maps hold, so
 * that their bound decides which routines lie on the critical path and which have a local time. After MPI_Init the
 * rank {@code busy} calls N = {@code routines} leaf routines r_1 … r_N (region names {@code r_1} …) one after the
 * other, then, if {@code revisit} = x &gt; 0, r_1 once more for x; there is no time in main between the calls. The
 * other ranks go straight to MPI_Barrier and wait for it. Then every rank calls {@code write_output} ({@code tail}
 * s; the rank {@code writer}: {@code tail + tail_extra} s) and MPI_Finalize. With {@code order=ascending} r_i lasts
 * d_i = max(i − 1, 1)·u, so d = u, u, 2u, 3u, …, (N − 1)u (the two first tie); with {@code order=descending}
 * d_i = max(N − i, 1)·u, the same durations in reverse (the two last tie). u = {@code unit}; x is 0 or above
 * (N − 1)u.
 *
 * <h2>The rule</h2>
 * Scalasca keeps every call-path time map ({@code timemap_t}) in a {@code fixed_priority_map<Callpath::IdType,
 * double, 128>}: at most 128 entries sorted by call-path id. A call path new to a full map waits in an overflow
 * slot and, at the next access, replaces the smallest entry (the first smallest in id order) if its value is
 * strictly larger; otherwise it is dropped. An evicted call path that comes back starts from zero. It bites twice
 * here: in the map of the interval between MPI_Init and MPI_Barrier while the busy rank's routines are booked into
 * it (each routine's time at its Leave, in call order; zero additions make no entry, and main gets none), and in
 * {@code getRuntimes} summing the cached intervals in order, each interval's entries in ascending id order, into the
 * whole-run local time profile. Call-path ids are the order in which the unified call tree's nodes are first met
 * (locations in order, each depth-first in the order children were first entered): only the busy rank calls the
 * routines, in order, so r_1 &lt; r_2 &lt; … in id.
 *
 * <h2>Closed form</h2>
 * Ideal network of {@link RootCauseScenario} (MPI_Init, MPI_Barrier and MPI_Finalize take no time beyond their
 * waiting). e = busy, t = writer (t ≠ e), f = tail, γ = tail_extra, N ≥ 129, D = Σ d_i + x = u(1 + N(N − 1)/2) + x.
 * <ul>
 *   <li>Timeline: e enters MPI_Barrier at D, every other rank at 0 and waits D; write_output ends at D + f, on t γ
 *   later, so every other rank waits γ at MPI_Finalize. e's interval between MPI_Init and MPI_Barrier holds only
 *   the routines; the interval after the barrier holds write_output f; MPI_Finalize's γ of waiting falls into the
 *   interval after its mark.</li>
 *   <li>The interval map: the set K of 128 routines it keeps, k_i the value of r_i ∈ K, s the smallest of K and
 *   σ = k_s. Ascending: after r_j (j ≥ 128) the map holds r_{j−127} … r_j. For j = 128 the smallest entries are r_1
 *   and r_2 (both u): the first in id order, r_1, gives way to r_129 (128u &gt; u); for j &gt; 128 the smallest is
 *   r_{j−127} alone and d_{j+1} = ju is larger. So after r_N the map holds r_{N−127} … r_N (at N = 129 the tie alone
 *   decides: r_1 lost, r_2 kept; the last smallest in id order would lose r_2). The revisit then brings r_1 back,
 *   new to the full map, from zero: x is larger than every entry, so it replaces r_{N−127}. Hence K = {r_{N−127} …
 *   r_N}, k_i = d_i, s = r_{N−127}, σ = max(N − 128, 1)u without revisit; K = {r_1} ∪ {r_{N−126} … r_N}, k_1 = x
 *   (not u + x: r_1's first call is lost), k_i = d_i otherwise, s = r_{N−126}, σ = (N − 127)u with it.
 *   Descending: r_1 … r_128 fill the map, the smallest being r_128 with max(N − 128, 1)u; every later d_i is at most
 *   that (at N = 129, d_129 = u equals it: not strictly larger, dropped), and the revisit adds to r_1, which is in
 *   the map: K = {r_1 … r_128}, k_1 = d_1 + x, k_i = d_i otherwise, s = r_128, σ = max(N − 128, 1)u. S_K = Σ_K k_i.
 *   </li>
 *   <li>Critical path: it starts on t, the last to enter MPI_Finalize, books write_output f + γ and its barrier
 *   less its wait (0), moves to e at the barrier, which never waits, and books e's map from MPI_Init to the barrier:
 *   the interval map. critical_path: k_i at r_i ∈ K on e, f + γ at write_output on t; in all S_K + f + γ, shorter
 *   than the run (D + f + γ) by the time the interval map lost. Routines outside K are on no path.</li>
 *   <li>Local times (getRuntimes over the whole run less the wait map). e: the interval map's 128 routines in id
 *   order, then write_output f, new to a full map: it replaces s if f &gt; σ (call this A), else it is dropped;
 *   then MPI_Finalize's γ, dropped as γ ≤ σ (a parameter rule) is not above the smallest entry (with A that is
 *   min(f, second smallest of K) &gt; σ). So e has k_i at K \ {s}, σ at s unless A, f at write_output if A.
 *   t: write_output f + γ (the barrier's time is its wait). Every other rank: write_output f (the barrier and
 *   MPI_Finalize hold only their waits). These maps hold four call paths, far from the bound.</li>
 *   <li>critical_path_activities = min(gcpath, ltimes) where gcpath &gt; 0: on e k_i at K \ {s}, at s 0 with A (the
 *   routine is on the path, but e's local time there was evicted) else σ, at write_output f with A else 0; on t
 *   write_output f + γ; on every other rank write_output f. non_critical_path_activities: none (no local time
 *   exceeds the path's).</li>
 *   <li>critical_imbalance_impact (excess max(gcpath − ltimes, 0) scaled to gcplen − lplen, here equal: scale 1):
 *   e's excess is {s: σ, write_output: γ} with A, {write_output: f + γ} without; t's is {r_i: k_i for K}; every
 *   other rank's {r_i: k_i for K, write_output: γ}. Handed to the holders: r_i ∈ K on e (p − 1)k_i, at s p·σ with
 *   A; write_output on t (p − 1)γ, plus f without A.</li>
 *   <li>inter_partition_imbalance (headroom: gcpath of the call paths a rank has no local time on, scaled to
 *   gcplen − lp, here by 1): e's headroom is {s: σ} with A, {write_output: f + γ} without; t's and every other
 *   rank's {r_i: k_i for K}. Handed to the holders: r_i ∈ K on e (p − 1)k_i, at s p·σ with A; write_output on t
 *   f + γ without A, else 0. Without the bound e would run every routine of the path: an empty headroom,
 *   hrf = 0/0 and no inter-partition imbalance anywhere (as in {@code critical-path-extra-routine}).</li>
 *   <li>intra_partition_imbalance = impact − inter: 0 at the routines; at write_output on t (p − 1)γ with A,
 *   (p − 2)γ without.</li>
 *   <li>critical_path_imbalance (CubePL, with the busy time from the exclusive time, which no map bounds): at
 *   r_i ∈ K on e k_i − T_i/p, T_i = d_i (r_1: d_1 + x); at write_output on t γ(p − 1)/p.</li>
 * </ul>
 * Ties: Scalasca books durations as differences of timestamps converted to seconds, so equal durations booked at
 * different times are equal doubles only when the timestamps are exact binary fractions (multiples of 1/512 s =
 * 5^9 ns); the scenario rejects parameters whose result would rest on a tie otherwise. The tie of r_1 and r_2 is
 * always exact (fl(2y) − fl(y) = fl(y) from time 0).
 *
 * <p>With the defaults (N = 130 ascending, u = 0.1 ms, x = 20 ms, f = 1 ms, γ = 0.2 ms, e = 1, t = 0) on 4 ranks:
 * D = 858.6 ms; r_2, r_3 and r_1's first 0.1 ms are lost, K = {r_1 (20 ms)} ∪ {r_4 … r_130} (S_K = 858.2 ms),
 * s = r_4 (0.3 ms) and A holds. The path is 858.2 ms of routines on rank 1 and 1.2 ms of write_output on rank 0
 * (859.4 ms, while rank 0 enters MPI_Finalize at 859.8 ms); r_4 has 0.3 ms on the path, no activities and 1.2 ms
 * of imbalance impact, all of it inter-partition; write_output 0.6 ms of impact, all intra-partition.
 */
final class ManyRoutinesScenario extends RootCauseScenario {
    /** Scalasca's {@code timemap_t} capacity. */
    static final int MAP_ENTRIES = 128;
    static final String OUTPUT = "write_output";

    ManyRoutinesScenario() {
        super("critical-path-many-routines",
                "rank 'busy' runs 'routines' (> 128) distinct short routines before MPI_Barrier, the others wait: Scalasca's 128-entry time maps drop the smallest from the critical path and from the busy rank's local times",
                List.of(new ParamSpec("routines", "130", "distinct routines of the busy rank (at least 129)"),
                        new ParamSpec("unit", "0.0001", "duration step u, s (positive): routine durations are u, u, 2u, ..., (N-1)u"),
                        new ParamSpec("order", "ascending", "ascending (u, u, 2u, ...) or descending (..., 2u, u, u) durations in call order"),
                        new ParamSpec("revisit", "0.02", "after r_N the busy rank calls r_1 again for this long, s (0: not at all; else above (N-1) x unit)"),
                        new ParamSpec("busy", "1", "the rank that runs the routines"),
                        new ParamSpec("tail", "0.001", "write_output of every rank but the writer, s (positive)"),
                        new ParamSpec("tail_extra", "0.0002", "the writer's extra write_output, s (positive, at most the smallest routine the busy rank's map keeps: max(N-128, 1) x unit, or (N-127) x unit ascending with a revisit)"),
                        new ParamSpec("writer", "0", "the rank that writes longest (not the busy rank)")));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        if (rank(p, "busy") == rank(p, "writer")) {
            throw p.bad("writer", "must differ from busy");
        }
        int n = routines(p);
        p.choice("order", "ascending", "descending");
        p.positiveDuration("unit");
        long revisit = p.duration("revisit");
        if (revisit != 0 && revisit <= (n - 1) * p.duration("unit")) {
            throw p.bad("revisit", "must be 0 or longer than every routine (above (routines - 1) x unit)");
        }
        p.positiveDuration("tail");
        long gamma = p.duration("tail_extra");
        long sMin = smallestKept(p, n);
        if (gamma == 0 || gamma > sMin) {
            throw p.bad("tail_extra", "must be positive and at most the smallest routine the busy rank's time map "
                    + "keeps (" + seconds(sMin) + " s here), so that MPI_Finalize never enters that full map");
        }
        // a tie between durations booked at different times is decided by the rounding of the seconds
        if (!exactSeconds(p)) {
            String why = " unless unit, tail, tail_extra and revisit are multiples of 1/512 s: it ties with the "
                    + "smallest routine the time map keeps, and which of two durations booked at different times is "
                    + "larger is then decided by rounding";
            if (!ascending(p) && n == MAP_ENTRIES + 1) {
                throw p.bad("routines", "must exceed 129 in descending order" + why);
            }
            if (p.duration("tail") == sMin) {
                throw p.bad("tail", "must not equal " + seconds(sMin) + " s" + why);
            }
            if (p.duration("tail") < sMin && gamma == sMin) {
                throw p.bad("tail_extra", "must be below " + seconds(sMin) + " s" + why);
            }
        }
    }

    /**
     * Whether every timestamp is an exact binary fraction of a second: a multiple of 5^9 ns = 1/512 s divided by
     * 10^9 ticks per second is exact in a double, and so are the differences Scalasca books (Sterbenz). Then equal
     * durations are equal doubles wherever they are booked; otherwise only at the start of the run (r_1 and r_2
     * from time 0: fl(2x) − fl(x) = fl(x)).
     */
    private static boolean exactSeconds(Params p) {
        long binary = 1_953_125; // 5^9 ticks
        return p.duration("unit") % binary == 0 && p.duration("tail") % binary == 0
                && p.duration("tail_extra") % binary == 0 && p.duration("revisit") % binary == 0;
    }

    private static String seconds(long ticks) {
        return java.math.BigDecimal.valueOf(ticks, 9).stripTrailingZeros().toPlainString();
    }

    private static int routines(Params p) {
        return p.count("routines", MAP_ENTRIES + 1, 10_000);
    }

    private static boolean ascending(Params p) {
        return p.choice("order", "ascending", "descending").equals("ascending");
    }

    /** d_i of routine r_i (1-based), ticks. */
    private static long duration(Params p, int n, int i) {
        long u = p.duration("unit");
        return (ascending(p) ? Math.max(i - 1, 1) : Math.max(n - i, 1)) * u;
    }

    /** Whether r_1 is called again after r_N. */
    private static boolean revisits(Params p) {
        return p.duration("revisit") > 0;
    }

    /** The index of s, the smallest routine the interval map keeps (derivation in the class comment). */
    private static int smallest(Params p, int n) {
        return !ascending(p) ? MAP_ENTRIES : n - MAP_ENTRIES + (revisits(p) ? 2 : 1);
    }

    /** s_min, ticks: the interval map's value of s. */
    private static long smallestKept(Params p, int n) {
        return duration(p, n, smallest(p, n));
    }

    /**
     * The interval map's value of r_i, ticks, or -1 when r_i is not in it (K and its values in the class comment).
     */
    private static long kept(Params p, int n, int i) {
        long x = p.duration("revisit");
        if (!ascending(p)) {
            return i > MAP_ENTRIES ? -1 : duration(p, n, i) + (i == 1 ? x : 0);
        }
        if (i == 1 && x > 0) {
            return x; // evicted by r_129, back from zero
        }
        return i >= smallest(p, n) ? duration(p, n, i) : -1;
    }

    static String routine(int i) {
        return "r_" + i;
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("many_routines.c");
        int n = routines(p);
        int busy = rank(p, "busy");
        int writer = rank(p, "writer");
        long tail = p.duration("tail");
        long tailExtra = p.duration("tail_extra");
        long revisit = p.duration("revisit");
        Node[] calls = new Node[revisit > 0 ? n + 1 : n];
        for (int i = 1; i <= n; i++) {
            calls[i - 1] = b.call(routine(i), 100 + i, b.compute(duration(p, n, i)));
        }
        if (revisit > 0) {
            calls[n] = b.call(routine(1), 101, b.compute(revisit));
        }
        return b.program("main", 10,
                b.when(c -> c.rank() == busy, b.seq(calls)),
                b.barrier(Program.WORLD),
                b.call(OUTPUT, 50, b.compute(c -> tail + (c.rank() == writer ? tailExtra : 0))));
    }

    @Override
    protected void timeline(Params p, ExpectedBuilder e, long[] clock) {
        int n = routines(p);
        int busy = rank(p, "busy");
        int writer = rank(p, "writer");
        for (int i = 1; i <= n; i++) {
            clock[busy] += duration(p, n, i);
        }
        clock[busy] += p.duration("revisit");
        ClosedForm.collective(p, e, MpiCall.BARRIER, ClosedForm.identity(p.ranks()), clock, 0, -1,
                path(MpiCall.BARRIER.regionName()));
        for (int r = 0; r < p.ranks(); r++) {
            clock[r] += p.duration("tail") + (r == writer ? p.duration("tail_extra") : 0);
        }
    }

    @Override
    protected List<String> rootCauseMetrics() {
        return Metrics.CRITICAL_PATH_METRICS;
    }

    @Override
    protected void rootCauses(Params p, ExpectedBuilder e) {
        int ranks = p.ranks();
        int n = routines(p);
        int busy = rank(p, "busy");
        int writer = rank(p, "writer");
        double f = p.duration("tail");
        double gamma = p.duration("tail_extra");
        double sMin = smallestKept(p, n);
        int s = smallest(p, n);
        // A: write_output, new to the busy rank's full whole-run map, is larger than its smallest entry s
        boolean admitted = f > sMin;
        List<String> output = path(OUTPUT);

        for (int i = 1; i <= n; i++) {
            long k = kept(p, n, i);
            if (k < 0) {
                continue; // lost from the interval map: on no path, no local time, no metric at all
            }
            List<String> r = path(routine(i));
            double d = k;
            boolean evicted = admitted && i == s; // on the path, but not in the busy rank's local times
            e.addShare(Metrics.CRITICAL_PATH, r, busy, d);
            // the CubePL definition takes the busy time from the exclusive time, which no map bounds
            double time = duration(p, n, i) + (i == 1 ? p.duration("revisit") : 0);
            e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, r, busy, d - time / ranks);
            double activities = evicted ? 0 : d;
            double impact = (ranks - 1) * d + (evicted ? d : 0);
            for (String m : List.of(Metrics.CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                    Metrics.PERFORMANCE_IMPACT)) {
                e.addShare(m, r, busy, activities);
            }
            for (String m : List.of(Metrics.CRITICAL_IMBALANCE_IMPACT, Metrics.INTER_PARTITION_IMBALANCE,
                    Metrics.PERFORMANCE_IMPACT_CRITICALPATH, Metrics.PERFORMANCE_IMPACT)) {
                e.addShare(m, r, busy, impact);
            }
        }

        e.addShare(Metrics.CRITICAL_PATH, output, writer, f + gamma);
        e.addShare(Metrics.CRITICAL_PATH_IMBALANCE, output, writer, gamma * (ranks - 1) / ranks);
        for (int l = 0; l < ranks; l++) {
            double activities = l == writer ? f + gamma : l == busy ? (admitted ? f : 0) : f;
            for (String m : List.of(Metrics.CRITICAL_PATH_ACTIVITIES, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                    Metrics.PERFORMANCE_IMPACT)) {
                e.addShare(m, output, l, activities);
            }
        }
        double impact = (ranks - 1) * gamma + (admitted ? 0 : f);
        double inter = admitted ? 0 : f + gamma;
        for (String m : List.of(Metrics.CRITICAL_IMBALANCE_IMPACT, Metrics.PERFORMANCE_IMPACT_CRITICALPATH,
                Metrics.PERFORMANCE_IMPACT)) {
            e.addShare(m, output, writer, impact);
        }
        e.addShare(Metrics.INTER_PARTITION_IMBALANCE, output, writer, inter);
        e.addShare(Metrics.INTRA_PARTITION_IMBALANCE, output, writer, impact - inter);
    }
}
