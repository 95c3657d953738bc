package dev.straggler.patterns.report;

import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.Metric;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * "Wait states by communicator size" in the terminal report: the waiting on the operations of communicators of each
 * size, with the share of all waiting up to that size, so that "the waiting happens in communicators of at most 16
 * processes" (the KOJAK paper's GYRO finding, reference §9.2) can be read off directly. Shown when waiting happens
 * on more than one communicator.
 */
final class CommunicatorSection {
    private CommunicatorSection() {
    }

    /** Per communicator size: communicators, waiting, and the waiting per metric (seconds). */
    record SizeClass(int size, int communicators, double waiting, Map<String, Double> metrics) {
    }

    static TreeMap<Integer, SizeClass> bySize(List<CommunicatorWaits> comms) {
        TreeMap<Integer, SizeClass> out = new TreeMap<>();
        for (CommunicatorWaits c : comms) {
            if (c.waiting() <= 0) {
                continue;
            }
            SizeClass old = out.get(c.size());
            Map<String, Double> m = new java.util.LinkedHashMap<>(old == null ? Map.of() : old.metrics());
            c.metrics().forEach((k, v) -> m.merge(k, v, Double::sum));
            out.put(c.size(), new SizeClass(c.size(), (old == null ? 0 : old.communicators()) + 1,
                    (old == null ? 0 : old.waiting()) + c.waiting(), m));
        }
        return out;
    }

    static void render(List<CommunicatorWaits> comms, int width, StringBuilder out) {
        long withWaiting = comms.stream().filter(c -> c.waiting() > 0).count();
        if (withWaiting < 2) {
            return;
        }
        TreeMap<Integer, SizeClass> classes = bySize(comms);
        double all = classes.values().stream().mapToDouble(SizeClass::waiting).sum();
        out.append('\n').append("Wait states by communicator size\n");
        out.append(TextReport.fit(String.format(Locale.ROOT, "  %6s %6s %13s %8s %9s  %s", "size", "comms", "waiting",
                "share", "up to", "largest wait state"), width)).append('\n');
        double cumulative = 0;
        for (SizeClass k : classes.values()) {
            cumulative += k.waiting();
            String largest = "";
            double best = 0;
            for (Map.Entry<String, Double> e : k.metrics().entrySet()) {
                if (!e.getKey().endsWith("_completion") && !e.getKey().startsWith("mpi_lswo")
                        && !e.getKey().equals("mpi_latesender_wo") && e.getValue() > best) {
                    best = e.getValue();
                    largest = displayName(e.getKey()) + " " + TextReport.seconds(best) + " s";
                }
            }
            out.append(TextReport.fit(String.format(Locale.ROOT, "  %6d %6d %11s s %8s %9s  %s", k.size(),
                    k.communicators(), TextReport.seconds(k.waiting()), share(k.waiting(), all),
                    share(Math.min(cumulative, all), all), largest), width)).append('\n');
        }
    }

    private static String displayName(String unique) {
        for (Metric m : MetricTree.ALL) {
            if (m.uniqueName().equals(unique)) {
                return m.displayName();
            }
        }
        return unique;
    }

    private static String share(double part, double whole) {
        if (!(whole > 0)) {
            return "0%";
        }
        return String.format(Locale.ROOT, "%.1f%%", Math.max(0, Math.min(100, 100 * part / whole)));
    }
}
