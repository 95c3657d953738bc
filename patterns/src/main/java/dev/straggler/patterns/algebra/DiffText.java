package dev.straggler.patterns.algebra;

import dev.straggler.patterns.algebra.DiffReport.CallNode;
import dev.straggler.patterns.algebra.DiffReport.Change;
import dev.straggler.patterns.algebra.DiffReport.Entry;
import dev.straggler.patterns.algebra.DiffReport.MetricChange;
import dev.straggler.patterns.cube.PathNames;

import java.util.Comparator;
import java.util.List;

/**
 * Renders a {@link DiffReport} for the terminal: headline, the why (delay costs by delaying call path, when both
 * operands carry them), metric table, call tree of the time metric, largest changes.
 */
public final class DiffText {
    /**
     * @param minShare   call-tree nodes whose share of the total time difference is below this (in magnitude) are
     *                   left out, with their subtrees
     * @param maxDepth   deepest call-tree level printed (0 = roots only)
     * @param topEntries number of (metric, call path) rows in the largest-changes table
     * @param topCauses  number of delaying call paths listed under the why
     */
    public record Options(double minShare, int maxDepth, int topEntries, int topCauses) {
        public static Options defaults() {
            return new Options(0.01, Integer.MAX_VALUE, 15, 5);
        }
    }

    private DiffText() {
    }

    public static String render(DiffReport r) {
        return render(r, Options.defaults());
    }

    public static String render(DiffReport r, Options o) {
        StringBuilder sb = new StringBuilder();
        sb.append("A: ").append(r.minuend()).append(ranks(r.minuendRanks())).append('\n');
        sb.append("B: ").append(r.subtrahend()).append(ranks(r.subtrahendRanks())).append('\n');
        if (r.collapsed()) {
            sb.append("note: ").append(r.systemNote());
            if (r.minuendRanks() > 0 && r.subtrahendRanks() > 0) {
                sb.append("; \"per proc\" columns compare per-process means (a run's sum divided by its processes)");
            }
            sb.append('\n');
        }
        for (String n : r.notes()) {
            sb.append("note: ").append(n).append('\n');
        }
        sb.append('\n').append(r.headline()).append('\n');
        if (r.causes() != null && r.causes().changed()) {
            causes(r.causes(), o, sb);
        }
        sb.append('\n');

        String head = header(r.collapsed());
        sb.append(Format.left("Metric", 34)).append(head).append('\n');
        for (MetricChange m : r.metrics()) {
            if (m.change().a() == 0 && m.change().b() == 0) {
                continue;
            }
            sb.append(Format.left("  ".repeat(m.depth()) + m.displayName(), 34)).append(row(m.change(), m.unit(), r.collapsed())).append('\n');
        }
        if (r.timeMetric() != null && r.totalTime().diff() != 0) {
            // say what the shares are of: the gross growth or reduction, so that none exceeds 100 % where parts moved
            // in opposite directions
            sb.append("share: an increase as a part of all increases of time (")
                    .append(Format.signed(r.grossGrowth(), "sec")).append("), a decrease of all decreases (")
                    .append(Format.signed(-r.grossReduction(), "sec")).append("); net change ")
                    .append(Format.signed(r.totalTime().diff(), "sec")).append("\n");
        }

        if (r.timeMetric() != null && !r.callTree().isEmpty()) {
            sb.append('\n').append(Format.left("Call tree (time, inclusive)", 34)).append(head).append('\n');
            boolean[] hidden = new boolean[r.callTree().stream().mapToInt(CallNode::id).max().orElse(-1) + 1];
            for (CallNode n : r.callTree()) {
                boolean parentHidden = n.parent() >= 0 && hidden[n.parent()];
                double share = n.change().share();
                boolean small = !Double.isNaN(share) && Math.abs(share) < o.minShare();
                if (parentHidden || n.depth() > o.maxDepth() || small) {
                    hidden[n.id()] = true;
                    continue;
                }
                sb.append(Format.left("  ".repeat(n.depth()) + n.region(), 34)).append(row(n.change(), "sec", r.collapsed())).append('\n');
            }
        }

        List<Entry> top = r.entries().stream()
                .filter(e -> (e.metric().equals(r.timeMetric()) || WaitStatePatterns.isPattern(e.metric())) && e.change().diff() != 0)
                .sorted(Comparator.comparingDouble((Entry e) -> Math.abs(e.change().diff())).reversed())
                .limit(o.topEntries())
                .toList();
        if (!top.isEmpty()) {
            sb.append("\nLargest changes of time and wait states by call path (exclusive)\n");
            sb.append(Format.left("Metric", 26)).append(Format.left("Call path", 48))
                    .append(Format.right("Δ", 14)).append(Format.right("Δ %", 10)).append(Format.right("share", 9)).append('\n');
            for (Entry e : top) {
                sb.append(Format.left(e.displayName(), 26)).append(Format.left(PathNames.join(e.path()), 48))
                        .append(Format.right(Format.signed(e.change().diff(), e.unit()), 14))
                        .append(Format.right(Format.relative(e.change().relative()), 10))
                        .append(Format.right(Format.share(e.change().share()), 9)).append('\n');
            }
        }
        return sb.toString();
    }

    /** The why: the sentence, then the largest causes with their short-term and propagated parts. */
    private static void causes(DelayCauses c, Options o, StringBuilder sb) {
        sb.append("why: ").append(c.sentence()).append('\n');
        if (c.causes().isEmpty()) {
            return;
        }
        sb.append(Format.right("share", 9)).append(Format.right(c.direction() > 0 ? "growth" : "reduction", 14))
                .append(Format.right("short-term", 14)).append(Format.right("propagated", 14))
                .append("  delaying call path\n");
        for (DelayCauses.Cause x : c.causes().subList(0, Math.min(o.topCauses(), c.causes().size()))) {
            String ranks = DelayCauses.ranks(x);
            sb.append(Format.right(Format.share(x.share()), 9)).append(Format.right(Format.signed(x.diff(), "sec"), 14))
                    .append(Format.right(Format.signed(x.shortTerm(), "sec"), 14))
                    .append(Format.right(Format.signed(x.propagated(), "sec"), 14))
                    .append("  ").append(x.label()).append(ranks.isEmpty() ? "" : " on " + ranks).append('\n');
        }
    }

    private static String ranks(int n) {
        return n > 0 ? " (" + n + (n == 1 ? " rank)" : " ranks)") : "";
    }

    private static String header(boolean perRank) {
        String h = Format.right("A", 16) + Format.right("B", 16) + Format.right("Δ", 16) + Format.right("Δ %", 10)
                + Format.right("share", 9);
        return perRank ? h + Format.right("A per proc", 14) + Format.right("B per proc", 14)
                + Format.right("Δ % per proc", 14) : h;
    }

    private static String row(Change c, String unit, boolean perRank) {
        // the share column is of the change of total time; a count's share of its own change says nothing
        String s = Format.right(Format.value(c.a(), unit), 16) + Format.right(Format.value(c.b(), unit), 16)
                + Format.right(Format.signed(c.diff(), unit), 16) + Format.right(Format.relative(c.relative()), 10)
                + Format.right("sec".equals(unit) ? Format.share(c.share()) : "-", 9);
        if (perRank) {
            s += Format.right(Format.value(c.aPerRank(), unit), 14) + Format.right(Format.value(c.bPerRank(), unit), 14)
                    + Format.right(Format.relative(c.perRankRelative()), 14);
        }
        return s;
    }
}
