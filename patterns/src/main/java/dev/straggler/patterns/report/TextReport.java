package dev.straggler.patterns.report;

import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.TraceSummary;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.PathNames;
import dev.straggler.patterns.cube.SeverityCube;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The terminal summary of an analysis, one screen, readable without options: the trace in one line, clock
 * violations and warnings, the time part of the metric tree with totals and shares of execution time (metrics
 * that are zero are left out), the message counts, then every wait state of at least {@value #SIGNIFICANT} of the
 * execution time with its worst call paths and most affected ranks. A list cut to its largest entries says how many
 * it leaves out, what they hold and that {@code --all} lists them.
 */
public final class TextReport {
    /** Wait states below this share of execution time are not detailed. */
    static final double SIGNIFICANT = 0.001;
    /** Call paths and ranks listed per wait state unless every one is asked for. */
    private static final int TOP = 3;
    /** How to see what a cut list leaves out (the analyze command's option). */
    static final String ALL_HINT = "(--all lists them)";

    /**
     * The waiting metrics (Scalasca's wait states, reference §1.3 and §1.4): the time a process spends waiting for
     * another. Completion times (Barrier Completion, N x N Completion, Initialization Completion) are time spent
     * finishing an operation after the waiting ended, not waiting, and the one-sided patterns are not replayed.
     * Messages in Wrong Order is listed too, as part of Late Sender. The OpenMP ones (waiting at barriers, contention
     * for critical sections and locks) and the POSIX threads ones (contention for mutexes, also on waking from a
     * condition wait) follow, per thread.
     */
    private static final int[] WAIT_STATES = {MetricTree.MPI_LATESENDER, MetricTree.MPI_LATESENDER_WO,
            MetricTree.MPI_LATERECEIVER, MetricTree.MPI_BARRIER_WAIT, MetricTree.MPI_WAIT_NXN,
            MetricTree.MPI_LATEBROADCAST, MetricTree.MPI_EARLYREDUCE, MetricTree.MPI_EARLYSCAN,
            MetricTree.MPI_FINALIZE_WAIT, MetricTree.OMP_EBARRIER_WAIT, MetricTree.OMP_IBARRIER_WAIT,
            MetricTree.OMP_LOCK_CONTENTION_CRITICAL, MetricTree.OMP_LOCK_CONTENTION_API,
            MetricTree.PTHREAD_LOCK_CONTENTION_MUTEX_LOCK, MetricTree.PTHREAD_LOCK_CONTENTION_CONDITIONAL};

    private TextReport() {
    }

    /**
     * "X% of the threads' time is idle while the master threads run serially, above all in P": the share of idle
     * threads in all time (execution plus idle), and the call path with the most of it.
     */
    static String idleSentence(SeverityCube c, double idle) {
        int m = c.metricIndex("omp_idle_threads");
        double time = c.total("time");
        int top = -1;
        double most = 0;
        for (int p = 0; p < c.callPaths().size(); p++) {
            double v = c.sumOverLocations(m, p);
            if (v > most) {
                most = v;
                top = p;
            }
        }
        return String.format(Locale.ROOT, "Idle threads: %.1f%% of the threads' time (%s s of %s s) is CPU time"
                        + " reserved for OpenMP threads while their master runs serially or with fewer threads, %.1f%% of"
                        + " it in %s.", time > 0 ? 100 * idle / time : 0, seconds(idle), seconds(time),
                100 * most / idle, path(c, top));
    }

    /** As {@link #render(AnalysisResult, int, boolean)} with each list cut to its largest entries. */
    public static String render(AnalysisResult r, int width) {
        return render(r, width, false);
    }

    /**
     * @param width characters per line (80 is a good default): free text wraps at it and columns are laid out for it;
     *              nothing is ever cut, so a call path longer than its column gets a line of its own
     * @param all   list every call path and rank of each wait state, every root cause and every call path on the
     *              critical path; otherwise each list shows its largest entries and counts the rest
     */
    public static String render(AnalysisResult r, int width, boolean all) {
        return render(r, width, all, dev.straggler.patterns.focus.Focus.DEFAULT);
    }

    /**
     * @param focus the part of the run the POP line covers (the metric tree always shows the whole run, as Scalasca's
     *              does)
     */
    public static String render(AnalysisResult r, int width, boolean all, dev.straggler.patterns.focus.Focus focus) {
        width = Math.max(60, width);
        SeverityCube c = r.cube();
        TraceSummary s = r.summary();
        StringBuilder out = new StringBuilder();
        out.append(wrap("Wait-state analysis of " + s.origin(), width));
        out.append(wrap(String.format(Locale.ROOT, "%s%d ranks, %d locations, %,d events, %.3f s, %,d messages, %,d collective operations",
                s.application().isEmpty() ? "" : s.application() + ": ", s.ranks(), s.locations(), s.events(),
                s.durationSeconds(), s.messages(), s.collectiveOperations()), width));
        if (r.violations().total() > 0) {
            out.append(wrap(String.format(Locale.ROOT, "Clock-condition violations: %,d point-to-point, %,d "
                    + "collective (waiting times clipped)", r.violations().pointToPoint(), r.violations().collective()),
                    width));
        }
        for (String w : r.warnings()) {
            out.append(wrap("warning: " + w, width));
        }
        double execution = c.total("execution");
        int idleMetric = c.metricIndex("omp_idle_threads");
        double idle = idleMetric < 0 ? 0 : c.total(idleMetric);
        out.append('\n');
        int valueCol = width - 22;
        String over = c.hasThreads() ? "Metric (all ranks and threads)" : "Metric (all ranks)";
        out.append(pad(over, valueCol)).append(String.format("%12s %8s%n", "seconds", "% exec"));
        for (int m = 0; m < c.metrics().size(); m++) {
            Metric mt = c.metrics().get(m);
            if (!mt.unit().equals("sec") || m >= MetricTree.FIRST_ROOT_CAUSE) {
                continue;
            }
            double v = c.total(m);
            if (v == 0 && m != MetricTree.TIME) {
                continue;
            }
            String label = "  ".repeat(depth(c, m)) + mt.displayName();
            // a share of execution only for what is part of it: Time with idle threads exceeds Execution, and idle
            // threads are not executing at all
            boolean part = m != MetricTree.TIME && m != MetricTree.OMP_IDLE_THREADS
                    && m != MetricTree.OMP_LIMITED_PARALLELISM || v <= execution && idle == 0;
            out.append(column(label, valueCol)).append(part
                    ? String.format(Locale.ROOT, "%12s %7.1f%%%n", seconds(v), execution == 0 ? 0 : 100 * v / execution)
                    : String.format(Locale.ROOT, "%12s%n", seconds(v)));
        }
        if (idle > 0) {
            out.append(wrap(idleSentence(c, idle), width));
        }
        java.util.Map<String, Double> other = dev.straggler.patterns.OtherParadigms.times(c);
        if (!other.isEmpty()) {
            // part of Execution, outside Computation and MPI (as in Scalasca's tree): shown so the children add up
            for (var e : other.entrySet()) {
                out.append(column("    " + e.getKey() + " (not analysed for waiting)", valueCol))
                        .append(String.format(Locale.ROOT, "%12s %7.1f%%%n", seconds(e.getValue()),
                                execution == 0 ? 0 : 100 * e.getValue() / execution));
            }
        }
        out.append(wrap(String.format(Locale.ROOT, "Visits %,d   MPI synchronizations %,d   communications %,d   bytes %,d",
                (long) c.total("visits"), (long) c.total("syncs"), (long) c.total("comms"), (long) c.total("bytes")),
                width));
        if (c.metricIndex("mpi") >= 0 && c.total("mpi") > 0) {
            // the assessment POP reports lead with (docs/pop.md)
            out.append(wrap(dev.straggler.patterns.pop.PopText.line(dev.straggler.patterns.pop.PopMetrics.of(c, "", focus)),
                    width));
            dev.straggler.patterns.pop.PopHybrid hybrid = dev.straggler.patterns.pop.PopHybrid.of(focus.select(c));
            if (hybrid != null) {
                out.append(wrap(dev.straggler.patterns.pop.PopText.hybridLine(hybrid), width));
            }
        }

        List<Integer> patterns = new ArrayList<>();
        double waiting = 0;
        for (int m : WAIT_STATES) {
            if (m != MetricTree.MPI_LATESENDER_WO) {
                waiting += c.total(m);
            }
            if (execution > 0 && c.total(m) >= SIGNIFICANT * execution) {
                patterns.add(m);
            }
        }
        patterns.sort(Comparator.comparingDouble((Integer m) -> -c.total(m)).thenComparingInt(m -> m));
        if (!patterns.isEmpty()) {
            out.append('\n').append(String.format(Locale.ROOT, "Wait states (at least %.1f%% of execution time)%n",
                    100 * SIGNIFICANT));
        } else if (waiting > 0) {
            out.append('\n').append(wrap(String.format(Locale.ROOT, "Wait states: none reaches %.1f%% of execution "
                    + "time (%s s in all).", 100 * SIGNIFICANT, seconds(waiting)), width));
        }
        // with threads a location is named rank.thread (thread 0, the master, by its rank alone)
        boolean threads = c.hasThreads();
        for (int m : patterns) {
            double total = c.total(m);
            Metric mt = c.metrics().get(m);
            // a wait state inside another listed one (Wrong Order in Late Sender) says so: the two are not added
            String part = mt.parent() != null && patterns.contains(c.metricIndex(mt.parent()))
                    ? " (part of " + c.metric(mt.parent()).displayName() + ")" : "";
            out.append(String.format(Locale.ROOT, "%s%s: %s s (%.1f%%)%n", MetricTree.standaloneName(mt.uniqueName()),
                    part, seconds(total), 100 * total / execution));
            List<Integer> paths = callPaths(c, m);
            int shown = all ? paths.size() : Math.min(TOP, paths.size());
            for (int p : paths.subList(0, shown)) {
                double v = c.sumOverLocations(m, p);
                String share = String.format(Locale.ROOT, " %10s %5.1f%%", seconds(v), 100 * v / total);
                int room = width - 5 - share.length();
                out.append(column("  at " + path(c, p), room + 5)).append(share).append('\n');
            }
            if (shown < paths.size()) {
                double rest = sum(c, m, paths.subList(shown, paths.size()));
                out.append(wrap(hidden(paths.size() - shown, "call path", rest,
                        String.format(Locale.ROOT, "%.1f%%", 100 * rest / total)), width));
            }
            double[] perLoc = c.perLocation(m);
            List<Integer> locs = new ArrayList<>();
            for (int l = 0; l < perLoc.length; l++) {
                if (perLoc[l] > 0) {
                    locs.add(l);
                }
            }
            locs.sort(Comparator.comparingDouble((Integer l) -> -perLoc[l]).thenComparingInt(l -> l));
            int ranksShown = all ? locs.size() : Math.min(TOP, locs.size());
            StringBuilder ranks = new StringBuilder(threads ? "  threads (rank.thread):" : "  ranks:");
            for (int l : locs.subList(0, ranksShown)) {
                var loc = c.locations().get(l);
                ranks.append(String.format(Locale.ROOT, " %d%s %s s (%.0f%%),", loc.rank(),
                        loc.thread() == 0 ? "" : "." + loc.thread(), seconds(perLoc[l]), 100 * perLoc[l] / total));
            }
            if (locs.size() > ranksShown) {
                ranks.append(" +").append(locs.size() - ranksShown).append(" more");
            } else {
                ranks.setLength(ranks.length() - 1);
            }
            out.append(wrap(ranks.toString(), width));
            // the worst occurrence, where to look for it, and the command that shows it on a time axis
            for (dev.straggler.patterns.Instance i : r.mostSevere()) {
                if (i.metric().equals(mt.uniqueName())) {
                    // a point-to-point instance spans the waiting call, a collective one its operation (the
                    // earliest begin to the latest end of all members, Instance)
                    boolean p2p = i.metric().startsWith("mpi_latesender") || i.metric().startsWith("mpi_lswo")
                            || i.metric().equals("mpi_latereceiver");
                    String command = timelineCommand(s.origin(), i.metric() + ":1");
                    out.append(wrap(String.format(Locale.ROOT, "  worst instance: %s s %s on %s %d%s, in the %s "
                                    + "from %s to %s s since the start of the measurement%s%s", seconds(i.severity()),
                            i.waitingRanks() > 1 ? "summed over " + i.waitingRanks() + " ranks, the longest" : "lost",
                            threads && i.thread() > 0 ? "thread" : "rank", i.rank(),
                            threads && i.thread() > 0 ? "." + i.thread() : "",
                            p2p ? "call" : "operation (all its members)", seconds(i.start()), seconds(i.end()),
                            i.partnerRank() >= 0 ? ", partner rank " + i.partnerRank() : "",
                            command == null ? "" : "; `" + command + "` shows it"), width));
                    dev.straggler.patterns.DelayCause why = r.causeOf(i);
                    if (why != null) {
                        out.append(wrap(causeLine(c, i, why, threads), width));
                    } else if (i.metric().equals("mpi_earlyscan") && dev.straggler.patterns.Analysis.rootCausesAnalysed(c)) {
                        out.append(wrap(NO_SCAN_DELAY, width));
                    }
                    break;
                }
            }
        }
        CommunicatorSection.render(r.communicators(), width, out);
        RootCauseSection.render(c, s.hasMpi(), width, all, out);
        return out.toString();
    }

    /**
     * The command that draws an instance's window ({@code METRIC:K}), or null when the trace is no file or directory
     * the command could read again (a simulated or in-memory trace, whose origin is a description).
     */
    public static String timelineCommand(String origin, String instance) {
        try {
            if (origin == null || !java.nio.file.Files.exists(java.nio.file.Path.of(origin))) {
                return null;
            }
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
        return "straggler timeline " + origin + " --instance " + instance + " --html F";
    }

    /** Under an Early Scan instance with root causes: Scalasca's delay analysis has no rule for scans. */
    public static final String NO_SCAN_DELAY = "  why: not computed: delay costs are defined for Late Sender, Late Receiver "
            + "and waiting in barriers, N x N, 1-to-N and N-to-1 operations, not for Early Scan (as in Scalasca)";

    /** Call paths named in a cause line; the rest are summed and counted. */
    private static final int CAUSE_PATHS = 3;

    /**
     * Why the worst instance waited (root causes): where the delaying location spent longer than the waiting side
     * since they last synchronised, the delay per call path, the waiting that propagated, and what no delay explains.
     */
    static String causeLine(SeverityCube c, dev.straggler.patterns.Instance i, dev.straggler.patterns.DelayCause why,
                            boolean threads) {
        String who = (threads && why.thread() > 0 ? "thread " : "rank ") + why.rank()
                + (threads && why.thread() > 0 ? "." + why.thread() : "");
        String waiting = i.waitingRanks() > 1 ? "the waiting ranks" : "the waiting " + (threads && i.thread() > 0
                ? "thread" : "rank");
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  why: between %s and %s s (since it last "
                + "synchronised with %s), %s ", seconds(why.from()), seconds(why.to()), waiting, who));
        if (why.callPaths().isEmpty()) {
            b.append("spent no longer than ").append(waiting).append(" anywhere");
        } else {
            b.append("took longer than ").append(waiting).append(": ").append(seconds(why.delay()))
                    .append(" s of the wait is delay in ");
            int shown = Math.min(CAUSE_PATHS, why.callPaths().size());
            for (int k = 0; k < shown; k++) {
                var part = why.callPaths().get(k);
                b.append(k > 0 ? ", " : "").append(path(c, part.callPath())).append(" (")
                        .append(seconds(part.seconds())).append(" s)");
            }
            if (why.callPaths().size() > shown) {
                double rest = 0;
                for (var part : why.callPaths().subList(shown, why.callPaths().size())) {
                    rest += part.seconds();
                }
                b.append(String.format(Locale.ROOT, " and %d more call path%s (%s s)", why.callPaths().size() - shown,
                        why.callPaths().size() - shown == 1 ? "" : "s", seconds(rest)));
            }
        }
        if (why.propagated() > 0) {
            b.append("; ").append(seconds(why.propagated())).append(" s propagated: ").append(who)
                    .append(" itself waited in that stretch");
        }
        double unexplained = i.severity() - why.delay() - why.propagated();
        if (unexplained > 1e-9 * Math.max(1, i.severity())) {
            b.append("; ").append(seconds(unexplained)).append(" s is charged to no delay");
        }
        return b.toString();
    }

    /** The call paths with a value of metric {@code m}, largest first. */
    private static List<Integer> callPaths(SeverityCube c, int m) {
        List<Integer> all = new ArrayList<>();
        for (int p = 0; p < c.callPaths().size(); p++) {
            if (c.sumOverLocations(m, p) > 0) {
                all.add(p);
            }
        }
        all.sort(Comparator.comparingDouble((Integer p) -> -c.sumOverLocations(m, p)).thenComparingInt(p -> p));
        return all;
    }

    /**
     * The line that stands for the entries a list leaves out: "  +12 more call paths with 0.024706 s (19.4%) (--all
     * lists them)"; {@code share} is the part of the list's whole they hold, already formatted.
     */
    /** Metric {@code m} summed over the given call paths and all locations (what a cut list leaves out). */
    static double sum(SeverityCube c, int m, List<Integer> paths) {
        double s = 0;
        for (int p : paths) {
            s += c.sumOverLocations(m, p);
        }
        return s;
    }

    static String hidden(int count, String what, double seconds, String share) {
        return String.format(Locale.ROOT, "  +%d more %s%s with %s s (%s) %s", count, what, count == 1 ? "" : "s",
                seconds(seconds), share, ALL_HINT);
    }

    private static int depth(SeverityCube c, int m) {
        int d = 0;
        for (String p = c.metrics().get(m).parent(); p != null; p = c.metric(p).parent()) {
            d++;
        }
        return d;
    }

    /** A call path as "a/b/c", whole. */
    static String path(SeverityCube c, int path) {
        return PathNames.join(c.pathNames(path));
    }

    /**
     * {@code text} padded to a column of {@code width} characters for the values that follow; when it is longer, it
     * keeps a line of its own and the values go on the next line under their column.
     */
    static String column(String text, int width) {
        if (text.length() < width) {
            return pad(text, width);
        }
        return text + "\n" + " ".repeat(width);
    }

    /** Seconds with six decimals, or in scientific notation below a millisecond so that small waits stay visible. */
    static String seconds(double v) {
        if (v == 0) {
            return "0";
        }
        return Math.abs(v) >= 1e-3 ? String.format(Locale.ROOT, "%.6f", v) : String.format(Locale.ROOT, "%.3e", v);
    }

    /**
     * Word-wrapped to {@code width}, each line ending in a newline; the text's leading indentation is kept and
     * continuation lines are indented two more; runs of spaces inside a line stay. A word longer than a line is kept
     * whole, never cut.
     */
    static String wrap(String s, int width) {
        int indent = 0;
        while (indent < s.length() && s.charAt(indent) == ' ') {
            indent++;
        }
        String first = " ".repeat(indent);
        String next = " ".repeat(indent + 2);
        StringBuilder out = new StringBuilder(first);
        int lineStart = 0;
        int lineIndent = indent;
        for (String word : s.substring(indent).split(" ")) {
            int len = out.length() - lineStart;
            if (len > lineIndent && len + 1 + word.length() > width) {
                out.append('\n');
                lineStart = out.length();
                out.append(next);
                lineIndent = next.length();
            } else if (len > lineIndent) {
                out.append(' ');
            }
            out.append(word);
        }
        return out.append('\n').toString();
    }

    private static String pad(String s, int width) {
        StringBuilder b = new StringBuilder(s);
        while (b.length() < width) {
            b.append(' ');
        }
        return b.toString();
    }
}
