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

    record Table(NetworkModel network, List<Double> levels, List<Row> rows) {

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
            for (Row r : rows) {
                double fit = r.measuredSeconds() > 0 ? r.seconds()[0] / r.measuredSeconds() : 1;
                if (Math.abs(fit - 1) > 0.1) {
                    b.append(String.format(Locale.ROOT, "  note: %s: at 100 %% the model gives %.0f %% of the measured"
                            + " time; describe the machine's network with --link-bandwidth, --latency, --eager and"
                            + " --overhead for CTIs that apply to it%n", r.trace(), 100 * fit));
                }
            }
            for (Row r : rows) {
                for (String why : r.partial()) {
                    b.append("  note: ").append(r.trace()).append(": partial replay: ").append(why).append('\n');
                }
                if (r.unmatchedSends() + r.unmatchedReceives() + r.incompleteCollectives() > 0) {
                    b.append(String.format(Locale.ROOT, "  note: %s: %d send(s) and %d receive(s) without a partner"
                                    + " and %d collective record(s) of incomplete instances kept their recorded"
                                    + " timing%n", r.trace(), r.unmatchedSends(), r.unmatchedReceives(),
                            r.incompleteCollectives()));
                }
            }
            return b.toString();
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
                }
            };
        }
    }

    private ThrottlingReplay() {
    }

    static Table run(List<Path> traces, List<Double> levels, NetworkModel full, CommonOptions common)
            throws IOException {
        List<Row> rows = new ArrayList<>();
        try (Progress bar = Progress.start("what-if replay", (long) traces.size() * levels.size(), "runs",
                common.quiet)) {
            for (Path p : traces) {
                WhatIfReplay replay;
                List<String> partial;
                try (TraceSource src = Inputs.open(p, common)) {
                    replay = WhatIfReplay.load(src);
                    partial = src.partialReasons();
                    Inputs.reportSkipped(src);
                } catch (RuntimeException e) {
                    throw new IOException(p + ": " + e.getMessage(), e);
                }
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
                        replay.unmatchedSends(), replay.unmatchedReceives(), replay.incompleteCollectives(), partial));
            }
        }
        rows.sort(Comparator.comparingInt(Row::tasks));
        return new Table(full, levels, rows);
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
