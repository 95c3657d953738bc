package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Operations on severity cubes: difference, merge and mean of experiments (reference §3.7, CubeLib's
 * {@code cube_diff}, {@code cube_merge}, {@code cube_mean}).
 *
 * <p>Every operation first unifies the operands' dimensions ({@link DimensionUnion}) and their system dimension
 * ({@link SystemMode}); then it combines values element by element. Values are read as stored: metric-inclusive
 * and call-path-exclusive, so a difference of stored values is the stored value of the difference.
 *
 * <p>Operands are never modified. Results are new, frozen cubes whose attributes name the operation, the operands
 * and what happened to the system dimension; a result can be an operand again. Methods are stateless and safe to
 * call from several threads on frozen operands.
 */
public final class ProfileAlgebra {
    private ProfileAlgebra() {
    }

    /** {@code a − b} with the system dimension chosen automatically. */
    public static SeverityCube diff(SeverityCube a, SeverityCube b) {
        return diff(a, b, SystemMode.AUTO);
    }

    /**
     * {@code a − b} for every (metric, call path, location) of the unified cube. What only {@code a} has stays as
     * it is; what only {@code b} has appears negated, as in {@code cube_diff}; root causes of an operand analysed
     * without them are zeros and follow the same rule. The critical path's imbalance is subtracted as stored (the
     * change of the imbalance), not evaluated again from the differences of its inputs.
     */
    public static SeverityCube diff(SeverityCube a, SeverityCube b, SystemMode mode) {
        List<SeverityCube> ops = List.of(a, b);
        List<String> names = List.of("A = " + CubeAttributes.describe(a, "minuend"),
                "B = " + CubeAttributes.describe(b, "subtrahend"));
        DimensionUnion u = DimensionUnion.of(ops);
        SystemUnion s = new SystemUnion(ops, mode, shortNames(ops, List.of("A", "B")));
        SeverityCube out = newResult(u, u.metrics(), s, "diff", names);
        accumulate(out, u, s, 0, a, 1.0);
        accumulate(out, u, s, 1, b, -1.0);
        return out.freeze();
    }

    /** {@link #merge(List, SystemMode)} with the system dimension chosen automatically. */
    public static SeverityCube merge(List<SeverityCube> cubes) {
        return merge(cubes, SystemMode.AUTO);
    }

