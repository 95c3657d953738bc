package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The "why" of the terminal report: which call paths on which ranks cause the waiting (delay costs, short-term and
 * propagated), how much of the point-to-point waiting propagates or is itself propagated, and what the critical
 * path consists of. Shown only when the root-cause stage ran and found something.
 */
final class RootCauseSection {
    private static final int TOP = 5;

    private RootCauseSection() {
    }

    static void render(SeverityCube c, int width, StringBuilder out) {
        double delay = c.total(MetricTree.DELAY);
        double cp = c.total(MetricTree.CRITICAL_PATH);
        if (delay <= 0 && cp <= 0) {
            return;
        }
        double waiting = c.total(MetricTree.MPI_LATESENDER) + c.total(MetricTree.MPI_LATERECEIVER)
                + c.total(MetricTree.MPI_BARRIER_WAIT) + c.total(MetricTree.MPI_WAIT_NXN)
                + c.total(MetricTree.MPI_LATEBROADCAST) + c.total(MetricTree.MPI_EARLYREDUCE);
        out.append('\n').append("Root causes\n");
        if (delay > 0 && waiting > 0) {
            out.append(fit(String.format(Locale.ROOT, "%s s of waiting (%s) is explained by delays on the "
                    + "processes waited for:", TextReport.seconds(delay), share(delay, waiting)), width)).append('\n');
            List<int[]> causes = new ArrayList<>();
            for (int p = 0; p < c.callPaths().size(); p++) {
                for (int l = 0; l < c.locations().size(); l++) {
                    if (c.get(MetricTree.DELAY, p, l) > 0) {
                        causes.add(new int[]{p, l});
                    }
                }
            }
            causes.sort(Comparator.comparingDouble((int[] x) -> -c.get(MetricTree.DELAY, x[0], x[1]))
                    .thenComparingInt(x -> x[0]).thenComparingInt(x -> x[1]));
            for (int[] x : causes.subList(0, Math.min(TOP, causes.size()))) {
                double d = c.get(MetricTree.DELAY, x[0], x[1]);
                double shortTerm = c.get(MetricTree.DELAY_LATESENDER, x[0], x[1])
                        + c.get(MetricTree.DELAY_LATERECEIVER, x[0], x[1]) + c.get(MetricTree.DELAY_BARRIER, x[0], x[1])
                        + c.get(MetricTree.DELAY_N2N, x[0], x[1]) + c.get(MetricTree.DELAY_12N, x[0], x[1])
                        + c.get(MetricTree.DELAY_N21, x[0], x[1]);
                var loc = c.locations().get(x[1]);
                String head = String.format(Locale.ROOT, "  %5s %10s s  rank %d%s  ", share(d, waiting),
                        TextReport.seconds(d), loc.rank(), loc.thread() == 0 ? "" : "." + loc.thread());
                String tail = String.format(Locale.ROOT, "  (%s short-term, %s propagated)",
                        TextReport.seconds(shortTerm), TextReport.seconds(d - shortTerm));
                int room = Math.max(20, width - head.length() - tail.length());
                out.append(head).append(TextReport.shortPath(c, x[0], room)).append(fit(tail, width)).append('\n');
            }
        }
        double ls = c.total(MetricTree.MPI_LATESENDER);
        double lr = c.total(MetricTree.MPI_LATERECEIVER);
        if (ls + lr > 0) {
            double prop = c.total(MetricTree.MPI_WAIT_PROPAGATING);
            double indirect = c.total(MetricTree.MPI_WAIT_INDIRECT);
            out.append(fit(String.format(Locale.ROOT, "Point-to-point waiting: %s propagates to other processes, "
                    + "%s was itself propagated (indirect)", share(prop, ls + lr), share(indirect, ls + lr)), width))
                    .append('\n');
        }
        if (cp > 0) {
            out.append(fit(String.format(Locale.ROOT, "Critical path: %s s; its imbalance %s s (time on the path "
                    + "above the call paths' average):", TextReport.seconds(cp),
                    TextReport.seconds(c.total(MetricTree.CRITICAL_PATH_IMBALANCE))), width)).append('\n');
            List<Integer> paths = new ArrayList<>();
            for (int p = 0; p < c.callPaths().size(); p++) {
                if (c.sumOverLocations(MetricTree.CRITICAL_PATH, p) > 0) {
                    paths.add(p);
                }
            }
            paths.sort(Comparator.comparingDouble((Integer p) -> -c.sumOverLocations(MetricTree.CRITICAL_PATH, p))
                    .thenComparingInt(p -> p));
            for (int p : paths.subList(0, Math.min(TOP, paths.size()))) {
                double v = c.sumOverLocations(MetricTree.CRITICAL_PATH, p);
                double imb = c.sumOverLocations(MetricTree.CRITICAL_PATH_IMBALANCE, p);
                String head = String.format(Locale.ROOT, "  %5s %10s s  ", share(v, cp), TextReport.seconds(v));
                String tail = String.format(Locale.ROOT, "  imbalance %s s", TextReport.seconds(imb));
                int room = Math.max(20, width - head.length() - tail.length());
                out.append(head).append(TextReport.shortPath(c, p, room)).append(tail).append('\n');
            }
        }
    }

    /** A share in percent, clamped to [0, 100] so that rounding never shows an impossible number. */
    private static String share(double part, double whole) {
        if (!(whole > 0)) {
            return "0%";
        }
        double s = Math.max(0, Math.min(100, 100 * part / whole));
        return String.format(Locale.ROOT, "%.0f%%", s);
    }

    private static String fit(String s, int width) {
        return s.length() <= width ? s : s.substring(0, Math.max(0, width - 1)) + "…";
    }
}
