package dev.straggler.cli.report;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.rootcause.CriticalPathTimes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The critical path per call path: its time on the path (Scalasca's {@code critical_path}), the average time per
 * location outside wait states that Scalasca compares it with, the critical-path imbalance
 * ({@code critical_path_imbalance}) and the critical imbalance impact ({@code critical_imbalance_impact}: waiting
 * elsewhere mapped onto call paths that take longer on the path than on the waiting locations). Each as call-path
 * exclusive and inclusive (summed over the call subtree) value; all cleaned ({@link Shares#nonNegative}) relative to
 * the critical path's length.
 *
 * <p>The average is {@code (time − waiting) / locations} with the waiting metrics of Scalasca's CubePL definition of
 * the imbalance (reference §1.6, {@link CriticalPathTimes#WAITING}); metrics missing from the cube count as zero.
 */
final class CriticalPathProfile {
    /** The two metrics' names wherever the report shows them: Scalasca's documentation names, never just "imbalance". */
    static final String IMBALANCE = MetricTree.standaloneName("critical_path_imbalance");
    static final String IMPACT = MetricTree.standaloneName("critical_imbalance_impact");
    /** A call path stands out when it holds at least this share of the impact (at most {@link #HOT}). */
    static final double HOT_SHARE = 0.05;
    static final int HOT = 5;

    final int locations;
    final double length;
    final double[] pathExcl;
    final double[] pathIncl;
    final double[] busyExcl;
    final double[] busyIncl;
    final double[] imbalanceExcl;
    final double[] imbalanceIncl;
    final double[] impactExcl;
    final double[] impactIncl;

    private CriticalPathProfile(SeverityCube cube, int cp) {
        int np = cube.callPaths().size();
        locations = cube.locations().size();
        length = Math.max(0, cube.total(cp));
        pathExcl = cleaned(sums(cube, cp), length);
        busyExcl = sums(cube, cube.metricIndex("time"));
        for (String w : CriticalPathTimes.WAITING) {
            double[] wait = sums(cube, cube.metricIndex(w));
            for (int p = 0; p < np; p++) {
                busyExcl[p] -= wait[p];
            }
        }
        cleaned(busyExcl, length);
        imbalanceExcl = cleaned(sums(cube, cube.metricIndex("critical_path_imbalance")), length);
        impactExcl = cleaned(sums(cube, cube.metricIndex("critical_imbalance_impact")), length);
        pathIncl = inclusive(cube, pathExcl);
        busyIncl = inclusive(cube, busyExcl);
        imbalanceIncl = inclusive(cube, imbalanceExcl);
        impactIncl = inclusive(cube, impactExcl);
    }

    /** The profile, or null when the cube has no critical path (root causes not analysed). */
    static CriticalPathProfile of(SeverityCube cube) {
        int cp = cube.metricIndex("critical_path");
        if (cp < 0 || !(cube.total(cp) > 0)) {
            return null;
        }
        return new CriticalPathProfile(cube, cp);
    }

    /** Average time per location outside wait states, inclusive. */
    double averageIncl(int path) {
        return busyIncl[path] / locations;
    }

    double imbalanceTotal() {
        return sum(imbalanceExcl);
    }

    double impactTotal() {
        return sum(impactExcl);
    }

    /** Call paths on the critical path or above one (inclusive time on it), in id order: parents first. */
    List<Integer> onPath() {
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < pathIncl.length; p++) {
            if (pathIncl[p] > 0) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The call paths that stand out, largest first: by exclusive critical imbalance impact, or by exclusive
     * critical-path imbalance when the cube has no impact ({@link #hotBy()}); those with at least {@value #HOT_SHARE}
     * of the total, at most {@value #HOT}.
     */
    List<Integer> hot() {
        double[] by = impactTotal() > 0 ? impactExcl : imbalanceExcl;
        double total = sum(by);
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < by.length; p++) {
            if (total > 0 && by[p] >= HOT_SHARE * total) {
                out.add(p);
            }
        }
        out.sort(Comparator.comparingDouble((Integer p) -> -by[p]).thenComparingInt(p -> p));
        return out.subList(0, Math.min(HOT, out.size()));
    }

    /** The name of the metric {@link #hot()} ranks by. */
    String hotBy() {
        return impactTotal() > 0 ? IMPACT : IMBALANCE;
    }

    /** A metric's call-path exclusive values summed over locations; zeros when the cube lacks the metric. */
    private static double[] sums(SeverityCube cube, int metric) {
        double[] out = new double[cube.callPaths().size()];
        for (int p = 0; metric >= 0 && p < out.length; p++) {
            out[p] = cube.sumOverLocations(metric, p);
        }
        return out;
    }

    private static double[] cleaned(double[] v, double scale) {
        for (int i = 0; i < v.length; i++) {
            v[i] = Shares.nonNegative(v[i], scale);
        }
        return v;
    }

    /** Sums over call subtrees: parents have smaller ids than their children, so one backward pass does. */
    private static double[] inclusive(SeverityCube cube, double[] excl) {
        double[] incl = excl.clone();
        for (int p = incl.length - 1; p >= 0; p--) {
            int parent = cube.callPaths().get(p).parent();
            if (parent >= 0) {
                incl[parent] += incl[p];
            }
        }
        return incl;
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }
}
