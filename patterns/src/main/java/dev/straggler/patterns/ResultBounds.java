package dev.straggler.patterns;

import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;

import java.util.Locale;

/**
 * The last line of defence against an impossible number: a time in the severity cube is never negative (except the
 * intra-partition imbalance, a difference that Scalasca's remapping defines and lets go below zero), a wait
 * state or any other time of one location never exceeds the run's wall-clock length, and a root-cause cost of one
 * location (waiting it causes on others) never exceeds wall clock × locations. The inputs are checked for
 * plausibility when they are read ({@code PlausibleTrace}), so a violation here is a defect of the analysis: it is
 * reported as an error (non-zero exit) rather than printed.
 */
public final class ResultBounds {
    /** Relative slack for floating-point sums. */
    private static final double EPS = 1e-9;

    private ResultBounds() {
    }

    /** @throws IllegalStateException naming the metric, location and value outside its bounds */
    public static void check(SeverityCube cube, double wallClockSeconds) {
        int locations = cube.locations().size();
        double slack = EPS * Math.max(wallClockSeconds, 1e-9) + 1e-12;
        for (int m = 0; m < cube.metrics().size(); m++) {
            Metric metric = cube.metrics().get(m);
            boolean seconds = metric.unit().equals("sec");
            double[] perLocation = cube.perLocation(m);
            double bound = m >= MetricTree.FIRST_ROOT_CAUSE ? wallClockSeconds * locations : wallClockSeconds;
            // a difference that Scalasca's own definition lets go below zero (the analysis warns where it does)
            double lowest = m == MetricTree.INTRA_PARTITION_IMBALANCE ? -bound * (1 + EPS) - slack : -slack;
            for (int l = 0; l < perLocation.length; l++) {
                double v = perLocation[l];
                if (Double.isNaN(v) || v < lowest || (seconds && v > bound * (1 + EPS) + slack)) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "the analysis computed %s = %.9g %s "
                                    + "on location %d, outside [0, %.9g] for a run of %.9g s; the trace passed the "
                                    + "plausibility checks, so this is a defect of the analysis: please report it",
                            metric.displayName(), v, seconds ? "s" : metric.unit(), l, seconds ? bound
                                    : Double.POSITIVE_INFINITY, wallClockSeconds));
                }
            }
        }
    }
}
