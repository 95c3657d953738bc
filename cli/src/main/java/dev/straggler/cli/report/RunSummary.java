package dev.straggler.cli.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.cube.SeverityCube;

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
 */
public record RunSummary(String label, int processes, double timePerProcess, double computation, double mpi,
                         double waiting, String largestWait, double largestSeconds, String cause) {

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

    public static RunSummary of(String label, int processes, SeverityCube cube) {
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
        if (largestMetric != null && Analysis.rootCausesAnalysed(cube)) {
            for (WaitCauses.View v : WaitCauses.of(cube)) {
                if (v.kind().waiting.equals(largestMetric)) {
                    StringBuilder sb = new StringBuilder();
                    for (CauseHeadline.Segment s : CauseHeadline.of(v, cube)) {
                        sb.append(s.text());
                    }
                    cause = sb.toString();
                }
            }
        }
        return new RunSummary(label, processes, processes > 0 ? time / processes : Double.NaN, share(cube, "comp", time),
                share(cube, "mpi", time), time > 0 ? Math.min(1, waiting / time) : 0, largest, largestSeconds, cause);
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

    /** The line a terminal summary prints, the label padded to {@code width}. */
    public String line(int width) {
        return String.format(Locale.ROOT, "%-" + width + "s %6d %12s %8s %8s %8s  %s", label, processes,
                seconds(timePerProcess), percent(computation), percent(mpi), percent(waiting),
                largestWait == null ? "-" : largestWait + " " + seconds(largestSeconds));
    }

    public static String header(int width) {
        return String.format(Locale.ROOT, "%-" + width + "s %6s %12s %8s %8s %8s  %s", "Run", "p", "time/proc", "comp",
                "MPI", "waiting", "largest wait state (all ranks)");
    }
}
