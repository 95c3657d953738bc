package dev.straggler.patterns.algebra;

import dev.straggler.patterns.algebra.DiffReport.Change;
import dev.straggler.patterns.callsite.MpiCallKind;
import dev.straggler.patterns.cube.PathNames;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why the waiting changed from experiment B to experiment A: the change of the delay costs (docs/root-causes.md)
 * per delaying call path, split into short-term and propagated (long-term) costs, with the ranks that hold it.
 *
 * <p>Delay costs charge every wait state to the call paths on the processes that caused it, so their change per
 * call path says which activity the change of waiting comes from. The direction is that of the delay costs' net
 * change; the call paths that moved that way are the causes, and each one's share is its change over their summed
 * change (the gross growth or reduction), so shares lie in [0, 1] and add up to 1. What moved against the net
 * change is reported as {@link #offset}, never as a negative share.
 *
 * @param waiting   the wait states that delay costs explain (Late Sender, Late Receiver, Wait at Barrier, Wait at
 *                  N x N, Late Broadcast, Early Reduce), summed over call paths and ranks
 * @param delay     short-term plus long-term delay costs, summed over call paths and ranks
 * @param direction +1 when the delay costs grew, −1 when they shrank, 0 when unchanged
 * @param moved     the summed change of the causes (positive for growth, negative for a reduction): the share's
 *                  denominator
 * @param offset    the summed change of the call paths that moved the other way (0 or of the opposite sign)
 * @param sentence  the largest cause in one sentence, empty when nothing changed
 * @param causes    call paths whose delay costs moved in {@link #direction}, largest change first
 */
public record DelayCauses(Change waiting, Change delay, int direction, double moved, double offset, String sentence,
                          List<Cause> causes) {

    /**
     * One delaying call path.
     *
     * @param callPath   id in the unified call tree of the diff
     * @param path       region names from the root
     * @param label      the shortest end of the path that no other call path shares, starting at a non-MPI
     *                   function (the caller of an MPI call)
     * @param a          its delay costs in A (aggregate over ranks)
     * @param b          its delay costs in B
     * @param shortTerm  change of its short-term delay costs
     * @param propagated change of its long-term delay costs (delays that reached the waiting through other waiting)
     * @param share      {@code (a − b) / moved}, in [0, 1]
     * @param ranks      the ranks holding the change, largest first: where it changed most when A and B have the
     *                   same ranks, else where the delay is in {@link #ranksOf}; empty for collapsed operands
     * @param ranksOf    "" when {@link #ranks} are ranks of both operands, else "A" or "B"
     */
    public record Cause(int callPath, List<String> path, String label, double a, double b, double shortTerm,
                        double propagated, double share, List<Integer> ranks, String ranksOf) {
        public double diff() {
            return a - b;
        }
    }

    /** Whether there is anything to say: the delay costs or the waiting changed beyond rounding residue. */
    public boolean changed() {
        return direction != 0 || DiffReport.significant(waiting.diff(), waiting.a(), waiting.b()) != 0;
    }

    /** Whether both operands carry delay costs; when not, {@link #of} has nothing to say. */
    static boolean applies(SeverityCube a, SeverityCube b) {
        return CauseMetrics.carriesDelays(a) && CauseMetrics.carriesDelays(b);
    }

    /**
     * @param rankCounts the ranks A and B stand for (for per-rank means), −1 when unknown
     * @param grossUp    the gross growth of time, what an increase of waiting is a {@link Change#share()} of
     * @param grossDown  the gross reduction of time, what a decrease of waiting is a share of (delay costs are no
     *                   part of time and get no share)
     */
    static DelayCauses of(SeverityCube a, SeverityCube b, DimensionUnion u, int[] rankCounts, double grossUp,
                          double grossDown) {
        SeverityCube[] ops = {a, b};
        int nc = u.callPaths().size();
        double[][] shortTerm = new double[2][nc];
        double[][] longTerm = new double[2][nc];
        double[] waiting = new double[2];
        // per operand and call path: delay costs per rank
        List<List<Map<Integer, Double>>> byRank = new ArrayList<>();
        for (int op = 0; op < 2; op++) {
            SeverityCube c = ops[op];
            double f = aggregateFactor(c);
            List<Map<Integer, Double>> perPath = new ArrayList<>();
            for (int p = 0; p < nc; p++) {
                perPath.add(new TreeMap<>());
            }
            byRank.add(perPath);
            for (int k = 0; k < CauseMetrics.SHORT_TERM.size(); k++) {
                add(c, op, CauseMetrics.SHORT_TERM.get(k), f, u, shortTerm[op], perPath);
                add(c, op, CauseMetrics.LONG_TERM.get(k), f, u, longTerm[op], perPath);
                waiting[op] += f * CauseMetrics.explainedWaiting(c, k);
            }
        }
        double[] delay = new double[2];
        for (int p = 0; p < nc; p++) {
            delay[0] += shortTerm[0][p] + longTerm[0][p];
            delay[1] += shortTerm[1][p] + longTerm[1][p];
        }
        // rounding residue of a call path's sums is no change: it must not become a cause or an offset
        double[] d = new double[nc];
        double net = 0;
        for (int p = 0; p < nc; p++) {
            double diff = (shortTerm[0][p] + longTerm[0][p]) - (shortTerm[1][p] + longTerm[1][p]);
            d[p] = DiffReport.significant(diff, delay[0], delay[1]);
            net += d[p];
        }
        net = DiffReport.significant(net, delay[0], delay[1]);
        int dir = net > 0 ? 1 : net < 0 ? -1 : 0;
        double moved = 0;
        double offset = 0;
        for (int p = 0; p < nc; p++) {
            if (d[p] * dir > 0) {
                moved += d[p];
            } else if (d[p] * dir < 0) {
                offset += d[p];
            }
        }
        boolean same = SystemUnion.sameLocations(List.of(a, b));
        Labels labels = new Labels(u);
        List<Cause> causes = new ArrayList<>();
        for (int p = 0; p < nc; p++) {
            if (d[p] * dir <= 0) {
                continue;
            }
            double va = shortTerm[0][p] + longTerm[0][p];
            double vb = shortTerm[1][p] + longTerm[1][p];
            double share = Math.min(1, d[p] / moved);
            List<Integer> ranks;
            String of;
            if (same) {
                ranks = ranksWhere(byRank.get(0).get(p), byRank.get(1).get(p), dir);
                of = "";
            } else {
                int op = dir > 0 ? 0 : 1;
                ranks = ranksWhere(byRank.get(op).get(p), Map.of(), 1);
                of = ranks.isEmpty() ? "" : op == 0 ? "A" : "B";
            }
            causes.add(new Cause(p, u.pathNames(p), labels.of(p), va, vb, shortTerm[0][p] - shortTerm[1][p],
                    longTerm[0][p] - longTerm[1][p], share, ranks, of));
        }
        causes.sort(Comparator.comparingDouble((Cause c) -> -Math.abs(c.diff())).thenComparingInt(Cause::callPath));
        Change w = change(waiting[0], waiting[1], rankCounts, grossUp, grossDown);
        Change dl = change(delay[0], delay[1], rankCounts, 0, 0);
        return new DelayCauses(w, dl, dir, moved, offset, sentence(w, dir, offset, causes), List.copyOf(causes));
    }

    /** Adds one delay metric of operand {@code op} into the per-call-path sums and the per-rank maps. */
    private static void add(SeverityCube c, int op, String metric, double f, DimensionUnion u, double[] into,
                            List<Map<Integer, Double>> perRank) {
        int m = c.metricIndex(metric);
        if (m < 0) {
            return;
        }
        boolean perLocation = CubeAttributes.SYSTEM_LOCATIONS.equals(CubeAttributes.system(c));
        for (int p = 0; p < c.callPaths().size(); p++) {
            double[] row = c.rowOrNull(m, p);
            if (row == null) {
                continue;
            }
            int up = u.callPath(op, p);
            for (int l = 0; l < row.length; l++) {
                into[up] += f * row[l];
                if (perLocation && row[l] != 0) {
                    SystemLocation loc = c.locations().get(l);
                    perRank.get(up).merge(loc.rank(), row[l], Double::sum);
                }
            }
        }
    }

    /** A per-rank-mean cube holds sums divided by its ranks; delay costs are compared as sums. */
    private static double aggregateFactor(SeverityCube c) {
        int r = CubeAttributes.ranks(c);
        return CubeAttributes.SYSTEM_MEAN.equals(CubeAttributes.system(c)) && r > 0 ? r : 1;
    }

    /** Ranks where {@code a − b} moved in direction {@code dir}, largest change first (rank order on ties). */
    private static List<Integer> ranksWhere(Map<Integer, Double> a, Map<Integer, Double> b, int dir) {
        Map<Integer, Double> delta = new TreeMap<>(a);
        b.forEach((r, v) -> delta.merge(r, -v, Double::sum));
        List<Integer> out = new ArrayList<>();
        delta.forEach((r, v) -> {
            if (v * dir > 0) {
                out.add(r);
            }
        });
        out.sort(Comparator.comparingDouble((Integer r) -> -Math.abs(delta.get(r))).thenComparingInt(r -> r));
        return List.copyOf(out);
    }

    /**
     * Names the call paths for reports: the shortest end of a path that no other call path ends with, starting at a
     * non-MPI function, so that an MPI call is named together with its caller ({@code …/zran3/MPI_Allreduce}; the
     * leading "…/" says callers were left out).
     */
    static final class Labels {
        private final DimensionUnion u;
        private final Map<String, Integer> ends = new HashMap<>();

        Labels(DimensionUnion u) {
            this.u = u;
            for (int p = 0; p < u.callPaths().size(); p++) {
                List<String> names = u.pathNames(p);
                for (int from = 0; from < names.size(); from++) {
                    ends.merge(key(names, from), 1, Integer::sum);
                }
            }
        }

        String of(int p) {
            List<String> names = u.pathNames(p);
            int from = names.size() - 1;
            while (from > 0 && isMpi(p, names.size() - 1 - from)) {
                from--;
            }
            while (from > 0 && ends.getOrDefault(key(names, from), 0) > 1) {
                from--;
            }
            return PathNames.from(names, from);
        }

        private static String key(List<String> names, int from) {
            return String.join("\u0000", names.subList(from, names.size()));
        }

        /** Whether the node {@code up} levels above call path {@code p} is an MPI call. */
        private boolean isMpi(int p, int up) {
            int c = p;
            for (int i = 0; i < up; i++) {
                c = u.callPaths().get(c).parent();
            }
            return MpiCallKind.isMpi(u.regions().get(u.callPaths().get(c).region()));
        }
    }

    private static Change change(double va, double vb, int[] ranks, double grossUp, double grossDown) {
        double d = va - vb;
        double gross = d > 0 ? grossUp : grossDown;
        return new Change(va, vb, ranks[0] > 0 ? va / ranks[0] : Double.NaN, ranks[1] > 0 ? vb / ranks[1] : Double.NaN,
                d == 0 ? 0 : gross > 0 ? d / gross : Double.NaN);
    }

    private static String sentence(Change waiting, int dir, double offset, List<Cause> causes) {
        if (dir == 0 || causes.isEmpty()) {
            return "delay costs unchanged";
        }
        Cause top = causes.get(0);
        StringBuilder sb = new StringBuilder();
        sb.append("waiting ").append(Format.signed(waiting.diff(), "sec")).append("; of the ")
                .append(dir > 0 ? "growth" : "reduction").append(" in the delays causing it, ")
                .append(Format.share(top.share())).append(" is caused by `").append(top.label()).append('`');
        String ranks = ranks(top);
        if (!ranks.isEmpty()) {
            sb.append(" on ").append(ranks);
        }
        sb.append(": ").append(Format.signed(top.shortTerm(), "sec")).append(" short-term, ")
                .append(Format.signed(top.propagated(), "sec")).append(" propagated");
        if (offset != 0) {
            sb.append(String.format(Locale.ROOT, " (%s of delays %s elsewhere)", Format.signed(offset, "sec"),
                    dir > 0 ? "shrank" : "grew"));
        }
        return sb.toString();
    }

    /** "rank 3", "ranks 0, 14, 15 +2", "... of A"; empty when no rank is known. */
    static String ranks(Cause c) {
        List<Integer> r = c.ranks();
        if (r.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(r.size() == 1 ? "rank " : "ranks ");
        for (int i = 0; i < Math.min(3, r.size()); i++) {
            sb.append(i > 0 ? ", " : "").append(r.get(i));
        }
        if (r.size() > 3) {
            sb.append(" +").append(r.size() - 3);
        }
        if (!c.ranksOf().isEmpty()) {
            sb.append(" of ").append(c.ranksOf());
        }
        return sb.toString();
    }
}
