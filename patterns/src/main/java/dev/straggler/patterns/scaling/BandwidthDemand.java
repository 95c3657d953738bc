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
 * Bandwidth demand exactly as Medya et al. (ICPE 2016) define it (reference §9.3), from runs of the application at
 * several process counts ("configurations") with the available bandwidth throttled:
 * <ul>
 *   <li>completion-time increment at bandwidth bw (% of full): {@code CTI_bw = (T_bw − T_100) / T_100};</li>
 *   <li>bandwidth demand {@code BW_CTI,p}: the bandwidth at which configuration p reaches a given CTI, read off its
 *       measured CTI-vs-bandwidth curve, interpolating linearly between measured bandwidths;</li>
 *   <li>demand constant for p1 > p2 and one CTI: {@code DC = (BW_CTI,p1 / BW_CTI,p2) · √(p2 / p1)}; the demand
 *       constant is the average over all configuration pairs and all CTIs;</li>
 *   <li>prediction for p′: {@code BW_CTI,p′ = BW_CTI,p* · DC · √(p′ / p*)}, p* the largest configuration.</li>
 * </ul>
 * Documented choices where the paper is silent: repeated runs of one (p, bw) are averaged; when a curve reaches a
 * CTI more than once (it need not be monotone), the highest such bandwidth is taken, since that is where p first
 * suffers that increment as bandwidth shrinks; a CTI outside a configuration's measured range has no demand there
 * and is reported, never extrapolated; a pair or prediction lacking a demand is left out and said so. What is
 * left out is said once per kind, every configuration or CTI it concerns in one line; when no configuration
 * reaches any CTI, that is the result ({@link Result#noDemand}) instead of a table without values.
 */
public final class BandwidthDemand {

    /** One row of the throttling table. */
    public record Measurement(int tasks, double bandwidthPercent, double completionTime) {
    }

    /** One measured point of a configuration's curve (repeated runs averaged). */
    public record Point(double bandwidthPercent, double completionTime, double cti) {
    }

    /** A configuration's curve, bandwidth descending from 100 %. */
    public record Configuration(int tasks, double fullBandwidthTime, List<Point> points) {
        public double minCti() {
            return points.stream().mapToDouble(Point::cti).min().orElse(0);
        }

        public double maxCti() {
            return points.stream().mapToDouble(Point::cti).max().orElse(0);
        }
    }

    /** {@code BW_CTI,p}, null when the CTI is outside the configuration's measured range. */
    public record Demand(int tasks, double cti, Double bandwidthPercent) {
    }

    /** One demand constant: configurations {@code p1 > p2} at one CTI. */
    public record PairConstant(int p1, int p2, double cti, double dc) {
    }

    /** A predicted bandwidth demand at {@code tasks} processes. */
    public record Prediction(int tasks, double cti, double bandwidthPercent) {
    }

    /**
     * @param demandConstant the mean of {@code constants}; NaN when there is none (then no predictions)
     * @param noDemand       when no configuration reaches any of the CTIs: that fact in one sentence (which CTIs
     *                       the measurements do reach is in {@link #commonReach}); null when some demand exists
     * @param notes          what could not be computed and why, one line per kind
     */
    public record Result(List<Configuration> configurations, List<Double> ctis, List<Demand> demands,
                         List<PairConstant> constants, double demandConstant, List<Prediction> predictions,
                         String noDemand, List<String> notes) {

        /** The largest CTI every configuration reaches within its measured bandwidths (0 when one never slows). */
        public double commonReach() {
            return configurations.stream().mapToDouble(c -> Math.max(0, c.maxCti())).min().orElse(0);
        }

        /** The lowest bandwidth measured in any configuration, percent. */
        public double lowestBandwidth() {
            return configurations.stream().flatMap(c -> c.points().stream()).mapToDouble(Point::bandwidthPercent)
                    .min().orElse(100);
        }
    }

    private BandwidthDemand() {
    }

    /**
     * @param ctis      the CTIs to evaluate, as fractions (0.08 for 8 %)
     * @param predictAt process counts to predict the demand for
     * @throws IllegalArgumentException when a configuration has no run at 100 % bandwidth, or a value is not positive
     */
    public static Result analyse(List<Measurement> table, List<Double> ctis, int[] predictAt) {
        TreeMap<Integer, TreeMap<Double, double[]>> byTasks = new TreeMap<>();
        for (Measurement m : table) {
            if (m.tasks() <= 0 || !(m.bandwidthPercent() > 0) || m.bandwidthPercent() > 100
                    || !(m.completionTime() > 0)) {
                throw new IllegalArgumentException("throttling row needs tasks > 0, 0 < bandwidth <= 100 % and a "
                        + "positive time: " + m);
            }
            double[] acc = byTasks.computeIfAbsent(m.tasks(), k -> new TreeMap<>())
                    .computeIfAbsent(m.bandwidthPercent(), k -> new double[2]);
            acc[0] += m.completionTime();
            acc[1]++;
        }
        List<String> notes = new ArrayList<>();
        List<Configuration> configs = new ArrayList<>();
        for (var e : byTasks.entrySet()) {
            double[] full = e.getValue().get(100.0);
            if (full == null) {
                throw new IllegalArgumentException("p=" + e.getKey() + " has no run at 100 % bandwidth: CTI is "
                        + "defined against it");
            }
            double t100 = full[0] / full[1];
            List<Point> pts = new ArrayList<>();
            for (var r : e.getValue().descendingMap().entrySet()) {
                double t = r.getValue()[0] / r.getValue()[1];
                pts.add(new Point(r.getKey(), t, (t - t100) / t100));
            }
            configs.add(new Configuration(e.getKey(), t100, pts));
        }
        List<Demand> demands = new ArrayList<>();
        Map<Integer, Map<Double, Double>> bw = new TreeMap<>();
        // per configuration, the CTIs it never reaches: one note for all of them, not one per (p, CTI)
        List<String> missed = new ArrayList<>();
        int missing = 0;
        for (Configuration c : configs) {
            List<String> never = new ArrayList<>();
            for (double cti : ctis) {
                Double b = bandwidthAt(c, cti);
                demands.add(new Demand(c.tasks(), cti, b));
                if (b == null) {
                    never.add(pct(cti));
                } else {
                    bw.computeIfAbsent(c.tasks(), k -> new TreeMap<>()).put(cti, b);
                }
            }
            missing += never.size();
            if (!never.isEmpty()) {
                missed.add(String.format(Locale.ROOT, "p=%d never reaches CTI %s %% (its CTIs span %s %% .. %s %%)",
                        c.tasks(), String.join(", ", never), pct(c.minCti()), pct(c.maxCti())));
            }
        }
        String noDemand = null;
        if (!configs.isEmpty() && !ctis.isEmpty() && missing == demands.size()) {
            Configuration most = configs.get(0);
            Point worst = null;
            for (Configuration c : configs) {
                for (Point pt : c.points()) {
                    if (worst == null || pt.cti() > worst.cti()) {
                        worst = pt;
                        most = c;
                    }
                }
            }
            List<String> all = ctis.stream().map(BandwidthDemand::pct).toList();
            double lowest = configs.stream().flatMap(c -> c.points().stream()).mapToDouble(Point::bandwidthPercent)
                    .min().orElse(100);
            noDemand = String.format(Locale.ROOT, "no configuration reaches %s at any measured bandwidth down to %s %% "
                            + "(the largest CTI is %s %%, p=%d at %s %%)",
                    (all.size() == 1 ? "CTI " : "any CTI of ") + String.join(", ", all) + " %",
                    BandwidthReport.num(lowest), pct(worst.cti()), most.tasks(),
                    BandwidthReport.num(worst.bandwidthPercent()));
        } else if (missing > 0) {
            notes.add(String.format(Locale.ROOT, "no demand for %d of %d (p, CTI) pairs, the CTI being outside the "
                    + "measured range (never extrapolated): %s", missing, demands.size(), String.join("; ", missed)));
        }
        List<PairConstant> constants = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            for (int j = i + 1; j < configs.size(); j++) {
                int p2 = configs.get(i).tasks();
                int p1 = configs.get(j).tasks();
                for (double cti : ctis) {
                    Double b1 = bw.getOrDefault(p1, Map.of()).get(cti);
                    Double b2 = bw.getOrDefault(p2, Map.of()).get(cti);
                    if (b1 != null && b2 != null) {
                        constants.add(new PairConstant(p1, p2, cti, b1 / b2 * Math.sqrt((double) p2 / p1)));
                    }
                }
            }
        }
        double dc = constants.isEmpty() ? Double.NaN
                : constants.stream().mapToDouble(PairConstant::dc).average().orElse(Double.NaN);
        if (configs.size() < 2) {
            notes.add("one configuration only: a demand constant needs two");
        }
        List<Prediction> predictions = new ArrayList<>();
        if (predictAt.length > 0 && Double.isNaN(dc) && noDemand == null) {
            notes.add("no predictions: no two configurations have a demand at one CTI, so there is no demand constant");
        }
        if (!Double.isNaN(dc) && !configs.isEmpty()) {
            int largest = configs.get(configs.size() - 1).tasks();
            List<String> lacking = new ArrayList<>();
            Map<Integer, List<String>> beyondFull = new TreeMap<>();
            for (double cti : ctis) {
                if (bw.getOrDefault(largest, Map.of()).get(cti) == null) {
                    lacking.add(pct(cti));
                }
            }
            for (int q : predictAt) {
                for (double cti : ctis) {
                    Double b = bw.getOrDefault(largest, Map.of()).get(cti);
                    if (b == null) {
                        continue;
                    }
                    double v = b * dc * Math.sqrt((double) q / largest);
                    predictions.add(new Prediction(q, cti, v));
                    if (v > 100) {
                        beyondFull.computeIfAbsent(q, k -> new ArrayList<>())
                                .add(String.format(Locale.ROOT, "%s %% (%.1f %%)", pct(cti), v));
                    }
                }
            }
            if (predictAt.length > 0 && !lacking.isEmpty()) {
                notes.add(String.format(Locale.ROOT, "no prediction for CTI %s %%: the largest configuration (p=%d) "
                        + "has no demand there", String.join(", ", lacking), largest));
            }
            if (!beyondFull.isEmpty()) {
                List<String> parts = new ArrayList<>();
                beyondFull.forEach((q, l) -> parts.add("p=" + q + " at CTI " + String.join(", ", l)));
                notes.add("more than the full bandwidth would be needed to stay within the CTI, so that increment "
                        + "cannot be avoided: " + String.join("; ", parts));
            }
        }
        return new Result(configs, List.copyOf(ctis), demands, constants, dc, predictions, noDemand, notes);
    }

    /**
     * The highest bandwidth at which the configuration's CTI equals {@code cti}, interpolating linearly between
     * neighbouring measured bandwidths; null outside the measured range.
     */
    static Double bandwidthAt(Configuration c, double cti) {
        List<Point> pts = c.points();
        for (int i = 0; i + 1 < pts.size(); i++) {
            Point hi = pts.get(i);
            Point lo = pts.get(i + 1);
            double a = hi.cti();
            double b = lo.cti();
            if (a == cti) {
                return hi.bandwidthPercent();
            }
            if ((a < cti && cti <= b) || (b <= cti && cti < a)) {
                double f = (cti - a) / (b - a);
                return hi.bandwidthPercent() + f * (lo.bandwidthPercent() - hi.bandwidthPercent());
            }
        }
        return pts.size() == 1 && pts.get(0).cti() == cti ? pts.get(0).bandwidthPercent() : null;
    }

    private static String pct(double fraction) {
        double v = 100 * fraction;
        return Math.abs(v - Math.rint(v)) < 1e-9 ? Long.toString(Math.round(v))
                : new java.math.BigDecimal(String.format(Locale.ROOT, "%.3g", v)).stripTrailingZeros().toPlainString();
    }

    /**
     * Reads the table: CSV rows {@code tasks,bandwidth_percent,completion_time_s} (commas or white space; a header
     * line of words and lines starting with {@code #} are skipped; a {@code %} after the bandwidth is allowed).
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
            String[] f = s.replace("%", " ").trim().split("[,;\\s]+");
            if (out.isEmpty() && !Character.isDigit(f[0].charAt(0)) && f[0].charAt(0) != '.') {
                continue;
            }
            if (f.length != 3) {
                throw new TraceFormatException(origin + ":" + no + ": expected 3 fields (tasks, bandwidth %, "
                        + "completion time s), got " + f.length + ": " + s);
            }
            Measurement m;
            try {
                m = new Measurement(Integer.parseInt(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]));
            } catch (NumberFormatException ex) {
                throw new TraceFormatException(origin + ":" + no + ": not a number in '" + s + "'", ex);
            }
            if (m.tasks() <= 0 || !(m.bandwidthPercent() > 0) || m.bandwidthPercent() > 100
                    || !(m.completionTime() > 0)) {
                throw new TraceFormatException(origin + ":" + no + ": tasks must be > 0, bandwidth within (0, 100] % "
                        + "and the time positive: " + s);
            }
            out.add(m);
        }
        return out;
    }
}
