package dev.straggler.cli;

import dev.straggler.testdata.sim.WhatIfReplay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The what-if replay's link bandwidth and latency, calibrated on the traces' own communication when the user does
 * not give them.
 *
 * <p>The network model prices a message of b bytes at {@code latency + b / bandwidth}, and a collective at
 * {@code steps × latency + bytes / bandwidth} ({@link dev.straggler.testdata.sim.NetworkModel#collectiveTerms}).
 * A trace records, for every matched message, receive leave − send enter, which is never shorter than that cost
 * and equals it whenever the receiver was already waiting; so the fastest recorded time of each message size lies
 * on the model's line (the Hockney model a ping-pong benchmark fits). The calibration fits that line through the
 * fastest time of each (trace, size): the slope is 1 / bandwidth, the intercept the latency. The fit is Theil–Sen
 * (the median of the pairwise slopes, then the median intercept), because on a real machine single points are
 * off: clock offsets between ranks shift a message's recorded time by microseconds, and a size whose receives were
 * all posted late has no uncontended observation at all. A least-squares fit would follow such points; the
 * medians ignore up to about 29 % of them and, on a trace of the model itself, return the model's parameters.
 *
 * <p>Point-to-point messages are used when they come in at least two sizes (a bandwidth needs a slope). A program
 * that communicates only through collectives is calibrated on its N×N collectives and barriers instead (first
 * member's leave − last member's enter, divided by the model's step count to the same per-step line). Recorded
 * times of zero or less (clock offsets) are dropped. Not calibrated is said so, and the defaults are used.
 *
 * <p>Why not the bandwidth at which the replay at 100 % takes the measured time: the model lacks contention,
 * software overhead and oversubscription, so on a real run all of that would be charged to the bandwidth (on the
 * NPB MG traces of the project, a link of a few MB/s), and throttling that fictitious link would report demands
 * the machine does not have. The agreement at 100 % is reported instead, as the check of the calibration.
 */
final class LinkCalibration {
    /** The defaults when nothing can be calibrated (those of the simulator's network). */
    static final double DEFAULT_BANDWIDTH = 1e9;
    static final double DEFAULT_LATENCY = 2e-6;
    /** Theil–Sen over n points takes n²/2 slopes; beyond this many points, evenly spaced ones by size are kept. */
    static final int MAX_POINTS = 2000;

    /** What the model's parameters are calibrated on. */
    enum Basis {
        MESSAGES("messages", "receive leave − send enter"),
        COLLECTIVES("N×N collectives and barriers", "first member's leave − last member's enter");

        final String observations;
        final String time;

        Basis(String observations, String time) {
            this.observations = observations;
            this.time = time;
        }
    }

    /** One observation on the per-step line: {@code seconds = latency + bytes / bandwidth}. */
    record Point(double bytes, double seconds) {
    }

    /**
     * The network's link bandwidth and latency as used.
     *
     * @param bandwidthCalibrated whether the bandwidth comes from the traces (else given, or the default)
     * @param latencyCalibrated   whether the latency comes from the traces
     * @param basis               what was fitted; null when nothing was calibrated
     * @param points              fitted points (fastest time per trace and size)
     * @param observations        messages or collective instances behind the points
     * @param traces              traces the points come from
     * @param failure             why the missing parameters could not be calibrated, or null
     */
    record Calibration(double bandwidth, double latency, boolean bandwidthCalibrated, boolean latencyCalibrated,
                       Basis basis, int points, long observations, int traces, String failure) {

        boolean calibrated() {
            return bandwidthCalibrated || latencyCalibrated;
        }

        /** One line saying where the link bandwidth and latency come from; null when both were given. */
        String describe(boolean bandwidthGiven, boolean latencyGiven) {
            if (bandwidthGiven && latencyGiven) {
                return null;
            }
            List<String> values = new ArrayList<>();
            List<String> options = new ArrayList<>();
            if (!bandwidthGiven) {
                values.add("link bandwidth " + ThrottlingReplay.rate(bandwidth));
                options.add("--link-bandwidth");
            }
            if (!latencyGiven) {
                values.add("latency " + ThrottlingReplay.seconds(latency));
                options.add("--latency");
            }
            if (failure != null) {
                return String.join(" and ", values) + ": defaults, not calibrated (" + failure + "); describe the "
                        + "machine with " + String.join(" and ", options);
            }
            return String.format(Locale.ROOT, "%s calibrated on the traces: Theil–Sen line through the fastest %s "
                            + "of each (trace, %s), %d points from %,d %s in %d trace%s", String.join(" and ", values),
                    basis.time, basis == Basis.MESSAGES ? "size" : "collective and size", points, observations,
                    basis.observations, traces, traces == 1 ? "" : "s");
        }
    }

    private LinkCalibration() {
    }

    /**
     * Calibrates what is not given.
     *
     * @param recorded  each trace's recorded communication times
     * @param bandwidth the given link bandwidth (bytes/s), or null to calibrate it
     * @param latency   the given latency (s), or null to calibrate it
     */
    static Calibration calibrate(List<WhatIfReplay.RecordedTimes> recorded, Double bandwidth, Double latency) {
        if (bandwidth != null && latency != null) {
            return new Calibration(bandwidth, latency, false, false, null, 0, 0, 0, null);
        }
        String failure = null;
        for (Basis basis : Basis.values()) {
            List<Point> pts = new ArrayList<>();
            long observations = 0;
            long recordedAtAll = 0;
            int traces = 0;
            for (WhatIfReplay.RecordedTimes r : recorded) {
                int before = pts.size();
                for (WhatIfReplay.RecordedTime t : basis == Basis.MESSAGES ? r.pointToPoint() : r.collectives()) {
                    recordedAtAll += t.count();
                    // a time of zero or less is a clock offset between ranks, not a transfer
                    if (t.seconds() > 0 && t.latencySteps() > 0) {
                        pts.add(new Point((double) t.bytes() / t.latencySteps(), t.seconds() / t.latencySteps()));
                        observations += t.count();
                    }
                }
                traces += pts.size() > before ? 1 : 0;
            }
            if (recordedAtAll == 0) {
                continue;
            }
            Fit f = fit(pts, bandwidth == null ? null : 1 / bandwidth, latency);
            if (f.failure() == null) {
                // the model counts whole nanoseconds: the latency it can take
                double lat = latency != null ? latency : Math.round(f.intercept() * 1e9) / 1e9;
                // four significant digits, as printed: the replay uses the value the output names, and on a real
                // machine the fit is not better than that
                double bw = bandwidth != null ? bandwidth
                        : Double.parseDouble(String.format(Locale.ROOT, "%.4g", 1 / f.slope()));
                return new Calibration(bw, lat, bandwidth == null, latency == null, basis,
                        pts.size(), observations, traces, null);
            }
            if (failure == null) {
                failure = "the " + basis.observations + " " + f.failure();
            }
        }
        if (failure == null) {
            failure = "the traces record no matched messages and no complete N×N collectives";
        }
        return new Calibration(bandwidth != null ? bandwidth : DEFAULT_BANDWIDTH,
                latency != null ? latency : DEFAULT_LATENCY, false, false, null, 0, 0, 0, failure);
    }

    /** A fitted line {@code seconds = intercept + slope × bytes}, or why there is none. */
    record Fit(double slope, double intercept, String failure) {
    }

    /**
     * Theil–Sen fit of the per-step line; a given slope (1 / bandwidth) or intercept (latency) is kept and only the
     * other is fitted (the median of the points' own intercepts or slopes).
     */
    static Fit fit(List<Point> points, Double slope, Double intercept) {
        if (points.isEmpty()) {
            return new Fit(0, 0, "have no recorded time above zero");
        }
        Point[] p = points.toArray(Point[]::new);
        Arrays.sort(p, (a, b) -> Double.compare(a.bytes(), b.bytes()));
        if (p.length > MAX_POINTS) {
            Point[] kept = new Point[MAX_POINTS];
            for (int i = 0; i < MAX_POINTS; i++) {
                kept[i] = p[(int) ((long) i * (p.length - 1) / (MAX_POINTS - 1))];
            }
            p = kept;
        }
        double s;
        if (slope != null) {
            s = slope;
        } else if (intercept != null) {
            double[] own = Arrays.stream(p).filter(x -> x.bytes() > 0)
                    .mapToDouble(x -> (x.seconds() - intercept) / x.bytes()).toArray();
            if (own.length == 0) {
                return new Fit(0, 0, "carry no bytes");
            }
            s = median(own);
        } else {
            double[] slopes = new double[p.length * (p.length - 1) / 2];
            int n = 0;
            for (int i = 0; i < p.length; i++) {
                for (int j = i + 1; j < p.length; j++) {
                    if (p[j].bytes() > p[i].bytes()) {
                        slopes[n++] = (p[j].seconds() - p[i].seconds()) / (p[j].bytes() - p[i].bytes());
                    }
                }
            }
            if (n == 0) {
                return new Fit(0, 0, "all have one size: a bandwidth needs two");
            }
            s = median(Arrays.copyOf(slopes, n));
        }
        if (!(s > 0)) {
            return new Fit(0, 0, "take no longer when larger: their time shows no bandwidth");
        }
        double c;
        if (intercept != null) {
            c = intercept;
        } else {
            double[] own = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                own[i] = p[i].seconds() - s * p[i].bytes();
            }
            // the model has no negative latency: a line through the origin is the closest it can take
            c = Math.max(0, median(own));
        }
        return new Fit(s, c, null);
    }

    static double median(double[] v) {
        double[] a = v.clone();
        Arrays.sort(a);
        int m = a.length / 2;
        return a.length % 2 == 1 ? a[m] : (a[m - 1] + a[m]) / 2;
    }
}
