package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.sim.ClockSkew;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects a scenario's closed-form expectation. Severities are summed in integer ticks per (metric, call path,
 * rank) and converted to seconds once, so the expectation is as exact as the timestamps it describes.
 *
 * <p>Scenarios compute true (model) times; {@link #obs} turns them into the timestamps the skewed clock of a rank
 * records, which is what Scalasca's formulas see.
 */
public final class ExpectedBuilder {
    private record Key(String metric, List<String> callpath, int rank) {
    }

    private final String scenario;
    private final Params params;
    private final ClockSkew skew;
    private final Map<Key, long[]> sums = new HashMap<>();
    private final Map<Integer, ReceiveLog> logs = new HashMap<>();
    private final List<String> notes = new ArrayList<>();
    private boolean exact = true;
    private ExpectedSeverities.Scaling scaling;
    private ExpectedSeverities.Filter filter;

    ExpectedBuilder(String scenario, Params params) {
        this.scenario = scenario;
        this.params = params;
        this.skew = params.skew();
    }

    /** The timestamp rank {@code rank} records for true time {@code t}. */
    public long obs(int rank, long t) {
        return skew.observe(rank, t);
    }

    /** Adds {@code ticks} (ignored when not positive, as Scalasca counts only positive waits). */
    public void add(String metric, List<String> callpath, int rank, long ticks) {
        if (ticks > 0) {
            sums.computeIfAbsent(new Key(metric, List.copyOf(callpath), rank), k -> new long[1])[0] += ticks;
        }
    }

    /** The receive history of a rank, which Late Sender / Wrong Order needs in the rank's receive order. */
    public ReceiveLog receives(int rank) {
        return logs.computeIfAbsent(rank, r -> new ReceiveLog(this, r));
    }

    /** Marks the expectation as model-level: entries, if any, are not the complete list of non-zero values. */
    public void modelLevel() {
        exact = false;
    }

    public void scaling(ExpectedSeverities.Scaling s) {
        scaling = s;
    }

    public void filter(ExpectedSeverities.Filter f) {
        filter = f;
    }

    public void note(String n) {
        notes.add(n);
    }

    ExpectedSeverities build() {
        List<String> order = Metrics.WAIT_STATES;
        List<Map.Entry<Key, long[]>> list = new ArrayList<>(sums.entrySet());
        list.sort(Comparator.<Map.Entry<Key, long[]>>comparingInt(e -> metricIndex(order, e.getKey().metric))
                .thenComparing(e -> String.join("/", e.getKey().callpath))
                .thenComparingInt(e -> e.getKey().rank));
        List<ExpectedSeverities.Entry> entries = new ArrayList<>();
        Map<String, Long> totalTicks = new LinkedHashMap<>();
        for (String m : order) {
            totalTicks.put(m, 0L);
        }
        for (var e : list) {
            entries.add(new ExpectedSeverities.Entry(e.getKey().metric, e.getKey().callpath, e.getKey().rank,
                    e.getValue()[0] / 1e9));
            totalTicks.merge(e.getKey().metric, e.getValue()[0], Long::sum);
        }
        Map<String, Double> totals = new LinkedHashMap<>();
        totalTicks.forEach((m, t) -> totals.put(m, t / 1e9));
        return new ExpectedSeverities(ExpectedSeverities.FORMAT, scenario, params.ranks(), params.seed(), params.values(),
                exact, order, entries, totals, scaling, filter, notes);
    }

    private static int metricIndex(List<String> order, String m) {
        int i = order.indexOf(m);
        return i < 0 ? order.size() : i;
    }
}
