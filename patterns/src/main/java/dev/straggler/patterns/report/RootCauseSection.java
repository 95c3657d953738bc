package dev.straggler.patterns.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.MetricTree;
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
    private static final int[] SHORT_TERM = {MetricTree.DELAY_LATESENDER, MetricTree.DELAY_LATERECEIVER,
            MetricTree.DELAY_BARRIER, MetricTree.DELAY_N2N, MetricTree.DELAY_12N, MetricTree.DELAY_N21};

    private RootCauseSection() {
    }

    /** Said when the root-cause stage was not asked for; the figure is the measured cost (docs/root-causes.md). */
    static final String NOT_ANALYSED = "Root causes (why the waiting happens) were not analysed: add --root-causes "
            + "for the delays that cause it, how it propagates and the critical path (5-7x the analysis time).";

    static void render(SeverityCube c, boolean hasMpi, int width, StringBuilder out) {
        if (!Analysis.rootCausesAnalysed(c)) {
            if (hasMpi && c.total(MetricTree.MPI) > 0) {
                out.append('\n').append(TextReport.wrap(NOT_ANALYSED, width));
            }
            return;
        }
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
            out.append(TextReport.wrap(String.format(Locale.ROOT, "%s of all waiting (%s s) is caused by delays on the "
                    + "processes waited for, above all:", share(delay, waiting), TextReport.seconds(delay)), width));
            List<Integer> causes = new ArrayList<>();
            for (int p = 0; p < c.callPaths().size(); p++) {
                if (c.sumOverLocations(MetricTree.DELAY, p) > 0) {
                    causes.add(p);
                }
            }
            causes.sort(Comparator.comparingDouble((Integer p) -> -c.sumOverLocations(MetricTree.DELAY, p))
                    .thenComparingInt(p -> p));
            for (int p : causes.subList(0, Math.min(TOP, causes.size()))) {
                double d = c.sumOverLocations(MetricTree.DELAY, p);
                double shortTerm = 0;
                for (int m : SHORT_TERM) {
                    shortTerm += c.sumOverLocations(m, p);
                }
                String head = String.format(Locale.ROOT, "  %6s %10s s  ", share(d, waiting), TextReport.seconds(d));
                out.append(head).append(TextReport.path(c, p)).append('\n');
                out.append(TextReport.wrap(String.format(Locale.ROOT, "%" + head.length() + "s%s: %s s short-term, %s s "
                        + "propagated", "", "on " + ranks(c, p), TextReport.seconds(shortTerm),
                        TextReport.seconds(clean(Math.max(0, d - shortTerm), d))), width));
            }
        }
        double ls = c.total(MetricTree.MPI_LATESENDER);
        double lr = c.total(MetricTree.MPI_LATERECEIVER);
        if (ls + lr > 0) {
            double prop = c.total(MetricTree.MPI_WAIT_PROPAGATING);
            double indirect = c.total(MetricTree.MPI_WAIT_INDIRECT);
            out.append(TextReport.wrap(String.format(Locale.ROOT, "Point-to-point waiting: %s propagates to other "
                    + "processes, %s was itself propagated (indirect).", share(prop, ls + lr),
                    share(indirect, ls + lr)), width));
        }
        if (cp > 0) {
            out.append(TextReport.wrap(String.format(Locale.ROOT, "Critical path %s s, of it %s s imbalance (longer "
                    + "on the path than on average):", TextReport.seconds(cp),
                    TextReport.seconds(clean(c.total(MetricTree.CRITICAL_PATH_IMBALANCE), cp))), width));
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
                double imb = clean(c.sumOverLocations(MetricTree.CRITICAL_PATH_IMBALANCE, p), cp);
                String head = String.format(Locale.ROOT, "  %6s %10s s  ", share(v, cp), TextReport.seconds(v));
                String tail = String.format(Locale.ROOT, "  imbalance %s s", TextReport.seconds(imb));
                int room = Math.max(20, width - head.length() - tail.length());
                out.append(head).append(TextReport.column(TextReport.path(c, p), room)).append(tail).append('\n');
            }
        }
    }

    /** A share in percent, clamped to [0, 100] so that rounding never shows an impossible number. */
    private static String share(double part, double whole) {
        if (!(whole > 0)) {
            return "0%";
        }
        double s = Math.max(0, Math.min(100, 100 * part / whole));
        return String.format(Locale.ROOT, "%.1f%%", s);
    }

    /** Rounding residue of a difference of sums (below 1e-9 of the whole) is shown as 0. */
    private static double clean(double v, double whole) {
        return Math.abs(v) < 1e-9 * whole ? 0 : v;
    }

    /** The ranks holding most of a call path's delay: "rank 9", "ranks 5, 6, 7 +4". */
    private static String ranks(SeverityCube c, int path) {
        double[] per = new double[c.locations().size()];
        List<Integer> locs = new ArrayList<>();
        for (int l = 0; l < per.length; l++) {
            per[l] = c.get(MetricTree.DELAY, path, l);
            if (per[l] > 0) {
                locs.add(l);
            }
        }
        locs.sort(Comparator.comparingDouble((Integer l) -> -per[l]).thenComparingInt(l -> l));
        StringBuilder b = new StringBuilder(locs.size() == 1 ? "rank " : "ranks ");
        for (int i = 0; i < Math.min(3, locs.size()); i++) {
            var loc = c.locations().get(locs.get(i));
            b.append(i > 0 ? ", " : "").append(loc.rank()).append(loc.thread() == 0 ? "" : "." + loc.thread());
        }
        if (locs.size() > 3) {
            b.append(" +").append(locs.size() - 3);
        }
        return b.toString();
    }
}
