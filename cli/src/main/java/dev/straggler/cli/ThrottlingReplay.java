package dev.straggler.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.cli.report.HtmlPage;
import dev.straggler.cli.report.HtmlSection;
import dev.straggler.patterns.scaling.BandwidthDemand;
import dev.straggler.testdata.sim.NetworkModel;
import dev.straggler.testdata.sim.WhatIfReplay;
import dev.straggler.trace.Numbers;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.lang.ref.SoftReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The throttling table of Medya et al. produced from traces: every trace is replayed ({@link WhatIfReplay}) on the
 * network model at each bandwidth level, in parallel over levels. The replay is deterministic, so one replay per
 * (trace, level) is the "run"; several traces of one process count are averaged by the analysis as repeated runs.
 */
final class ThrottlingReplay {

    /** One trace's replayed completion times, one per level. */
    record Row(String trace, int tasks, double measuredSeconds, double[] seconds, long unmatchedSends,
               long unmatchedReceives, long incompleteCollectives, List<String> partial) {
    }

    /**
     * @param calibration    where the link bandwidth and latency come from
     * @param bandwidthGiven whether --link-bandwidth was given
     * @param latencyGiven   whether --latency was given
     */
    record Table(NetworkModel network, LinkCalibration.Calibration calibration, boolean bandwidthGiven,
                 boolean latencyGiven, List<Double> levels, List<Row> rows) {

        List<BandwidthDemand.Measurement> measurements() {
            List<BandwidthDemand.Measurement> m = new ArrayList<>();
            for (Row r : rows) {
                for (int i = 0; i < levels.size(); i++) {
                    m.add(new BandwidthDemand.Measurement(r.tasks(), levels.get(i), r.seconds()[i]));
                }
            }
            return m;
        }

        String networkLine() {
            return String.format(Locale.ROOT, "latency %s, %s at 100 %%, eager up to %d bytes, call overhead %s",
                    seconds(network.latency() / 1e9), rate(network.bandwidth()), network.eagerThreshold(),
                    seconds(network.overhead() / 1e9));
        }

        String text() {
            StringBuilder b = new StringBuilder("What-if replay of each trace on a network model (" + networkLine()
                    + "): completion time per bandwidth level\n");
            if (origin() != null) {
                b.append("  ").append(origin()).append('\n');
            }
            int w = Math.max(5, rows.stream().mapToInt(r -> r.trace().length()).max().orElse(5));
            b.append(String.format(Locale.ROOT, "  %-" + w + "s %6s %10s", "trace", "tasks", "measured"));
            for (double l : levels) {
                b.append(String.format(Locale.ROOT, " %10s", fmtPercent(l)));
            }
            b.append('\n');
            for (Row r : rows) {
                b.append(String.format(Locale.ROOT, "  %-" + w + "s %6d %10s", r.trace(), r.tasks(),
                        seconds(r.measuredSeconds())));
                for (double s : r.seconds()) {
                    b.append(String.format(Locale.ROOT, " %10s", seconds(s)));
                }
                b.append('\n');
            }
            if (agreement() != null) {
                b.append("  ").append(agreement()).append('\n');
            }
            for (String n : notes()) {
                b.append("  note: ").append(n).append('\n');
            }
            return b.toString();
        }

        /** Where the network's parameters come from, and how the replay at 100 % compares with the measured run. */
        List<String> summary() {
            List<String> out = new ArrayList<>();
            if (origin() != null) {
                out.add(origin());
            }
            if (agreement() != null) {
                out.add(agreement());
            }
            return out;
        }

        /** Where the link bandwidth and latency come from; null when both were given. */
        String origin() {
            return calibration.describe(bandwidthGiven, latencyGiven);
        }

        /** The replay at 100 % against the measured time, the range over the traces. */
        String agreement() {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (Row r : rows) {
                if (r.measuredSeconds() > 0) {
                    lo = Math.min(lo, r.seconds()[0] / r.measuredSeconds());
                    hi = Math.max(hi, r.seconds()[0] / r.measuredSeconds());
                }
            }
            if (lo > hi) {
                return null;
            }
            return "at 100 % the replay takes " + (g3(100 * lo).equals(g3(100 * hi)) ? g3(100 * lo)
                    : g3(100 * lo) + " % to " + g3(100 * hi)) + " % of the measured time";
        }

        /** What the replay could not do as asked, one line per kind (traces listed in it). */
        List<String> notes() {
            List<String> out = new ArrayList<>();
            List<String> off = new ArrayList<>();
            for (Row r : rows) {
                double fit = r.measuredSeconds() > 0 ? r.seconds()[0] / r.measuredSeconds() : 1;
                if (Math.abs(fit - 1) > 0.1) {
                    off.add(r.trace());
                }
            }
            if (!off.isEmpty()) {
                out.add("at 100 % the replay of " + String.join(", ", off) + " is more than 10 % off the measured "
                        + "time: the model lacks what the run spent beyond latency and bandwidth (contention, software "
                        + "overhead, "
                        + "oversubscription); describe the machine's network with --link-bandwidth, --latency, "
                        + "--eager and --overhead for CTIs that apply to it");
            }
            java.util.Map<String, List<String>> partial = new java.util.LinkedHashMap<>();
            for (Row r : rows) {
                for (String why : r.partial()) {
                    partial.computeIfAbsent(why, k -> new ArrayList<>()).add(r.trace());
                }
            }
            partial.forEach((why, traces) -> out.add("partial replay of " + String.join(", ", traces) + ": " + why));
            List<String> unmatched = new ArrayList<>();
            for (Row r : rows) {
                if (r.unmatchedSends() + r.unmatchedReceives() + r.incompleteCollectives() > 0) {
                    unmatched.add(String.format(Locale.ROOT, "%s: %d send(s), %d receive(s), %d collective record(s)",
                            r.trace(), r.unmatchedSends(), r.unmatchedReceives(), r.incompleteCollectives()));
                }
            }
            if (!unmatched.isEmpty()) {
                out.add("sends and receives without a partner and collective records of incomplete instances kept "
                        + "their recorded timing: " + String.join("; ", unmatched));
            }
            return out;
        }

        String csv() {
            StringBuilder b = new StringBuilder("tasks,bandwidth_percent,completion_time_s\n");
            for (BandwidthDemand.Measurement m : measurements()) {
                // the shortest text that reads back to the replayed double, as every CSV Straggler writes
                b.append(m.tasks()).append(',').append(Numbers.shortest(m.bandwidthPercent())).append(',')
                        .append(Numbers.shortest(m.completionTime())).append('\n');
            }
            return b.toString();
        }

        ObjectNode json() {
            JsonNodeFactory f = JsonNodeFactory.instance;
            ObjectNode o = f.objectNode();
            ObjectNode net = o.putObject("network");
            net.put("latencySeconds", network.latency() / 1e9);
            net.put("bandwidthBytesPerSecond", network.bandwidth());
            net.put("eagerThresholdBytes", network.eagerThreshold());
            net.put("overheadSeconds", network.overhead() / 1e9);
            ObjectNode cal = net.putObject("calibration");
            cal.put("bandwidth", bandwidthGiven ? "given" : calibration.bandwidthCalibrated() ? "calibrated" : "default");
            cal.put("latency", latencyGiven ? "given" : calibration.latencyCalibrated() ? "calibrated" : "default");
            if (calibration.calibrated()) {
                cal.put("basis", calibration.basis().observations);
                cal.put("points", calibration.points());
                cal.put("observations", calibration.observations());
                cal.put("traces", calibration.traces());
            }
            if (calibration.failure() != null) {
                cal.put("failure", calibration.failure());
            }
            ArrayNode notes = o.putArray("notes");
            summary().forEach(notes::add);
            notes().forEach(notes::add);
            ArrayNode lv = o.putArray("bandwidthPercent");
            levels.forEach(lv::add);
            ArrayNode rs = o.putArray("traces");
            for (Row r : rows) {
                ObjectNode t = rs.addObject();
                t.put("trace", r.trace());
                t.put("tasks", r.tasks());
                t.put("measuredSeconds", r.measuredSeconds());
                ArrayNode s = t.putArray("completionTimeSeconds");
                for (double x : r.seconds()) {
                    s.add(x);
                }
                t.put("unmatchedSends", r.unmatchedSends());
                t.put("unmatchedReceives", r.unmatchedReceives());
                t.put("incompleteCollectiveRecords", r.incompleteCollectives());
            }
            return o;
        }

        HtmlSection section() {
            Table t = this;
            return new HtmlSection() {
                @Override
                public String id() {
                    return "whatif";
                }

                @Override
                public String title() {
                    return "What-if replay: completion time per bandwidth";
                }

                @Override
                public void writeBody(Appendable h) throws IOException {
                    h.append("<p class=\"note\">").append(HtmlPage.esc("Each trace replayed on a network model ("
                            + t.networkLine() + "): the recorded computation is kept, every communication is re-timed "
                            + "at the bandwidth level.")).append("</p>");
                    for (String line : t.summary()) {
                        h.append("<p class=\"note\">").append(HtmlPage.esc(capital(line) + ".")).append("</p>");
                    }
                    h.append("<table class=\"top\"><thead><tr><th>trace</th><th class=\"num\">p</th>"
                            + "<th class=\"num\">measured</th>");
                    for (double l : t.levels()) {
                        h.append("<th class=\"num\">").append(HtmlPage.esc(fmtPercent(l))).append("</th>");
                    }
                    h.append("</tr></thead><tbody>");
                    for (Row r : t.rows()) {
                        h.append("<tr><td>").append(HtmlPage.esc(r.trace())).append("</td><td class=\"num\">")
                                .append(Integer.toString(r.tasks())).append("</td><td class=\"num\">")
                                .append(HtmlPage.esc(seconds(r.measuredSeconds()))).append("</td>");
                        for (double s : r.seconds()) {
                            h.append("<td class=\"num\">").append(HtmlPage.esc(seconds(s))).append("</td>");
                        }
                        h.append("</tr>");
                    }
                    h.append("</tbody></table>");
                    List<String> notes = t.notes();
                    if (!notes.isEmpty()) {
                        h.append("<ul class=\"notes\">");
                        for (String n : notes) {
                            h.append("<li>").append(HtmlPage.esc(n)).append("</li>");
                        }
                        h.append("</ul>");
                    }
                }
            };
        }
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private ThrottlingReplay() {
    }

    /**
     * Replays every trace at every level.
     *
     * @param bandwidth the link bandwidth at 100 % (bytes/s), or null to calibrate it on the traces
     * @param latency   the latency (s), or null to calibrate it on the traces
     */
    static Table run(List<Path> traces, List<Double> levels, Double bandwidth, Double latency, long eager,
                     double overhead, CommonOptions common) throws IOException {
        boolean calibrating = bandwidth == null || latency == null;
        List<Row> rows = new ArrayList<>();
        try (Progress bar = Progress.start("what-if replay", (long) traces.size() * (levels.size()
                + (calibrating ? 1 : 0)), "runs", common.quiet)) {
            // the network must be known before the first replay: read every trace's recorded times first, keeping
            // the loaded traces while memory allows
            List<SoftReference<Loaded>> loaded = new ArrayList<>();
            List<WhatIfReplay.RecordedTimes> recorded = new ArrayList<>();
            if (calibrating) {
                for (Path p : traces) {
                    Loaded l = load(p, common, true);
                    recorded.add(l.replay().recordedTimes());
                    loaded.add(new SoftReference<>(l));
                    bar.accept(1);
                }
            }
            LinkCalibration.Calibration cal = LinkCalibration.calibrate(recorded, bandwidth, latency);
            NetworkModel full = new NetworkModel(Math.round(cal.latency() * 1e9), cal.bandwidth(), eager,
                    Math.round(overhead * 1e9), 0);
            for (int t = 0; t < traces.size(); t++) {
                Path p = traces.get(t);
                Loaded l = t < loaded.size() ? loaded.get(t).get() : null;
                if (l == null) {
                    l = load(p, common, t >= loaded.size());
                }
                if (t < loaded.size()) {
                    loaded.set(t, null);
                }
                WhatIfReplay replay = l.replay();
                double[] seconds = new double[levels.size()];
                try {
                    IntStream.range(0, levels.size()).parallel().forEach(i -> {
                        NetworkModel net = new NetworkModel(full.latency(), full.bandwidth() * levels.get(i) / 100,
                                full.eagerThreshold(), full.overhead(), full.exitStagger());
                        seconds[i] = replay.run(net).seconds();
                        bar.accept(1);
                    });
                } catch (IllegalStateException e) {
                    // the recorded matching deadlocks on the model: the message names the trace and the ranks
                    throw new IOException(e.getMessage(), e);
                }
                rows.add(new Row(p.toString(), replay.ranks(), replay.measuredSeconds(), seconds,
                        replay.unmatchedSends(), replay.unmatchedReceives(), replay.incompleteCollectives(),
                        l.partial()));
            }
            rows.sort(Comparator.comparingInt(Row::tasks));
            return new Table(full, cal, bandwidth != null, latency != null, levels, rows);
        }
    }

    private record Loaded(WhatIfReplay replay, List<String> partial) {
    }

    /** @param report whether to report what a lenient read skipped (not again when a trace is read twice) */
    private static Loaded load(Path p, CommonOptions common, boolean report) throws IOException {
        try (TraceSource src = Inputs.open(p, common)) {
            WhatIfReplay replay = WhatIfReplay.load(src);
            List<String> partial = src.partialReasons();
            if (report) {
                Inputs.reportSkipped(src);
            }
            return new Loaded(replay, partial);
        } catch (RuntimeException e) {
            throw new IOException(p + ": " + e.getMessage(), e);
        }
    }

    static String seconds(double s) {
        if (s == 0) {
            return "0 s";
        }
        double a = Math.abs(s);
        if (a >= 1) {
            return g4(s) + " s";
        }
        if (a >= 1e-3) {
            return g4(s * 1e3) + " ms";
        }
        if (a >= 1e-6) {
            return g4(s * 1e6) + " µs";
        }
        return g4(s * 1e9) + " ns";
    }

    static String rate(double bytesPerSecond) {
        if (bytesPerSecond >= 1e9) {
            return g4(bytesPerSecond / 1e9) + " GB/s";
        }
        if (bytesPerSecond >= 1e6) {
            return g4(bytesPerSecond / 1e6) + " MB/s";
        }
        return g4(bytesPerSecond) + " B/s";
    }

    /** Three significant digits without trailing zeros. */
    static String g3(double v) {
        return new java.math.BigDecimal(String.format(Locale.ROOT, "%.3g", v)).stripTrailingZeros().toPlainString();
    }

    /** Four significant digits without trailing zeros. */
    static String g4(double v) {
        return new java.math.BigDecimal(String.format(Locale.ROOT, "%.4g", v)).stripTrailingZeros().toPlainString();
    }

    static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.6g", v);
    }

    static String fmtPercent(double v) {
        return fmt(v) + " %";
    }
}
