package dev.straggler.patterns.report;

import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.Metric;

import java.util.List;
import java.util.Locale;

/**
 * "Wait states by communicator size" in the terminal report: the waiting on the operations of communicators of each
 * size, with the share of all waiting up to that size, so that "the waiting happens in communicators of at most 16
 * processes" (the KOJAK paper's GYRO finding, reference §9.2) can be read off directly. Shown when waiting happens
 * on more than one communicator.
 */
final class CommunicatorSection {
    private CommunicatorSection() {
    }

    static void render(List<CommunicatorWaits> comms, int width, StringBuilder out) {
        long withWaiting = comms.stream().filter(c -> c.waiting() > 0).count();
        if (withWaiting < 2) {
            return;
        }
        List<CommunicatorWaits.SizeClass> classes = CommunicatorWaits.bySize(comms);
        double all = classes.stream().mapToDouble(CommunicatorWaits.SizeClass::waiting).sum();
        out.append('\n').append("Wait states by communicator size\n");
        out.append(String.format(Locale.ROOT, "  %6s %6s %13s %8s %9s  %s", "size", "comms", "waiting",
                "share", "up to", "largest wait state")).append('\n');
        double cumulative = 0;
        for (CommunicatorWaits.SizeClass k : classes) {
            cumulative += k.waiting();
            String w = k.largestWaitState();
            String largest = w == null ? "" : displayName(w) + " " + TextReport.seconds(k.metrics().get(w)) + " s";
            out.append(String.format(Locale.ROOT, "  %6d %6d %11s s %8s %9s  %s", k.size(),
                    k.communicators(), TextReport.seconds(k.waiting()), share(k.waiting(), all),
                    share(Math.min(cumulative, all), all), largest)).append('\n');
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
