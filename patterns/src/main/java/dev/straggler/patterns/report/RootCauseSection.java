package dev.straggler.patterns.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.rootcause.CriticalPathTimes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The "why" of the terminal report: which call paths on which ranks cause the waiting (delay costs, short-term and
 * propagated), how much of the point-to-point waiting propagates or is itself propagated, and what the critical
 * path consists of. Shown only when the root-cause stage ran and found something.
 *
 * <p>Metrics are named as Scalasca's metric documentation names them ({@link MetricTree#standaloneName}): the
 * critical path's "Imbalance" of the metric tree is the critical-path imbalance here, never just "imbalance".
 */
final class RootCauseSection {
    /** Entries per list unless every one is asked for. */
    private static final int TOP = 5;
    /** The short-term delay costs of every wait-state kind (OpenMP ones included): the rest of a delay propagated. */
    private static final int[] SHORT_TERM = dev.straggler.patterns.algebra.CauseMetrics.SHORT_TERM.stream()
            .mapToInt(MetricTree::indexOf).toArray();
    /** The short-term delay costs of the MPI wait-state kinds alone. */
    private static final int[] MPI_SHORT_TERM = java.util.Arrays.copyOf(SHORT_TERM,
            dev.straggler.patterns.algebra.CauseMetrics.MPI_KINDS);

    private RootCauseSection() {
    }

    /** Said when the root-cause stage was turned off. */
    static final String NOT_ANALYSED = "Root causes (why the waiting happens) were not analysed (--no-root-causes): "
            + "without that option the report adds the delays that cause the waiting, how it propagates and the "
            + "critical path.";

    /** Said when the root-cause stage was asked for but could not run; the wait states above stand. */
    static String notComputed(String why) {
        return "Root causes (why the waiting happens) could not be computed: " + why + ". The wait states above "
                + "do not depend on them.";
    }

    /**
     * The MPI wait states with time that the delay analysis has no rule for, named for a label ("Early Scan and
     * Wait at Finalize"), or null when there is none.
     */
    static String uncovered(SeverityCube c) {
        List<String> names = new ArrayList<>();
        if (c.total(MetricTree.MPI_EARLYSCAN) > 0) {
            names.add("Early Scan");
        }
        if (c.total(MetricTree.MPI_FINALIZE_WAIT) > 0) {
            names.add("Wait at Finalize");
        }
        return names.isEmpty() ? null : String.join(" and ", names);
    }

