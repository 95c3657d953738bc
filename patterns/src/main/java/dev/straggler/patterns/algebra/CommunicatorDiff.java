package dev.straggler.patterns.algebra;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.patterns.CommunicatorWaits;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How the waiting per communicator size changes from experiment B to A: the KOJAK paper's GYRO question ("in which
 * communicators does the extra waiting at 192 processes happen?", reference §9.2) answered from two analyses.
 * Communicators are grouped by size because the same code creates different numbers of them at different process
 * counts (the world communicator of a run on 16 processes has size 16, on 8 processes size 8).
 *
 * <p>Each size's change comes with its <em>share of the gross change</em>: the change divided by the gross change,
 * the sum of every size's change taken positive. The share keeps the sign of the change, so growth and shrinkage
 * read apart (−25 % and +75 % for −0.08 s and +0.24 s); it lies within [−100 %, 100 %] and the shares' magnitudes
 * add up to 100 %. A share of the net change would exceed 100 % whenever another size shrank, and shares of the
 * growth and of the shrinkage taken apart give 100 % to both of two opposite changes.
 *
 * @param rows one per communicator size with waiting in either experiment, smallest first
 */
public record CommunicatorDiff(List<Row> rows) {

    /**
     * @param size  communicator size (processes)
     * @param countA communicators of this size with waiting in A, {@code countB} likewise in B
     * @param a      waiting on them in A (seconds, all wait-state metrics without double counting), {@code b} in B
     */
    public record Row(int size, int countA, int countB, double a, double b) {
        public double change() {
            return a - b;
        }
    }

    public static CommunicatorDiff of(List<CommunicatorWaits> a, List<CommunicatorWaits> b) {
        TreeMap<Integer, double[]> bySize = new TreeMap<>();
        add(bySize, a, 0);
        add(bySize, b, 1);
        List<Row> rows = new ArrayList<>();
        bySize.forEach((size, v) -> rows.add(new Row(size, (int) v[2], (int) v[3], v[0], v[1])));
        return new CommunicatorDiff(rows);
    }

    private static void add(TreeMap<Integer, double[]> bySize, List<CommunicatorWaits> comms, int side) {
        for (CommunicatorWaits c : comms) {
            double w = c.waiting();
            if (w > 0) {
                double[] v = bySize.computeIfAbsent(c.size(), k -> new double[4]);
                v[side] += w;
                v[2 + side]++;
            }
        }
    }

    /** The gross change: every size's change taken positive, summed (seconds). */
    public double grossChange() {
        double g = 0;
        for (Row r : rows) {
            g += Math.abs(r.change());
        }
        return g;
    }

    /** The net change: the sizes' changes summed with their signs (seconds). */
    public double netChange() {
        double n = 0;
        for (Row r : rows) {
            n += r.change();
        }
        return n;
    }

    /**
     * A row's change as a signed fraction of the {@link #grossChange() gross change}, within [−1, 1]; 0 when
     * nothing changed.
     */
    public double share(Row r) {
        double g = grossChange();
        return g > 0 ? Math.max(-1, Math.min(1, r.change() / g)) : 0;
    }

    /** The table for the terminal, or "" when neither experiment waits on any communicator. */
    public String render() {
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nWaiting by communicator size (A vs B)\n");
        out.append(String.format(Locale.ROOT, "  %6s %9s %12s %12s %13s %16s%n", "size", "comms A/B", "A", "B",
                "change", "of gross change"));
        for (Row r : rows) {
            out.append(String.format(Locale.ROOT, "  %6d %4d/%-4d %12s %12s %13s %16s%n", r.size(), r.countA(),
                    r.countB(), seconds(r.a(), false), seconds(r.b(), false), seconds(r.change(), true),
                    Format.relative(share(r))));
        }
        double gross = grossChange();
        if (gross > 0) {
            out.append("  gross change ").append(seconds(gross, false).strip())
                    .append(" (the sizes' changes taken positive, summed); net change ")
                    .append(seconds(netChange(), true).strip()).append('\n');
        }
        Row top = rows.stream().filter(r -> r.change() > 0).max((x, y) -> Double.compare(x.change(), y.change()))
                .orElse(null);
        if (top != null) {
            TreeSet<Integer> growing = new TreeSet<>();
            for (Row r : rows) {
                if (r.change() > 0) {
                    growing.add(r.size());
                }
            }
            out.append(String.format(Locale.ROOT, "  waiting grew most in communicators of %d processes: %s, %s of "
                    + "the gross change%s%n", top.size(), seconds(top.change(), true).strip(),
                    Format.share(share(top)), growing.size() > 1 ? " (growing sizes: " + growing + ")" : ""));
        }
        return out.toString();
    }

    /** Seconds with six decimals, without the sign of a zero. */
    private static String seconds(double v, boolean sign) {
        return Format.unsignedZero(String.format(Locale.ROOT, sign ? "%+.6f s" : "%.6f s", v));
    }

    /**
     * {@code [{size, communicatorsA, communicatorsB, waitingA, waitingB, change, shareOfGrossChangePercent}]}; the
     * share is {@link #share} in percent.
     */
    public ArrayNode toJson() {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        for (Row r : rows) {
            ObjectNode o = arr.addObject();
            o.put("size", r.size());
            o.put("communicatorsA", r.countA());
            o.put("communicatorsB", r.countB());
            o.put("waitingA", r.a());
            o.put("waitingB", r.b());
            o.put("change", r.change());
            o.put("shareOfGrossChangePercent", 100 * share(r));
        }
        return arr;
    }
}
