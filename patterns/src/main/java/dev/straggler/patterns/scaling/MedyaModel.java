package dev.straggler.patterns.scaling;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.RealVector;

import java.util.ArrayList;
import java.util.List;

/**
 * The strong-scaling model of Medya et al. (ICPE 2016): {@code T(p) = c0 + c1/p + c2/√p}, fitted by least squares
 * separately to total time, computation and communication, with R² and mean squared error; predictions at larger
 * process counts and the process count at which communication overtakes computation.
 *
 * <p>{@code c1/p} is work divided among the processes, {@code c2/√p} the surface-to-volume part of a 2-D
 * decomposition, {@code c0} what does not shrink. The fit solves the least-squares problem by QR decomposition of
 * the design matrix {@code [1, 1/p, 1/√p]}, which needs at least three distinct process counts.
 */
public final class MedyaModel {

    /** A fitted model. @param mse mean of the squared residuals (SSres / n) */
    public record Fit(double c0, double c1, double c2, double r2, double mse, int n) {
        public double predict(double p) {
            return c0 + c1 / p + c2 / Math.sqrt(p);
        }

        /** Degrees of freedom of the fit: runs minus the three parameters (0: the curve passes through every run). */
        public int dof() {
            return n - 3;
        }

        /** e.g. "0.5 + 120/p + 3.2/√p". */
        public String formula() {
            return String.format(java.util.Locale.ROOT, "%.4g %s %.4g/p %s %.4g/√p", c0, c1 < 0 ? "-" : "+", Math.abs(c1),
                    c2 < 0 ? "-" : "+", Math.abs(c2));
        }
    }

    public enum CrossoverKind {
        /** Communication already takes at least as long as computation at the smallest measured process count. */
        ALREADY,
        /** Communication overtakes computation at {@link Crossover#p()}. */
        AT,
        /** The fitted curves do not cross beyond the measured range. */
        NEVER
    }

    /** @param p the process count of the crossing (continuous; the first integer beyond it is {@code ceil(p)}) */
    public record Crossover(CrossoverKind kind, double p) {
    }

    /** A prediction at one process count. */
    public record Prediction(int tasks, double total, double computation, double communication) {
    }

    /** Everything {@code straggler model} prints for the Medya fit. */
    public record Report(List<ModelPoint> points, Fit total, Fit computation, Fit communication, Crossover crossover,
                         List<Prediction> predictions) {
    }

    private MedyaModel() {
    }

    /**
     * Least-squares fit of {@code c0 + c1/p + c2/√p}; repetitions at one p are separate observations.
     *
     * @throws IllegalArgumentException with fewer than three distinct process counts
     */
    public static Fit fit(double[] p, double[] t) {
        if (p.length != t.length) {
            throw new IllegalArgumentException("process counts and times differ in length");
        }
        long distinct = java.util.Arrays.stream(p).distinct().count();
        if (distinct < 3) {
            throw new IllegalArgumentException("c0 + c1/p + c2/√p needs at least 3 distinct process counts, got " + distinct);
        }
        int n = p.length;
        double[][] x = new double[n][3];
        for (int i = 0; i < n; i++) {
            if (p[i] <= 0) {
                throw new IllegalArgumentException("process count must be positive: " + p[i]);
            }
            x[i][0] = 1;
            x[i][1] = 1 / p[i];
            x[i][2] = 1 / Math.sqrt(p[i]);
        }
        RealVector c = new QRDecomposition(new Array2DRowRealMatrix(x, false)).getSolver().solve(new ArrayRealVector(t, false));
        Fit raw = new Fit(c.getEntry(0), c.getEntry(1), c.getEntry(2), 0, 0, n);
        double mean = java.util.Arrays.stream(t).average().orElse(0);
        double ssRes = 0;
        double ssTot = 0;
        for (int i = 0; i < n; i++) {
            double r = t[i] - raw.predict(p[i]);
            ssRes += r * r;
            ssTot += (t[i] - mean) * (t[i] - mean);
        }
        // three parameters through three runs fit exactly whatever the data: R² would be 1 and mean nothing
        double r2 = n <= 3 ? Double.NaN : ssTot == 0 ? (ssRes == 0 ? 1 : Double.NaN) : 1 - ssRes / ssTot;
        return new Fit(raw.c0(), raw.c1(), raw.c2(), r2, n <= 3 ? Double.NaN : ssRes / n, n);
    }

    /**
     * Where the communication curve rises above the computation curve, searching from {@code fromP} on.
     * With {@code x = 1/√p} the difference {@code comm − comp} is the quadratic {@code a + c·x + b·x²}, so its
     * crossings are found exactly.
     */
    public static Crossover crossover(Fit computation, Fit communication, double fromP) {
        double a = communication.c0() - computation.c0();
        double b = communication.c1() - computation.c1();
        double c = communication.c2() - computation.c2();
        java.util.function.DoubleUnaryOperator d = p -> a + b / p + c / Math.sqrt(p);
        if (d.applyAsDouble(fromP) >= 0) {
            return new Crossover(CrossoverKind.ALREADY, fromP);
        }
        List<Double> roots = new ArrayList<>();
        if (Math.abs(b) < 1e-300) {
            if (c != 0) {
                roots.add(-a / c);
            }
        } else {
            double disc = c * c - 4 * b * a;
            if (disc >= 0) {
                double s = Math.sqrt(disc);
                // The numerically stable pair of roots of b·x² + c·x + a.
                double q = -0.5 * (c + Math.copySign(s, c));
                if (q != 0) {
                    roots.add(q / b);
                    roots.add(a / q);
                } else {
                    roots.add(0.0);
                }
            }
        }
        double best = Double.POSITIVE_INFINITY;
        for (double x : roots) {
            if (x > 0) {
                double p = 1 / (x * x);
                if (p > fromP && d.applyAsDouble(p * (1 + 1e-9)) > 0 && p < best) {
                    best = p;
                }
            }
        }
        return Double.isInfinite(best) ? new Crossover(CrossoverKind.NEVER, Double.NaN) : new Crossover(CrossoverKind.AT, best);
    }

    /** Fits all three curves and predicts at the given larger process counts. */
    public static Report analyse(List<ModelPoint> points, int[] predictAt) {
        int n = points.size();
        double[] p = new double[n];
        double[] total = new double[n];
        double[] comp = new double[n];
        double[] comm = new double[n];
        double minP = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            ModelPoint pt = points.get(i);
            p[i] = pt.tasks();
            total[i] = pt.total();
            comp[i] = pt.computation();
            comm[i] = pt.communication();
            minP = Math.min(minP, p[i]);
        }
        Fit ft = fit(p, total);
        Fit fc = fit(p, comp);
        Fit fm = fit(p, comm);
        List<Prediction> predictions = new ArrayList<>();
        for (int q : predictAt) {
            predictions.add(new Prediction(q, ft.predict(q), fc.predict(q), fm.predict(q)));
        }
        return new Report(List.copyOf(points), ft, fc, fm, crossover(fc, fm, minP), predictions);
    }
}
