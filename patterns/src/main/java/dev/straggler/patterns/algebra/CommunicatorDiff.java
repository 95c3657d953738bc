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
 * counts; each size's change is given with its share of the gross change in waiting (growth and shrinkage apart,
 * so shares stay within [0, 100] %).
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

    /** Gross growth (sum of the positive changes) and gross shrinkage (sum of the negative ones, as a positive). */
    private double[] gross() {
        double up = 0;
        double down = 0;
        for (Row r : rows) {
            if (r.change() > 0) {
                up += r.change();
            } else {
                down -= r.change();
            }
        }
        return new double[] {up, down};
    }

    /** A row's share of the gross change in its direction, in percent (0 when it did not change). */
    public double share(Row r) {
        double[] g = gross();
        double whole = r.change() >= 0 ? g[0] : g[1];
        return whole > 0 ? Math.min(100, 100 * Math.abs(r.change()) / whole) : 0;
    }

    /** The table for the terminal, or "" when neither experiment waits on any communicator. */
    public String render() {
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("\nWaiting by communicator size (A vs B)\n");
        out.append(String.format(Locale.ROOT, "  %6s %9s %12s %12s %13s %8s%n", "size", "comms A/B", "A", "B",
                "change", "share"));
        for (Row r : rows) {
            out.append(String.format(Locale.ROOT, "  %6d %4d/%-4d %10.6f s %10.6f s %+11.6f s %7.1f%%%n", r.size(),
                    r.countA(), r.countB(), r.a(), r.b(), r.change(), share(r)));
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
            out.append(String.format(Locale.ROOT, "  %.1f %% of the growth in waiting is in communicators of %d "
                    + "processes%s%n", share(top), top.size(), growing.size() > 1
                    ? " (growing sizes: " + growing + ")" : ""));
        }
        return out.toString();
    }

    /** {@code [{size, communicatorsA, communicatorsB, waitingA, waitingB, change, sharePercent}]}. */
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
            o.put("sharePercent", share(r));
        }
        return arr;
    }
}
