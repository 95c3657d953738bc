package dev.straggler.cli.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.focus.Focus;

import java.util.List;
import java.util.Locale;

/**
 * One run of a scaling study in a line: its size, time per process, where that time goes (computation, MPI,
 * waiting), its largest wait state and, when the run was analysed with root causes, the one-sentence cause of that
 * wait state.
 *
 * @param timePerProcess  the {@code time} metric summed over call paths and locations, divided by the processes
 * @param computation     share of {@code time} in computation, in [0, 1]
 * @param mpi             share of {@code time} in MPI
 * @param waiting         share of {@code time} in the wait states below (each counted once)
 * @param largestWait     display name of the largest wait state, null when there is no waiting
 * @param largestSeconds  its time over all locations
 * @param cause           the cause sentence of the largest wait state, null without root causes
 * @param outside         share of the whole run's {@code time} outside the focus of analysis, in [0, 1] (0 for the
 *                        whole run)
 */
public record RunSummary(String label, int processes, double timePerProcess, double computation, double mpi,
                         double waiting, String largestWait, double largestSeconds, String cause, double outside) {

    /**
     * The wait states a study adds up: Scalasca's waiting, as Cube's Advisor (and so the POP table) sums it
     * ({@link dev.straggler.patterns.pop.PopMetrics#WAITING}), disjoint in the metric tree (Late Sender includes its
     * wrong-order part); completion times are not waiting.
     */
    static final List<String[]> WAIT_STATES = List.of(
            new String[]{"mpi_latesender", "Late Sender"}, new String[]{"mpi_latereceiver", "Late Receiver"},
            new String[]{"mpi_earlyreduce", "Early Reduce"}, new String[]{"mpi_earlyscan", "Early Scan"},
            new String[]{"mpi_latebroadcast", "Late Broadcast"}, new String[]{"mpi_wait_nxn", "Wait at N\u00d7N"},
            new String[]{"mpi_barrier_wait", "Wait at Barrier"}, new String[]{"mpi_finalize_wait", "Wait at Finalize"});

    /** The run over its whole time ({@link Focus#ALL}). */
    public static RunSummary of(String label, int processes, SeverityCube cube) {
        return of(label, processes, cube, Focus.ALL);
    }

    /**
     * The run over a focus of analysis: time per process, the shares and the wait states all cover the focus (so
     * computation + MPI + the rest add up to it); the cause sentence is the whole run's, as root causes are.
     */
    public static RunSummary of(String label, int processes, SeverityCube whole, Focus focus) {
        return of(label, processes, focus.select(whole));
    }

    /** The run over a focus already applied to it (see {@link #of(String, int, SeverityCube, Focus)}). */
    public static RunSummary of(String label, int processes, Focus.Selection sel) {
        SeverityCube whole = sel.whole();
        SeverityCube cube = sel.cube();
        double wholeTime = total(whole, "time");
        double outside = wholeTime > 0 ? Math.max(0, Math.min(1, sel.outside("time") / wholeTime)) : 0;
        double time = total(cube, "time");
        double waiting = 0;
        String largest = null;
        double largestSeconds = 0;
        String largestMetric = null;
        for (String[] w : WAIT_STATES) {
            double v = total(cube, w[0]);
            waiting += v;
            if (v > largestSeconds) {
                largestSeconds = v;
                largest = w[1];
                largestMetric = w[0];
            }
        }
        String cause = null;
        if (largestMetric != null && Analysis.rootCausesAnalysed(whole)) {
            for (WaitCauses.View v : WaitCauses.of(whole)) {
                if (v.kind().waiting.equals(largestMetric)) {
                    StringBuilder sb = new StringBuilder();
                    for (CauseHeadline.Segment s : CauseHeadline.of(v, whole)) {
                        sb.append(s.text());
                    }
                    cause = sb.toString();
                }
            }
        }
        return new RunSummary(label, processes, processes > 0 ? time / processes : Double.NaN, share(cube, "comp", time),
                share(cube, "mpi", time), time > 0 ? Math.min(1, waiting / time) : 0, largest, largestSeconds, cause, outside);
    }

    private static double total(SeverityCube cube, String metric) {
        return cube.metricIndex(metric) < 0 ? 0 : cube.total(metric);
    }

    private static double share(SeverityCube cube, String metric, double time) {
        // a share is clamped to [0, 1]: a difference of sums in floating point must not print 100.0000001 %
        return time > 0 ? Math.max(0, Math.min(1, total(cube, metric) / time)) : 0;
    }

    /** "12.3 %". */
    public static String percent(double fraction) {
        return CauseHeadline.percent(100 * fraction);
    }

    /** Seconds with a unit that fits (s, ms, µs). */
    public static String seconds(double v) {
        return SummarySection.seconds(v);
    }

    /**
     * The line a terminal summary prints, the label padded to {@code width}; with a focus that leaves something out,
     * a last column gives the share of the whole run outside it.
     */
    public String line(int width, Focus focus) {
        String outsideCell = focus.outsideHeading() == null ? "" : String.format(Locale.ROOT, " %9s", percent(outside));
        return String.format(Locale.ROOT, "%-" + width + "s %6d %12s %12s %8s %8s%s  %s", label, processes,
                seconds(timePerProcess), percent(computation), percent(mpi), percent(waiting), outsideCell,
                largestWait == null ? "-" : largestWait + " " + seconds(largestSeconds));
    }

    /**
     * The heading of {@link #line}: time per process and the shares are of the time in the focus; the last column
     * (when the focus leaves something out) is a share of the whole run.
     */
    public static String header(int width, Focus focus) {
        String outsideCell = focus.outsideHeading() == null ? "" : String.format(Locale.ROOT, " %9s", focus.outsideHeading());
        return String.format(Locale.ROOT, "%-" + width + "s %6s %12s %12s %8s %8s%s  %s", "Run", "p", "time/proc",
                "computation", "MPI", "waiting", outsideCell, "largest wait state (all ranks)");
    }
}
