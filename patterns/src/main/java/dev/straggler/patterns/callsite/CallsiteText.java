package dev.straggler.patterns.callsite;

import dev.straggler.patterns.cube.PathNames;

import java.util.List;
import java.util.Locale;

/**
 * Terminal tables in mpiP's layout (reference §5): MPI time per task, the callsite stacks, the aggregate time of
 * the top callsites, and per callsite the per-rank time statistics with an All row; then, for traces, the
 * communication profile and the phase breakdown. Times are in milliseconds in the callsite tables, as mpiP prints
 * them, and in seconds elsewhere.
 */
public final class CallsiteText {

    /** @param top callsites in the aggregate table; @param perRank print the per-rank rows, not only the All rows */
    public record Options(int top, boolean perRank, int commRows) {
        public static Options defaults() {
            return new Options(20, true, 30);
        }
    }

    private CallsiteText() {
    }

    public static String render(TraceProfile p, Options o) {
        StringBuilder sb = new StringBuilder(render(p.callsites(), o));
        communication(sb, p.communication(), o);
        phases(sb, p.phases());
        return sb.toString();
    }

    public static String render(CallsiteStatistics s, Options o) {
        StringBuilder sb = new StringBuilder();
        sb.append("Callsite statistics of ").append(s.origin()).append(" (call-path depth ").append(s.depth()).append(")\n");
        for (String n : s.notes()) {
            sb.append("note: ").append(n).append('\n');
        }
        heading(sb, "MPI Time (seconds)");
        sb.append(String.format(Locale.ROOT, "%-4s %12s %12s %8s%n", "Task", "AppTime", "MPITime", "MPI%"));
        for (int r = 0; r < s.ranks(); r++) {
            sb.append(String.format(Locale.ROOT, "%4d %12s %12s %8.2f%n", r, sec(s.appTime()[r]), sec(s.mpiTime()[r]),
                    pct(s.mpiTime()[r], s.appTime()[r])));
        }
        sb.append(String.format(Locale.ROOT, "%4s %12s %12s %8.2f%n", "*", sec(s.appTotal()), sec(s.mpiTotal()),
                pct(s.mpiTotal(), s.appTotal())));

        if (s.depth() > 0) {
            heading(sb, "Callsites: " + s.callsites().size());
            sb.append(String.format(Locale.ROOT, "%3s %3s %-20s %5s %-28s %s%n", "ID", "Lev", "File/Address", "Line",
                    "Parent_Funct", "MPI_Call"));
            for (CallsiteEntry e : s.callsites()) {
                List<Frame> fr = e.site().frames();
                for (int lev = 0; lev < fr.size(); lev++) {
                    Frame f = fr.get(lev);
                    sb.append(String.format(Locale.ROOT, "%3d %3d %-20s %5s %-28s %s%n", e.site().id(), lev, f.file(),
                            f.line() > 0 ? Integer.toString(f.line()) : "", f.function(), lev == 0 ? e.site().operation() : ""));
                }
            }
        }

        heading(sb, "Aggregate Time (top " + o.top() + ", descending, milliseconds)");
        sb.append(String.format(Locale.ROOT, "%-20s %4s %12s %7s %7s %10s %6s%n", "Call", "Site", "Time", "App%", "MPI%",
                "Count", "COV"));
        s.byTime().stream().limit(o.top()).forEach(e -> sb.append(String.format(Locale.ROOT,
                "%-20s %4d %12s %7.2f %7.2f %10d %6.2f%n", e.site().operation(), e.site().id(), ms(e.all().total()),
                s.appPercent(e.all()), s.mpiPercent(e.all()), e.all().count(), e.cov(s.ranks()))));

        heading(sb, "Callsite Time statistics (all, milliseconds): " + s.callsites().size());
        sb.append(String.format(Locale.ROOT, "%-17s %4s %4s %8s %12s %10s %10s %10s %7s %7s %12s %6s%n", "Name", "Site",
                "Rank", "Count", "Total", "Max", "Mean", "Min", "App%", "MPI%", "Bytes", "COV"));
        boolean first = true;
        for (CallsiteEntry e : s.callsites()) {
            if (!first) {
                sb.append('\n');
            }
            first = false;
            if (o.perRank()) {
                for (RankStats r : e.perRank()) {
                    row(sb, s, e, r, Integer.toString(r.rank()), "");
                }
            }
            row(sb, s, e, e.all(), "All", String.format(Locale.ROOT, "%6.2f", e.cov(s.ranks())));
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, CallsiteStatistics s, CallsiteEntry e, RankStats r, String rank, String cov) {
        sb.append(String.format(Locale.ROOT, "%-17s %4d %4s %8d %12s %10s %10s %10s %7.2f %7.2f %12.0f %6s%n",
                e.site().operation(), e.site().id(), rank, r.count(), ms(r.total()), ms(r.max()), ms(r.mean()),
                ms(r.min()), s.appPercent(r), s.mpiPercent(r), r.bytes(), cov));
    }

    static void communication(StringBuilder sb, CommProfile c, Options o) {
        heading(sb, "Communication profile (phase depth " + c.phaseDepth() + ", by time)");
        sb.append(String.format(Locale.ROOT, "%-24s %-22s %-16s %7s %10s %12s %14s %6s%n", "Phase", "Call", "Size (bytes)",
                "Partner", "Calls", "Time (s)", "Bytes", "Ranks"));
        c.entries().stream().limit(o.commRows()).forEach(e -> sb.append(String.format(Locale.ROOT,
                "%-24s %-22s %-16s %7s %10d %12s %14d %6d%n", e.phase(), e.call(), e.sizeLabel(),
                e.partner() < 0 ? "-" : Integer.toString(e.partner()), e.count(), sec(e.time()), e.bytes(), e.ranks())));
        if (c.entries().size() > o.commRows()) {
            sb.append("... ").append(c.entries().size() - o.commRows()).append(" more\n");
        }
    }

    static void phases(StringBuilder sb, PhaseBreakdown p) {
        heading(sb, "Phases (depth " + p.phaseDepth() + "), seconds summed over ranks");
        sb.append("imbalance: ").append(p.imbalanceSource()).append('\n');
        sb.append(String.format(Locale.ROOT, "%-32s %12s %12s %12s %12s %7s %7s %7s%n", "Phase", "Total", "Computation",
                "MPI", "Imbalance", "Comp%", "MPI%", "Imb%"));
        for (PhaseBreakdown.Phase ph : p.phases()) {
            double t = ph.totalSum();
            sb.append(String.format(Locale.ROOT, "%-32s %12s %12s %12s %12s %7.2f %7.2f %7.2f%n",
                    PathNames.join(ph.path()), sec(t), sec(ph.computationSum()), sec(ph.mpiSum()), sec(ph.imbalanceSum()),
                    pct(ph.computationSum(), t), pct(ph.mpiSum(), t), pct(ph.imbalanceSum(), t)));
        }
    }

    static void heading(StringBuilder sb, String title) {
        sb.append("-".repeat(75)).append('\n');
        String h = "@--- " + title + " ";
        sb.append(h).append("-".repeat(Math.max(3, 75 - h.length()))).append('\n');
        sb.append("-".repeat(75)).append('\n');
    }

    /** Seconds: six decimals, or four significant digits for what six decimals would show as 0. */
    static String sec(double v) {
        return v == 0 || Math.abs(v) >= 1e-3 ? String.format(Locale.ROOT, "%.6f", v) : String.format(Locale.ROOT, "%.4g", v);
    }

    /** Seconds shown in milliseconds, three decimals or four significant digits. */
    static String ms(double seconds) {
        double v = 1e3 * seconds;
        return v == 0 || Math.abs(v) >= 1e-3 ? String.format(Locale.ROOT, "%.3f", v) : String.format(Locale.ROOT, "%.4g", v);
    }

    private static double pct(double part, double whole) {
        return whole > 0 ? 100 * part / whole : 0;
    }
}
