package dev.straggler.patterns.reduce;

import dev.straggler.patterns.algebra.Format;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The before/after table of a {@link ReductionPlan}, laid out like {@code scorep-score -r}: a summary of events,
 * bytes (all ranks and largest rank, scorep-score's max_buf) and regions, the type groups before and after the
 * filter ({@code FLT} collects what is dropped, the others are suffixed {@code -FLT} as scorep-score does), and
 * with {@code regions} one line per visited region marked {@code +} (dropped) or {@code -} (kept). Besides
 * scorep-score's columns each line has the bytes of all ranks ({@code total[B]}) and the event records.
 */
public final class ScoreReport {
    private ScoreReport() {
    }

    public static String format(ReductionPlan plan, boolean regions) {
        RegionStatistics s = plan.statistics();
        StringBuilder sb = new StringBuilder();
        RegionStatistics.Totals b = plan.before();
        RegionStatistics.Totals a = plan.after();
        sb.append(String.format(Locale.ROOT, "Policy: %s%n", plan.policy()));
        sb.append(String.format(Locale.ROOT, "Trace size (%s)%n", s.model() == SizeModel.RECORDS
                ? "OTF2 records of the trace" : "scorep-score estimate"));
        sb.append(String.format(Locale.ROOT, "  %-30s %16s %16s %9s%n", "", "before", "after", "change"));
        line(sb, "events", b.events(), a.events());
        line(sb, "bytes, all ranks", b.bytes(), a.bytes());
        line(sb, "bytes, largest rank (max_buf)", b.maxBytes(), a.maxBytes());
        line(sb, "regions visited / kept", b.regionsKept(), a.regionsKept());
        for (String n : plan.notes()) {
            sb.append("  note: ").append(n).append('\n');
        }
        sb.append('\n');
        double total = b.time();
        sb.append(String.format(Locale.ROOT, "flt %8s %14s %15s %13s %12s %10s %7s %14s  %s%n", "type", "max_buf[B]",
                "total[B]", "events", "visits", "time[s]", "time[%]", "time/visit[us]", "region"));
        Map<ScoreType, List<Integer>> groups = new EnumMap<>(ScoreType.class);
        for (int r : s.presentRegions()) {
            groups.computeIfAbsent(s.type(r), k -> new ArrayList<>()).add(r);
        }
        List<Integer> all = s.presentRegions();
        row(sb, ' ', "ALL", s, all, total, "ALL");
        for (ScoreType t : byMaxBuf(s, groups)) {
            row(sb, ' ', t.name(), s, groups.get(t), total, t.name());
        }
        if (plan.decisions().stream().anyMatch(ReductionPlan.Decision::excluded)) {
            sb.append('\n');
            List<Integer> dropped = all.stream().filter(plan::excluded).toList();
            List<Integer> kept = all.stream().filter(r -> !plan.excluded(r)).toList();
            row(sb, '+', "FLT", s, dropped, total, "FLT");
            row(sb, '*', "ALL-FLT", s, kept, total, "ALL-FLT");
            Map<ScoreType, List<Integer>> keptGroups = new EnumMap<>(ScoreType.class);
            for (int r : kept) {
                keptGroups.computeIfAbsent(s.type(r), k -> new ArrayList<>()).add(r);
            }
            for (ScoreType t : byMaxBuf(s, keptGroups)) {
                row(sb, t.filterable() ? '*' : '-', t.name() + "-FLT", s, keptGroups.get(t), total, t.name() + "-FLT");
            }
        }
        if (regions) {
            sb.append('\n');
            List<Integer> order = new ArrayList<>(all);
            order.sort(Comparator.<Integer>comparingLong(s::maxBytes).reversed().thenComparingInt(r -> r));
            for (int r : order) {
                row(sb, plan.excluded(r) ? '+' : '-', s.type(r).name(), s, List.of(r), total,
                        s.regions().get(r).name());
            }
        }
        return sb.toString();
    }

    private static List<ScoreType> byMaxBuf(RegionStatistics s, Map<ScoreType, List<Integer>> groups) {
        List<ScoreType> types = new ArrayList<>(groups.keySet());
        types.sort(Comparator.<ScoreType>comparingLong(t -> maxBuf(s, groups.get(t))).reversed());
        return types;
    }

    private static long maxBuf(RegionStatistics s, List<Integer> regions) {
        long max = 0;
        for (int k = 0; k < s.ranks(); k++) {
            long sum = 0;
            for (int r : regions) {
                sum += s.bytes(r, k);
            }
            max = Math.max(max, sum);
        }
        return max;
    }

    private static void row(StringBuilder sb, char flt, String type, RegionStatistics s, List<Integer> regions,
                            double totalTime, String name) {
        long visits = 0;
        long events = 0;
        long bytes = 0;
        double time = 0;
        for (int r : regions) {
            visits += s.visits(r);
            events += s.events(r);
            bytes += s.bytes(r);
            time += s.time(r);
        }
        sb.append(String.format(Locale.ROOT, "%c %10s %,14d %,15d %,13d %,12d %10.2f %7.1f %14.2f  %s%n", flt, type,
                maxBuf(s, regions), bytes, events, visits, time, totalTime > 0 ? 100 * time / totalTime : 0,
                visits > 0 ? 1e6 * time / visits : 0, name));
    }

    private static void line(StringBuilder sb, String what, long before, long after) {
        // an unchanged or barely changed figure prints "0.0 %", not "+0.0 %" or "-0.0 %"
        String change = before == 0 ? "" : Format.unsignedZero(String.format(Locale.ROOT, "%+.1f %%",
                100.0 * (after - before) / before));
        sb.append(String.format(Locale.ROOT, "  %-30s %,16d %,16d %9s%n", what, before, after, change));
    }
}