    /**
     * Joins the metric sets of several experiments (e.g. runs with different hardware counters). Values are set,
     * not added, operand by operand: where two operands carry the same metric on the same call path the later one
     * wins, as in {@code cube_merge}. An operand analysed without root causes does not carry them
     * ({@link CauseMetrics#carried}): its zeros do not overwrite another operand's delay costs or critical path.
     */
    public static SeverityCube merge(List<SeverityCube> cubes, SystemMode mode) {
        DimensionUnion u = DimensionUnion.of(cubes);
        List<String> names = numberedNames(cubes);
        SystemUnion s = new SystemUnion(cubes, mode, numberedShortNames(cubes));
        SeverityCube out = newResult(u, u.metrics(), s, "merge", names);
        for (int op = 0; op < cubes.size(); op++) {
            SeverityCube c = cubes.get(op);
            boolean[] carried = CauseMetrics.carried(c);
            for (int m = 0; m < c.metrics().size(); m++) {
                if (!carried[m]) {
                    continue;
                }
                int um = u.metric(op, m);
                double f = s.collapsed() ? s.factor(op, c.metrics().get(m)) : 1;
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    int uc = u.callPath(op, cp);
                    double[] row = c.rowOrNull(m, cp);
                    if (s.collapsed()) {
                        out.set(um, uc, 0, row == null ? 0 : f * sum(row));
                    } else {
                        for (int l = 0; l < c.locations().size(); l++) {
                            out.set(um, uc, s.locationMap[op][l], row == null ? 0 : row[l]);
                        }
                    }
                }
            }
        }
        return out.freeze();
    }

    /** {@link #mean(List, SystemMode)} with the system dimension chosen automatically. */
    public static SeverityCube mean(List<SeverityCube> cubes) {
        return mean(cubes, SystemMode.AUTO);
    }

    /**
     * The element-wise mean of N experiments, typically repetitions of one run: {@code Σ value_i / N}, where an
     * operand without a (metric, call path) contributes 0, as in {@code cube_mean}. A metric is averaged over the
     * operands that carry it ({@link CauseMetrics#carried}): an operand without the metric, or analysed without
     * root causes, does not halve the others' values. Computed as a running mean so that the mean of identical
     * operands is exactly the operand. Counts become non-integer metrics.
     *
     * <p>Every metric is averaged as stored, {@code critical_path_imbalance} included: the result is the mean
     * imbalance of the runs, as {@code cube_mean} gives for Scalasca's remapped cubes, which store it too.
     */
    public static SeverityCube mean(List<SeverityCube> cubes, SystemMode mode) {
        DimensionUnion u = DimensionUnion.of(cubes);
        SystemUnion s = new SystemUnion(cubes, mode, numberedShortNames(cubes));
        List<Metric> metrics = new ArrayList<>();
        for (Metric m : u.metrics()) {
            metrics.add(m.integer() ? new Metric(m.uniqueName(), m.displayName(), m.unit(), false, m.parent(),
                    m.description()) : m);
        }
        SeverityCube out = newResult(u, metrics, s, "mean", numberedNames(cubes));
        int nm = u.metrics().size();
        int nc = u.callPaths().size();
        int nl = s.locations.size();
        // Which unified (metric, call path) rows any operand fills, and each operand's row for it.
        int[][] invMetric = new int[cubes.size()][nm];
        int[][] invPath = new int[cubes.size()][nc];
        boolean[][] present = new boolean[nm][nc];
        for (int op = 0; op < cubes.size(); op++) {
            SeverityCube c = cubes.get(op);
            Arrays.fill(invMetric[op], -1);
            Arrays.fill(invPath[op], -1);
            boolean[] carried = CauseMetrics.carried(c);
            for (int m = 0; m < c.metrics().size(); m++) {
                if (carried[m]) {
                    invMetric[op][u.metric(op, m)] = m;
                }
            }
            for (int cp = 0; cp < c.callPaths().size(); cp++) {
                invPath[op][u.callPath(op, cp)] = cp;
            }
            for (int m = 0; m < c.metrics().size(); m++) {
                if (!carried[m]) {
                    continue;
                }
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    if (c.rowOrNull(m, cp) != null) {
                        present[u.metric(op, m)][u.callPath(op, cp)] = true;
                    }
                }
            }
        }
        double[] mean = new double[nl];
        double[] x = new double[nl];
        for (int um = 0; um < nm; um++) {
            for (int uc = 0; uc < nc; uc++) {
                if (!present[um][uc]) {
                    continue;
                }
                Arrays.fill(mean, 0);
                int k = 0;
                for (int op = 0; op < cubes.size(); op++) {
                    if (invMetric[op][um] < 0) {
                        continue; // the operand does not carry the metric: not a zero to average in
                    }
                    operandRow(cubes.get(op), s, op, invMetric[op][um], invPath[op][uc], x);
                    k++;
                    for (int l = 0; l < nl; l++) {
                        // Running mean: exact for identical operands, where x - mean is 0 from the second on.
                        mean[l] += (x[l] - mean[l]) / k;
                    }
                }
                for (int l = 0; l < nl; l++) {
                    out.set(um, uc, l, mean[l]);
                }
            }
        }
        return out.freeze();
    }

    /** One cube with its system dimension collapsed to the sum over ranks or the per-rank mean. */
    public static SeverityCube collapse(SeverityCube c, SystemMode mode) {
        if (mode != SystemMode.SUM && mode != SystemMode.MEAN) {
            throw new IllegalArgumentException("collapse needs SUM or MEAN, not " + mode);
        }
        List<SeverityCube> ops = List.of(c);
        DimensionUnion u = DimensionUnion.of(ops);
        SystemUnion s = new SystemUnion(ops, mode, List.of(CubeAttributes.describe(c, "operand")));
        SeverityCube out = newResult(u, u.metrics(), s, "collapse", List.of("1 = " + CubeAttributes.describe(c, "operand")));
        accumulate(out, u, s, 0, c, 1.0);
        return out.freeze();
    }

    /** Adds {@code sign ×} operand {@code op}'s values into {@code out}. */
    private static void accumulate(SeverityCube out, DimensionUnion u, SystemUnion s, int op, SeverityCube c, double sign) {
        for (int m = 0; m < c.metrics().size(); m++) {
            int um = u.metric(op, m);
            for (int cp = 0; cp < c.callPaths().size(); cp++) {
                double[] row = c.rowOrNull(m, cp);
                if (row == null) {
                    continue;
                }
                int uc = u.callPath(op, cp);
                if (s.collapsed()) {
                    out.add(um, uc, 0, sign * s.factor(op, c.metrics().get(m)) * sum(row));
                } else {
                    for (int l = 0; l < row.length; l++) {
                        out.add(um, uc, s.locationMap[op][l], sign * row[l]);
                    }
                }
            }
        }
    }

    /** Operand {@code op}'s values of one row mapped onto the result's locations; zeros where it has none. */
    private static void operandRow(SeverityCube c, SystemUnion s, int op, int m, int cp, double[] into) {
        Arrays.fill(into, 0);
        if (m < 0 || cp < 0) {
            return;
        }
        double[] row = c.rowOrNull(m, cp);
        if (row == null) {
            return;
        }
        if (s.collapsed()) {
            into[0] = s.factor(op, c.metrics().get(m)) * sum(row);
        } else {
            for (int l = 0; l < row.length; l++) {
                into[s.locationMap[op][l]] = row[l];
            }
        }
    }

    private static double sum(double[] row) {
        double t = 0;
        for (double v : row) {
            t += v;
        }
        return t;
    }

    private static SeverityCube newResult(DimensionUnion u, List<Metric> metrics, SystemUnion s, String operation,
                                          List<String> operandNames) {
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put(CubeAttributes.OPERATION, operation);
        attrs.put(CubeAttributes.OPERANDS, String.join("\n", operandNames));
        attrs.putAll(s.attributes);
        return new SeverityCube(metrics, u.regions(), u.callPaths(), s.locations, attrs);
    }

    private static List<String> shortNames(List<SeverityCube> cubes, List<String> labels) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cubes.size(); i++) {
            out.add(labels.get(i));
        }
        return out;
    }

    private static List<String> numberedNames(List<SeverityCube> cubes) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cubes.size(); i++) {
            out.add((i + 1) + " = " + CubeAttributes.describe(cubes.get(i), "operand " + (i + 1)));
        }
        return out;
    }

    private static List<String> numberedShortNames(List<SeverityCube> cubes) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cubes.size(); i++) {
            out.add("#" + (i + 1));
        }
        return out;
    }
}