    /** @param all list every cause and every call path on the critical path, not only the largest */
    static void render(SeverityCube c, boolean hasMpi, int width, boolean all, StringBuilder out) {
        String problem = Analysis.rootCausesProblem(c);
        if (problem != null) {
            out.append('\n').append(TextReport.wrap(notComputed(problem), width));
            return;
        }
        if (!Analysis.rootCausesAnalysed(c)) {
            if (hasMpi && c.total(MetricTree.MPI) > 0) {
                out.append('\n').append(TextReport.wrap(NOT_ANALYSED, width));
            }
            return;
        }
        // with threads the delays also explain waiting at OpenMP barriers and idle threads (not lock contention):
        // the sentence names exactly what its denominator holds. Threads that are not OpenMP's (Pthreads) get OpenMP
        // delay costs from Scalasca's rules too, but no OpenMP waiting or idle threads to explain: their delays are
        // left out of the sentence and the list, which then speak of MPI waiting and its delays alone.
        boolean openMp = dev.straggler.patterns.openmp.OpenMpAnalysis.spentTimeInOpenMp(c);
        double delay = explainingDelay(c, openMp, -1);
        double cp = c.total(MetricTree.CRITICAL_PATH);
        if (delay <= 0 && cp <= 0) {
            return;
        }
        double waiting = c.total(MetricTree.MPI_LATESENDER) + c.total(MetricTree.MPI_LATERECEIVER)
                + c.total(MetricTree.MPI_BARRIER_WAIT) + c.total(MetricTree.MPI_WAIT_NXN)
                + c.total(MetricTree.MPI_LATEBROADCAST) + c.total(MetricTree.MPI_EARLYREDUCE);
        out.append('\n').append("Root causes\n");
        if (openMp) {
            waiting += c.total(MetricTree.OMP_EBARRIER_WAIT) + c.total(MetricTree.OMP_IBARRIER_WAIT)
                    + c.total(MetricTree.OMP_IDLE_THREADS);
        }
        // the delay analysis explains MPI waiting (and with OpenMP its barriers and idle threads), never lock contention
        boolean locks = c.total(MetricTree.PTHREAD_LOCK_CONTENTION_MUTEX_LOCK)
                + c.total(MetricTree.PTHREAD_LOCK_CONTENTION_CONDITIONAL) > 0;
        String allWaiting = openMp ? "the waiting in MPI and at OpenMP barriers and of the idle threads"
                : locks ? "the waiting in MPI" : "all waiting";
        // MPI waiting that no delay rule covers (Scalasca's Delay.MPI.pattern has none for scans or MPI_Finalize) is
        // not in the denominator: the label says so instead of calling the rest "all"
        String uncovered = uncovered(c);
        if (uncovered != null) {
            allWaiting = (openMp ? allWaiting : "the waiting in MPI") + " except " + uncovered;
        }
        String waitedFor = openMp ? "the processes and threads waited for" : "the processes waited for";
        if (delay > 0 && waiting > 0) {
            out.append(TextReport.wrap(String.format(Locale.ROOT, "%s of %s (%s s of %s s) is caused by delays "
                    + "on %s, above all:", share(delay, waiting), allWaiting, TextReport.seconds(delay),
                    TextReport.seconds(waiting), waitedFor), width));
            List<Integer> causes = new ArrayList<>();
            for (int p = 0; p < c.callPaths().size(); p++) {
                // a rounding residue of the delay arithmetic (1e-17 s beside milliseconds) is no cause to list
                if (clean(explainingDelay(c, openMp, p), delay) > 0) {
                    causes.add(p);
                }
            }
            causes.sort(Comparator.comparingDouble((Integer p) -> -explainingDelay(c, openMp, p))
                    .thenComparingInt(p -> p));
            int shown = all ? causes.size() : Math.min(TOP, causes.size());
            for (int p : causes.subList(0, shown)) {
                double d = explainingDelay(c, openMp, p);
                double shortTerm = 0;
                for (int m : openMp ? SHORT_TERM : MPI_SHORT_TERM) {
                    shortTerm += c.sumOverLocations(m, p);
                }
                String head = String.format(Locale.ROOT, "  %6s %10s s  ", share(d, waiting), TextReport.seconds(d));
                out.append(head).append(TextReport.path(c, p)).append('\n');
                out.append(TextReport.wrap(String.format(Locale.ROOT, "%" + head.length() + "s%s: %s s short-term, %s s "
                        + "propagated", "", "on " + ranks(c, p, openMp), TextReport.seconds(shortTerm),
                        TextReport.seconds(clean(Math.max(0, d - shortTerm), d))), width));
            }
            if (shown < causes.size()) {
                double rest = 0;
                for (int p : causes.subList(shown, causes.size())) {
                    rest += explainingDelay(c, openMp, p);
                }
                out.append(TextReport.wrap(TextReport.hidden(causes.size() - shown, "call path", rest,
                        share(rest, waiting) + " of " + allWaiting), width));
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
            criticalPath(c, cp, width, all, out);
        }
    }

    /**
     * The delay costs that explain the waiting the sentence counts, of call path {@code path} (-1: all): every delay
     * where the run has OpenMP, else the delays of MPI wait states alone (the OpenMP ones, which Scalasca's rules
     * give threads of other models too, explain no waiting counted here).
     */
    private static double explainingDelay(SeverityCube c, boolean openMp, int path) {
        int m = explaining(openMp);
        return path < 0 ? c.total(m) : c.sumOverLocations(m, path);
    }

    /** The delay metric that explains the waiting counted: all delay costs, or those of MPI wait states. */
    private static int explaining(boolean openMp) {
        return openMp ? MetricTree.DELAY : MetricTree.DELAY_MPI;
    }

    /**
     * The critical path's length, its critical-path imbalance, and its call paths by time on the path with their
     * critical-path imbalance. A call path on the path without imbalance gets a footnote saying why: with its callees
     * it is on the path no longer than its average per process (time outside wait states, Scalasca's CubePL
     * definition, reference §1.6), which looks impossible for a call path the run waits on unless said.
     */
    private static void criticalPath(SeverityCube c, double cp, int width, boolean all, StringBuilder out) {
        // Scalasca's average divides by the locations: per thread where processes run threads
        String per = c.hasThreads() ? "thread" : "process";
        String imbalanceName = MetricTree.standaloneName("critical_path_imbalance").toLowerCase(Locale.ROOT);
        double imbalance = clean(c.total(MetricTree.CRITICAL_PATH_IMBALANCE), cp);
        out.append(TextReport.wrap(imbalance > 0
                ? String.format(Locale.ROOT, "Critical path %s s, of it %s s (%s) %s: time call paths spend on it "
                        + "above their average per %s. By time on the path:", TextReport.seconds(cp),
                TextReport.seconds(imbalance), share(imbalance, cp), imbalanceName, per)
                : String.format(Locale.ROOT, "Critical path %s s, without %s: no call path spends more time on it "
                        + "than its average per %s. By time on the path:", TextReport.seconds(cp),
                imbalanceName, per), width));
        int n = c.callPaths().size();
        CriticalPathTimes times = CriticalPathTimes.of(c);
        double[] cpIncl = times.onPath();
        double[] busyIncl = times.busy();
        List<Integer> paths = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            if (c.sumOverLocations(MetricTree.CRITICAL_PATH, p) > 0) {
                paths.add(p);
            }
        }
        paths.sort(Comparator.comparingDouble((Integer p) -> -c.sumOverLocations(MetricTree.CRITICAL_PATH, p))
                .thenComparingInt(p -> p));
        int shown = all ? paths.size() : Math.min(TOP, paths.size());
        String head = String.format(Locale.ROOT, "  %6s %10s s  ", "", "");
        int tail = 2 + imbalanceName.length();
        int room = Math.max(20, width - head.length() - tail);
        String columns = String.format(Locale.ROOT, "  %6s %12s  ", "share", "on the path");
        out.append(TextReport.column(columns + "call path", columns.length() + room))
                .append(String.format(Locale.ROOT, "  %" + imbalanceName.length() + "s", imbalanceName)).append('\n');
        List<String> notes = new ArrayList<>();
        int locations = c.locations().size();
        for (int p : paths.subList(0, shown)) {
            double v = c.sumOverLocations(MetricTree.CRITICAL_PATH, p);
            double imb = clean(c.sumOverLocations(MetricTree.CRITICAL_PATH_IMBALANCE, p), cp);
            // the values stay aligned; a footnote mark follows its value
            String mark = "     ";
            if (imb == 0) {
                notes.add(zeroImbalanceNote(c, p, cpIncl[p], busyIncl[p] / locations, v, imbalanceName, per));
                mark = String.format(Locale.ROOT, "%-5s", " [" + notes.size() + "]");
            }
            String row = String.format(Locale.ROOT, "  %6s %10s s  ", share(v, cp), TextReport.seconds(v));
            // a call path longer than its column keeps its line, the values go under their column on the next
            out.append(TextReport.column(row + TextReport.path(c, p), row.length() + room))
                    .append(String.format(Locale.ROOT, "  %" + (imbalanceName.length() - 5) + "s",
                            TextReport.seconds(imb) + " s")).append(mark.stripTrailing()).append('\n');
        }
        if (shown < paths.size()) {
            double rest = TextReport.sum(c, MetricTree.CRITICAL_PATH, paths.subList(shown, paths.size()));
            out.append(TextReport.wrap(TextReport.hidden(paths.size() - shown, "call path", rest,
                    share(rest, cp) + " of the critical path"), width));
        }
        for (int i = 0; i < notes.size(); i++) {
            out.append(TextReport.wrap("  [" + (i + 1) + "] " + notes.get(i), width));
        }
    }

