package dev.straggler.patterns.scaling;

import dev.straggler.trace.TraceFormatException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bandwidth-demand model from throttling measurements, after Medya et al. (ICPE 2016): the application is run
 * at several process counts with the available interconnect bandwidth reduced to a fraction, and the completion
 * time increments tell how much bandwidth it needs.
 *
 * <p>Model, per process count p with baseline completion time {@code T0} at the highest measured bandwidth
 * {@code B0} (normally 100 %): a run at bandwidth {@code b} takes {@code T(b) = T_other + τ·B0/b}, where {@code τ}
 * is the bandwidth-bound time at full bandwidth. Hence
 * <ul>
 *   <li>completion-time increment {@code ΔT = T(b) − T0}, so {@code τ = ΔT / (B0/b − 1)};</li>
 *   <li>bandwidth demand {@code D(p) = B0 · τ / T0}: the share of the bandwidth the run keeps busy on average
 *       (in % of the full bandwidth), averaged over the throttled runs at p;</li>
 *   <li>demand constant {@code DC(p) = D(p) / (p(p−1)/2)}, the demand per communicating process pair;
 *       {@code DC} is its mean over the process counts;</li>
 *   <li>predicted demand at {@code p'}: {@code DC · p'(p'−1)/2}.</li>
 * </ul>
 * The paper itself was not available to check these definitions against; they are derived from the quantities it
 * names (completion-time increment, demand constant averaged over process pairs, predicted demand).
 */
public final class BandwidthDemand {

    /** One row of the throttling table. */
    public record Measurement(int tasks, double bandwidthPercent, double completionTime) {
    }

    /** One throttled run against its baseline. */
    public record Increment(int tasks, double bandwidthPercent, double completionTime, double baselineTime,
                            double baselineBandwidth, double increment, double relativeIncrement,
                            double bandwidthBoundTime, double demandPercent) {
    }

    public record Prediction(int tasks, double demandPercent) {
    }

    /**
     * @param demandByTasks  D(p), % of the full bandwidth
     * @param constantByTasks DC(p), % per process pair
     * @param demandConstant DC averaged over the process counts
     */
    public record Result(List<Increment> increments, Map<Integer, Double> demandByTasks,
                         Map<Integer, Double> constantByTasks, double demandConstant, List<Prediction> predictions,
                         List<String> notes) {
    }

    private BandwidthDemand() {
    }

    /** Number of unordered process pairs. */
    static double pairs(double p) {
        return p * (p - 1) / 2;
    }

    public static Result analyse(List<Measurement> table, int[] predictAt) {
        TreeMap<Integer, TreeMap<Double, double[]>> byTasks = new TreeMap<>();
        for (Measurement m : table) {
            if (m.tasks() <= 0 || m.bandwidthPercent() <= 0 || m.completionTime() <= 0) {
                throw new IllegalArgumentException("throttling row needs positive tasks, bandwidth and time: " + m);
            }
            double[] acc = byTasks.computeIfAbsent(m.tasks(), k -> new TreeMap<>())
                    .computeIfAbsent(m.bandwidthPercent(), k -> new double[2]);
            acc[0] += m.completionTime();
            acc[1]++;
        }
        List<Increment> increments = new ArrayList<>();
        Map<Integer, Double> demand = new TreeMap<>();
        Map<Integer, Double> constant = new TreeMap<>();
        List<String> notes = new ArrayList<>();
        for (var e : byTasks.entrySet()) {
            int p = e.getKey();
            TreeMap<Double, double[]> runs = e.getValue();
            double b0 = runs.lastKey();
            double t0 = runs.lastEntry().getValue()[0] / runs.lastEntry().getValue()[1];
            if (b0 < 100) {
                notes.add("p=" + p + ": no run at 100 % bandwidth; " + fmt(b0) + " % is the baseline");
            }
            double sum = 0;
            int count = 0;
            for (var r : runs.headMap(b0, false).entrySet()) {
                double b = r.getKey();
                double t = r.getValue()[0] / r.getValue()[1];
                double dt = t - t0;
                double tau = dt / (b0 / b - 1);
                double d = b0 * tau / t0;
                increments.add(new Increment(p, b, t, t0, b0, dt, dt / t0, tau, d));
                sum += d;
                count++;
            }
            if (count == 0) {
                notes.add("p=" + p + ": no throttled run, no demand");
                continue;
            }
            demand.put(p, sum / count);
            if (p > 1) {
                constant.put(p, sum / count / pairs(p));
            } else {
                notes.add("p=1 has no process pairs; left out of the demand constant");
            }
        }
        double dc = constant.values().stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        List<Prediction> predictions = new ArrayList<>();
        for (int q : predictAt) {
            predictions.add(new Prediction(q, dc * pairs(q)));
        }
        return new Result(increments, demand, constant, dc, predictions, notes);
    }

    /**
     * Reads a table of {@code p, bandwidth %, completion time} rows, separated by commas or white space; lines
     * starting with {@code #} and a header line of words are skipped, a {@code %} after the bandwidth is allowed.
     *
     * @throws TraceFormatException naming the origin and line of a malformed row
     */
    public static List<Measurement> parse(Reader in, String origin) throws IOException {
        List<Measurement> out = new ArrayList<>();
        BufferedReader r = new BufferedReader(in);
        String line;
        int no = 0;
        while ((line = r.readLine()) != null) {
            no++;
            String s = line.trim();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            String[] f = s.replace("%", " ").split("[,;\\s]+");
            if (out.isEmpty() && !Character.isDigit(f[0].charAt(0)) && f[0].charAt(0) != '.') {
                continue;
            }
            if (f.length != 3) {
                throw new TraceFormatException(origin + ":" + no + ": expected 3 fields (p, bandwidth %, time), got "
                        + f.length + ": " + s);
            }
            try {
                out.add(new Measurement(Integer.parseInt(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])));
            } catch (NumberFormatException ex) {
                throw new TraceFormatException(origin + ":" + no + ": not a number in '" + s + "'", ex);
            }
        }
        return out;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }
}
