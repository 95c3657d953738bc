package dev.straggler.patterns.algebra;

import dev.straggler.patterns.callsite.MpiCallKind;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Region;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * What changed from experiment B to experiment A: per metric and call path the absolute difference, the change
 * relative to B and the share of the total time difference, plus a one-sentence headline such as
 * "total time +72.3 %; of the growth 66 % is Wait at N x N under `transpose`, 31 % is collective communication,
 * computation +1 %".
 *
 * <p>Values are aggregates over ranks (Cube's sum over the system tree): the whole run, per metric and call path. When
 * the operands' processes do not correspond (different rank counts, {@link #collapsed}) there is no per-process
 * difference to show; the report says so in one sentence ({@link #systemNote}) and gives per-process means (a run's
 * sum divided by its processes) beside the aggregates, since the aggregate of a run on more processes grows even
 * when nothing got worse per process. The critical path is the exception: summed over ranks it is the path's
 * length, so it has no per-process mean and no share of the time difference (both NaN).
 *
 * <p>Only metrics both operands carry are compared ({@link CauseMetrics#carried}): a metric one of them lacks, or
 * holds only as the zeros of an analysis without root causes, is named in {@link #notes} instead of showing up as
 * a change of −100 %. When both carry delay costs, {@link #causes} says which delaying call paths the change of
 * waiting comes from.
 *
 * @param minuend          name of A
 * @param subtrahend       name of B
 * @param collapsed        true when A and B differ in their locations, so only aggregates can be compared
 * @param systemNote       the sentence saying so ({@link #collapsedNote}), empty when the locations correspond
 * @param timeMetric       unique name of the time metric the shares refer to; null when the cubes have none
 * @param totalTime        the time metric summed over everything
 * @param headline         the one-sentence summary
 * @param topFinding       the (wait-state pattern, calling function) that moved most, null when none did
 * @param categories       the time metric split by the kind of region it was spent in (computation, collective, ...)
 * @param metrics          every metric's totals, in metric-tree order
 * @param callTree         the time metric per call path, call-path inclusive, in call-tree order
 * @param entries          every (metric, call path) with a non-zero value in A or B, call-path exclusive
 * @param causes           the change of the delay costs by delaying call path; null unless both carry delay costs
 * @param notes            what was left out of the comparison and why (metrics only one operand carries)
 */
public record DiffReport(String minuend, String subtrahend, int minuendRanks, int subtrahendRanks, boolean collapsed,
                         String systemNote, String timeMetric, Change totalTime, String headline, Finding topFinding,
                         List<CategoryChange> categories, List<MetricChange> metrics, List<CallNode> callTree,
                         List<Entry> entries, DelayCauses causes, List<String> notes, double grossGrowth,
                         double grossReduction) {

    /**
     * A pair of values with their difference.
     *
     * @param a          aggregate over ranks in A
     * @param b          aggregate over ranks in B
     * @param aPerRank   {@code a} divided by A's number of ranks, the per-process mean (NaN when unknown)
     * @param bPerRank   {@code b} divided by B's number of ranks
     * @param share      {@code (a − b)} as a fraction of the total time difference for time metrics, of the
     *                   metric's own total difference for counts and bytes; NaN when that difference is 0 and for
     *                   the critical path (a span of time, not part of the aggregate time)
     */
    public record Change(double a, double b, double aPerRank, double bPerRank, double share) {
        public double diff() {
            return a - b;
        }

        /** {@code (a − b) / b}; NaN when b is 0. */
        public double relative() {
            return b == 0 ? Double.NaN : (a - b) / b;
        }

        public double perRankDiff() {
            return aPerRank - bPerRank;
        }

        public double perRankRelative() {
            return bPerRank == 0 ? Double.NaN : (aPerRank - bPerRank) / bPerRank;
        }
    }

    /** A metric's totals; {@code depth} is its depth in the metric tree (0 for a root). */
    public record MetricChange(String metric, String displayName, String unit, int depth, Change change) {
    }

    /** One (metric, call path), call-path exclusive. */
    public record Entry(String metric, String displayName, String unit, int callPath, List<String> path, Change change) {
    }

    /** A node of the unified call tree with the time metric summed over its subtree. */
    public record CallNode(int id, int parent, int depth, String region, List<String> path, Change change) {
    }

    /** The time spent in one kind of region. */
    public record CategoryChange(MpiCallKind kind, Change change) {
    }

    /** A wait-state pattern summed over the call paths below one calling (non-MPI) function. */
    public record Finding(String metric, String displayName, String caller, Change change) {
    }

    /** Compares A with B. Neither cube is modified. */
    public static DiffReport of(SeverityCube a, SeverityCube b) {
        return new Builder(a, b).build();
    }

    /** Number formatting shared by the text renderer and the headline. */
    static String percent(double fraction, int decimals) {
        // a change that rounds to nothing has no sign ("-0.0 %" reads as a loss)
        return Format.unsignedZero(String.format(Locale.ROOT, "%+." + decimals + "f %%", 100 * fraction));
    }

    /**
     * The one sentence for operands whose processes do not correspond: what is compared instead of processes. With
     * {@code ranks} A's and B's rank counts (−1 when unknown) and {@code summary} the operands' systems in words
     * (used when the counts do not tell the difference).
     */
    public static String collapsedNote(int[] ranks, String summary) {
        String why = ranks[0] > 0 && ranks[1] > 0 && ranks[0] != ranks[1]
                ? "the runs have different numbers of processes (" + ranks[0] + " vs " + ranks[1] + ")"
                : "the runs' processes do not correspond (" + summary + ")";
        return why + ", so the difference is shown for the whole run (summed over processes) and per call path";
    }

    private static final class Builder {
        final SeverityCube a;
        final SeverityCube b;
        final DimensionUnion u;
        final double[][][] sums = new double[2][][];
        final double[] aggFactor = new double[2];
        final int[] ranks = new int[2];
        /** Per operand and unified metric: whether the operand carries it. */
        final boolean[][] carried = new boolean[2][];

        Builder(SeverityCube a, SeverityCube b) {
            this.a = a;
            this.b = b;
            this.u = DimensionUnion.of(List.of(a, b));
            SeverityCube[] ops = {a, b};
            for (int op = 0; op < 2; op++) {
                SeverityCube c = ops[op];
                ranks[op] = CubeAttributes.ranks(c);
                // A per-rank-mean cube holds sums divided by its ranks; bring it back to aggregates.
                aggFactor[op] = CubeAttributes.SYSTEM_MEAN.equals(CubeAttributes.system(c)) && ranks[op] > 0 ? ranks[op] : 1;
                boolean[] has = CauseMetrics.carried(c);
                carried[op] = new boolean[u.metrics().size()];
                // Rows only for metrics the operand has values of: most of Scalasca's metrics are zero everywhere.
                double[][] s = new double[u.metrics().size()][];
                for (int m = 0; m < c.metrics().size(); m++) {
                    carried[op][u.metric(op, m)] = has[m];
                    // the critical path's sum is its length, whatever the cube's system dimension
                    double f = CauseMetrics.isPath(c.metrics().get(m)) ? 1 : aggFactor[op];
                    for (int cp = 0; cp < c.callPaths().size(); cp++) {
                        double[] row = c.rowOrNull(m, cp);
                        if (row == null) {
                            continue;
                        }
                        int um = u.metric(op, m);
                        if (s[um] == null) {
                            s[um] = new double[u.callPaths().size()];
                        }
                        s[um][u.callPath(op, cp)] += f * c.sumOverLocations(m, cp);
                    }
                }
                sums[op] = s;
            }
        }

        /** Operand {@code op}'s aggregate of unified (metric, call path); 0 where it has none. */
        double sum(int op, int m, int c) {
            double[] row = sums[op][m];
            return row == null ? 0 : row[c];
        }

        /** Sum of every increase, and of every decrease, over the disjoint parts of time (set by {@link #build}). */
        double grossUp;
        double grossDown;

        /**
         * {@code totalDiff} is the change a share refers to; for time it is the net change, and the share is taken of
         * the gross growth instead (every part of time that grew, summed) when the change is an increase, of the gross
         * reduction when it is a decrease: a part can grow by more than the net growth where others shrank, and a
         * share above 100 % reads as impossible.
         */
        Change change(double va, double vb, double totalDiff) {
            double d = va - vb;
            double gross = d > 0 ? grossUp : grossDown;
            double share = totalDiff == 0 || d != 0 && gross <= 0 ? Double.NaN : d == 0 ? 0 : d / gross;
            return new Change(va, vb, ranks[0] > 0 ? va / ranks[0] : Double.NaN,
                    ranks[1] > 0 ? vb / ranks[1] : Double.NaN, share);
        }

        /** {@link #change} of a metric: the critical path has neither per-rank means nor a share of time. */
        Change change(Metric m, double va, double vb, double totalDiff) {
            return CauseMetrics.isPath(m) ? new Change(va, vb, Double.NaN, Double.NaN, Double.NaN)
                    : change(va, vb, totalDiff);
        }

        boolean both(int m) {
            return carried[0][m] && carried[1][m];
        }

        /**
         * Which metrics only one operand carries, a sentence per operand; when the other operand has no root causes
         * at all (analysed without them, or a profile), one sentence says so instead of listing them.
         */
        List<String> notes() {
            List<String> out = new ArrayList<>();
            String[] names = {"A", "B"};
            SeverityCube[] ops = {a, b};
            for (int op = 0; op < 2; op++) {
                boolean noneThere = !CauseMetrics.computed(ops[1 - op]);
                List<String> only = new ArrayList<>();
                boolean rootCauses = false;
                for (int m = 0; m < u.metrics().size(); m++) {
                    if (carried[op][m] && !carried[1 - op][m]) {
                        String n = u.metrics().get(m).uniqueName();
                        if (noneThere && CauseMetrics.isRootCause(n)) {
                            rootCauses = true;
                        } else {
                            only.add(n);
                        }
                    }
                }
                if (rootCauses) {
                    out.add("only " + names[op] + " has root causes: delay costs, propagation and critical path are not "
                            + "compared");
                }
                if (!only.isEmpty()) {
                    out.add("metrics only " + names[op] + " has are not compared: " + String.join(", ",
                            only.subList(0, Math.min(8, only.size()))) + (only.size() > 8 ? " +" + (only.size() - 8) : ""));
                }
            }
            return out;
        }

        DiffReport build() {
            List<Metric> metrics = u.metrics();
            int nm = metrics.size();
            int nc = u.callPaths().size();
            int time = timeMetric(metrics, this::both);
            double[] totA = new double[nm];
            double[] totB = new double[nm];
            for (int m = 0; m < nm; m++) {
                for (int c = 0; c < nc; c++) {
                    totA[m] += sum(0, m, c);
                    totB[m] += sum(1, m, c);
                }
            }
            double timeDiff = time < 0 ? 0 : significant(totA[time] - totB[time], totA[time], totB[time]);
            int[] parents = parents(metrics);
            boolean[] inTime = time < 0 ? new boolean[nm] : subtree(parents, time);
            if (time >= 0) {
                gross(parents, inTime);
            }
            double[] denominators = new double[nm];
            for (int m = 0; m < nm; m++) {
                // a count's or a byte total's share of its own change says nothing; time outside the time tree (delay
                // costs, the critical path) is no part of the time that changed
                denominators[m] = inTime[m] ? timeDiff : 0;
            }

            List<MetricChange> metricChanges = new ArrayList<>();
            for (int m : metricTreeOrder(metrics)) {
                Metric mt = metrics.get(m);
                if (!both(m)) {
                    continue;
                }
                metricChanges.add(new MetricChange(mt.uniqueName(), mt.displayName(), mt.unit(), depth(metrics, m),
                        change(mt, totA[m], totB[m], denominators[m])));
            }

            List<Entry> entries = new ArrayList<>();
            for (int m : metricTreeOrder(metrics)) {
                Metric mt = metrics.get(m);
                if (!both(m) || sums[0][m] == null && sums[1][m] == null) {
                    continue;
                }
                for (int c = 0; c < nc; c++) {
                    double va = sum(0, m, c);
                    double vb = sum(1, m, c);
                    if (va != 0 || vb != 0) {
                        entries.add(new Entry(mt.uniqueName(), mt.displayName(), mt.unit(), c, u.pathNames(c),
                                change(mt, va, vb, denominators[m])));
                    }
                }
            }

            List<CallNode> tree = new ArrayList<>();
            List<CategoryChange> categories = new ArrayList<>();
            Finding top = null;
            Change total = time < 0 ? change(0, 0, 0) : change(totA[time], totB[time], timeDiff);
            if (time >= 0) {
                tree = callTree(time, timeDiff);
                categories = categories(time, timeDiff);
                top = topFinding(timeDiff);
            }
            boolean collapsed = !SystemUnion.sameLocations(List.of(a, b));
            String note = collapsed
                    ? collapsedNote(ranks, SystemUnion.rankSummary(List.of(a, b), List.of("A", "B"))) : "";
            String headline = headline(time, total, timeDiff, top, categories, collapsed);
            DelayCauses causes = DelayCauses.applies(a, b) ? DelayCauses.of(a, b, u, ranks, grossUp, grossDown) : null;
            return new DiffReport(CubeAttributes.describe(a, "A"), CubeAttributes.describe(b, "B"), ranks[0], ranks[1],
                    collapsed, note, time < 0 ? null : metrics.get(time).uniqueName(), total, headline, top,
                    categories, metricChanges, tree, entries, causes, notes(), grossUp, grossDown);
        }

        /** Whether each metric is {@code root} or lies below it in the metric tree. */
        static boolean[] subtree(int[] parents, int root) {
            boolean[] out = new boolean[parents.length];
            for (int m = 0; m < parents.length; m++) {
                for (int x = m; x >= 0; x = parents[x]) {
                    if (x == root) {
                        out[m] = true;
                        break;
                    }
                }
            }
            return out;
        }

        /**
         * {@link #grossUp} and {@link #grossDown}: over the disjoint parts of time, each metric's own share (its value
         * less its children's, Cube's metric-inclusive convention) on each call path, the increases and the decreases
         * summed apart. Every row of the report is a sum of such parts, so its change never exceeds them.
         */
        void gross(int[] parents, boolean[] inTime) {
            int nc = u.callPaths().size();
            // only metrics with values take part; a child's value is taken from its nearest ancestor with values, so
            // a cube that leaves intermediate levels of the tree empty is cut into parts all the same
            int nm = parents.length;
            boolean[] data = new boolean[nm];
            for (int m = 0; m < nm; m++) {
                data[m] = inTime[m] && both(m) && (sums[0][m] != null || sums[1][m] != null);
            }
            double[][] self = new double[nm][];
            for (int m = 0; m < nm; m++) {
                if (!data[m]) {
                    continue;
                }
                double[] v = new double[nc];
                for (int c = 0; c < nc; c++) {
                    v[c] = sum(0, m, c) - sum(1, m, c);
                }
                self[m] = self[m] == null ? v : add(self[m], v);
                int parent = parents[m];
                while (parent >= 0 && !data[parent]) {
                    parent = parents[parent];
                }
                if (parent >= 0) {
                    double[] neg = new double[nc];
                    for (int c = 0; c < nc; c++) {
                        neg[c] = -v[c];
                    }
                    self[parent] = self[parent] == null ? neg : add(self[parent], neg);
                }
            }
            double up = 0;
            double down = 0;
            for (double[] v : self) {
                for (int c = 0; v != null && c < nc; c++) {
                    if (v[c] > 0) {
                        up += v[c];
                    } else {
                        down -= v[c];
                    }
                }
            }
            grossUp = up;
            grossDown = down;
        }

        private static double[] add(double[] a, double[] b) {
            for (int i = 0; i < a.length; i++) {
                a[i] += b[i];
            }
            return a;
        }

        List<CallNode> callTree(int time, double timeDiff) {
            int nc = u.callPaths().size();
            double[] inclA = sums[0][time] == null ? new double[nc] : sums[0][time].clone();
            double[] inclB = sums[1][time] == null ? new double[nc] : sums[1][time].clone();
            for (int c = nc - 1; c >= 0; c--) {
                int p = u.callPaths().get(c).parent();
                if (p >= 0) {
                    inclA[p] += inclA[c];
                    inclB[p] += inclB[c];
                }
            }
            List<CallNode> out = new ArrayList<>();
            List<List<Integer>> children = new ArrayList<>();
            for (int c = 0; c < nc; c++) {
                children.add(new ArrayList<>());
            }
            List<Integer> roots = new ArrayList<>();
            for (CallPath cp : u.callPaths()) {
                (cp.parent() < 0 ? roots : children.get(cp.parent())).add(cp.id());
            }
            // Depth-first, children in id order: the order a tree view prints them.
            java.util.ArrayDeque<int[]> stack = new java.util.ArrayDeque<>();
            for (int i = roots.size() - 1; i >= 0; i--) {
                stack.push(new int[]{roots.get(i), 0});
            }
            while (!stack.isEmpty()) {
                int[] top = stack.pop();
                int c = top[0];
                CallPath cp = u.callPaths().get(c);
                out.add(new CallNode(c, cp.parent(), top[1], u.regions().get(cp.region()).name(), u.pathNames(c),
                        change(inclA[c], inclB[c], timeDiff)));
                List<Integer> ch = children.get(c);
                for (int i = ch.size() - 1; i >= 0; i--) {
                    stack.push(new int[]{ch.get(i), top[1] + 1});
                }
            }
            return out;
        }

        List<CategoryChange> categories(int time, double timeDiff) {
            Map<MpiCallKind, double[]> byKind = new EnumMap<>(MpiCallKind.class);
            for (CallPath cp : u.callPaths()) {
                MpiCallKind k = MpiCallKind.of(u.regions().get(cp.region()));
                double[] v = byKind.computeIfAbsent(k, x -> new double[2]);
                v[0] += sum(0, time, cp.id());
                v[1] += sum(1, time, cp.id());
            }
            List<CategoryChange> out = new ArrayList<>();
            byKind.forEach((k, v) -> out.add(new CategoryChange(k, change(v[0], v[1], timeDiff))));
            return out;
        }

        Finding topFinding(double timeDiff) {
            if (timeDiff == 0) {
                return null;
            }
            Finding best = null;
            for (int m : WaitStatePatterns.topLevel(u.metrics())) {
                Map<String, double[]> byCaller = new HashMap<>();
                for (int c = 0; c < u.callPaths().size(); c++) {
                    double va = sum(0, m, c);
                    double vb = sum(1, m, c);
                    if (va != 0 || vb != 0) {
                        double[] v = byCaller.computeIfAbsent(caller(c), x -> new double[2]);
                        v[0] += va;
                        v[1] += vb;
                    }
                }
                for (Map.Entry<String, double[]> e : byCaller.entrySet()) {
                    double d = e.getValue()[0] - e.getValue()[1];
                    // Only what moved in the direction of the total counts as explaining it.
                    if (d * Math.signum(timeDiff) > 0 && (best == null || Math.abs(d) > Math.abs(best.change().diff()))) {
                        Metric mt = u.metrics().get(m);
                        best = new Finding(mt.uniqueName(), mt.displayName(), e.getKey(),
                                change(e.getValue()[0], e.getValue()[1], timeDiff));
                    }
                }
            }
            return best;
        }

        /** The nearest function on the path that is not an MPI call: where the programmer would look. */
        String caller(int callPath) {
            int c = callPath;
            while (c >= 0) {
                Region r = u.regions().get(u.callPaths().get(c).region());
                if (!MpiCallKind.isMpi(r)) {
                    return r.name();
                }
                c = u.callPaths().get(c).parent();
            }
            return u.regions().get(u.callPaths().get(callPath).region()).name();
        }

        String headline(int time, Change total, double timeDiff, Finding top, List<CategoryChange> categories,
                        boolean collapsed) {
            if (time < 0) {
                return "no time metric to compare";
            }
            StringBuilder sb = new StringBuilder();
            String name = "time".equals(u.metrics().get(time).uniqueName()) ? "total time"
                    : u.metrics().get(time).displayName().toLowerCase(Locale.ROOT);
            if (timeDiff == 0) {
                sb.append(name).append(" unchanged");
            } else if (total.b() == 0) {
                sb.append(name).append(" ").append(String.format(Locale.ROOT, "%+.4g s", total.diff()));
            } else {
                sb.append(name).append(' ').append(percent(total.relative(), 1));
            }
            if (collapsed && !Double.isNaN(total.perRankRelative())) {
                sb.append(" (summed over processes; per-process mean ").append(percent(total.perRankRelative(), 1))
                        .append(')');
            }
            if (timeDiff == 0) {
                return sb.toString();
            }
            List<String> parts = new ArrayList<>();
            // shares are signed (an increase of the gross growth, a decrease of the gross reduction): what moved with
            // the total explains it
            double sign = Math.signum(timeDiff);
            if (top != null && sign * top.change().share() >= 0.01) {
                parts.add(String.format(Locale.ROOT, "%.0f %% is %s under `%s`", 100 * sign * top.change().share(),
                        top.displayName(), top.caller()));
            }
            categories.stream()
                    .filter(c -> c.kind() != MpiCallKind.COMPUTATION && sign * c.change().share() >= 0.05)
                    .sorted(Comparator.comparingDouble((CategoryChange c) -> sign * c.change().share()).reversed())
                    .limit(3)
                    .forEach(c -> parts.add(String.format(Locale.ROOT, "%.0f %% is %s", 100 * sign * c.change().share(),
                            c.kind().description())));
            String computation = categories.stream().filter(c -> c.kind() == MpiCallKind.COMPUTATION)
                    .map(c -> c.change().relative()).filter(rel -> !Double.isNaN(rel))
                    .map(rel -> "computation " + percent(rel, Math.abs(rel) >= 0.01 ? 0 : 1)).findFirst().orElse(null);
            if (!parts.isEmpty()) {
                sb.append("; of the ").append(timeDiff > 0 ? "growth " : "reduction ").append(String.join(", ", parts));
                if (computation != null) {
                    sb.append(", ").append(computation);
                }
            } else if (computation != null) {
                sb.append("; ").append(computation);
            }
            return sb.toString();
        }
    }

    /**
     * A difference of two sums, or 0 when it is rounding residue (within 1e-9 of the larger operand): the same
     * values summed in another order must compare as unchanged, not give shares of ±10^17 %.
     */
    static double significant(double diff, double a, double b) {
        return Math.abs(diff) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) ? 0 : diff;
    }

    /**
     * Among the metrics both operands carry: "time" when present, else the first metric measured in seconds (that is
     * no critical path); -1 when none.
     */
    static int timeMetric(List<Metric> metrics, IntPredicate both) {
        int firstSec = -1;
        for (int i = 0; i < metrics.size(); i++) {
            if (!both.test(i)) {
                continue;
            }
            if ("time".equals(metrics.get(i).uniqueName())) {
                return i;
            }
            if (firstSec < 0 && "sec".equals(metrics.get(i).unit()) && !CauseMetrics.isPath(metrics.get(i))) {
                firstSec = i;
            }
        }
        return firstSec;
    }

    /** Each metric's parent as an index into {@code metrics}, −1 for a root (or a parent the list lacks). */
    static int[] parents(List<Metric> metrics) {
        Map<String, Integer> index = new HashMap<>();
        for (int m = 0; m < metrics.size(); m++) {
            index.put(metrics.get(m).uniqueName(), m);
        }
        int[] out = new int[metrics.size()];
        for (int m = 0; m < out.length; m++) {
            String p = metrics.get(m).parent();
            out[m] = p == null ? -1 : index.getOrDefault(p, -1);
        }
        return out;
    }

    static int depth(List<Metric> metrics, int m) {
        Map<String, String> parent = new HashMap<>();
        for (Metric x : metrics) {
            parent.put(x.uniqueName(), x.parent());
        }
        int d = 0;
        for (String p = metrics.get(m).parent(); p != null && d < metrics.size(); p = parent.get(p)) {
            d++;
        }
        return d;
    }

    /** Metrics depth-first from the roots, children in definition order. */
    static List<Integer> metricTreeOrder(List<Metric> metrics) {
        List<Integer> out = new ArrayList<>();
        boolean[] seen = new boolean[metrics.size()];
        for (int i = 0; i < metrics.size(); i++) {
            String p = metrics.get(i).parent();
            boolean root = p == null || metrics.stream().noneMatch(x -> x.uniqueName().equals(p));
            if (root) {
                visit(metrics, i, out, seen);
            }
        }
        for (int i = 0; i < metrics.size(); i++) {
            if (!seen[i]) {
                out.add(i);
            }
        }
        return out;
    }

    private static void visit(List<Metric> metrics, int m, List<Integer> out, boolean[] seen) {
        if (seen[m]) {
            return;
        }
        seen[m] = true;
        out.add(m);
        for (int i = 0; i < metrics.size(); i++) {
            if (metrics.get(m).uniqueName().equals(metrics.get(i).parent())) {
                visit(metrics, i, out, seen);
            }
        }
    }
}