    /**
     * Why a call path on the critical path has no critical-path imbalance: Scalasca compares its time on the path
     * with its average time per process outside wait states, callees included, and the former is not larger.
     */
    private static String zeroImbalanceNote(SeverityCube c, int p, double onPathIncl, double averageIncl,
                                            double onPathExcl, String imbalanceName, String per) {
        boolean callees = onPathIncl - onPathExcl > 1e-9 * onPathIncl;
        String on = TextReport.seconds(onPathIncl);
        String avg = TextReport.seconds(Math.max(0, averageIncl));
        String relation = on.equals(avg) ? "equal to" : onPathIncl < averageIncl ? "below" : "about";
        return String.format(Locale.ROOT, "%s: %s on the critical path %s s, %s %s average %s s per %s: no %s",
                TextReport.path(c, p), callees ? "with its callees" : "", on, relation, callees ? "their" : "its", avg,
                per, imbalanceName).replace(":  on", ": on");
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

    /**
     * The ranks holding most of a call path's delay that explains the waiting counted ({@link #explainingDelay}):
     * "rank 9", "ranks 5, 6, 7 +4".
     */
    private static String ranks(SeverityCube c, int path, boolean openMp) {
        double[] per = new double[c.locations().size()];
        List<Integer> locs = new ArrayList<>();
        for (int l = 0; l < per.length; l++) {
            per[l] = c.get(explaining(openMp), path, l);
            if (per[l] > 0) {
                locs.add(l);
            }
        }
        locs.sort(Comparator.comparingDouble((Integer l) -> -per[l]).thenComparingInt(l -> l));
        boolean threads = c.hasThreads();
        StringBuilder b = new StringBuilder(threads ? (locs.size() == 1 ? "thread (rank.thread) " : "threads "
                + "(rank.thread) ") : locs.size() == 1 ? "rank " : "ranks ");
        for (int i = 0; i < Math.min(3, locs.size()); i++) {
            var loc = c.locations().get(locs.get(i));
            // as the wait-state lists name them: a master thread by its rank alone
            b.append(i > 0 ? ", " : "").append(loc.rank()).append(loc.thread() == 0 ? "" : "." + loc.thread());
        }
        if (locs.size() > 3) {
            b.append(" +").append(locs.size() - 3);
        }
        return b.toString();
    }
}
