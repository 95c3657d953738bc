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
 * rank) and converted to seconds once, so the expectation is as exact as the timestamps it describes. Root-cause
 * values (delay costs, wait-state classes, critical path) are shares of such times and are summed as real-valued
 * ticks; a scenario that predicts them lists their metrics with {@link #covers}.
 *
 * <p>Scenarios compute true (model) times; {@link #obs} turns them into the timestamps the skewed clock of a rank
 * records, which is what Scalasca's formulas see.
 */
public final class ExpectedBuilder {
    private record Key(String metric, List<String> callpath, int rank, int thread) {
    }

    private final String scenario;
    private final Params params;
    private final ClockSkew skew;
    private final Map<Key, long[]> sums = new HashMap<>();
    private final Map<Key, double[]> shares = new HashMap<>();
    private final List<String> covered = new ArrayList<>();
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
        add(metric, callpath, rank, 0, ticks);
    }

    /** Adds {@code ticks} at OpenMP thread {@code thread} of a rank (ignored when not positive). */
    public void add(String metric, List<String> callpath, int rank, int thread, long ticks) {
        if (ticks > 0) {
            sums.computeIfAbsent(new Key(metric, List.copyOf(callpath), rank, thread), k -> new long[1])[0] += ticks;
        }
    }

    /**
     * Adds a real-valued number of ticks to a metric listed with {@link #covers} (ignored when not positive, as
     * Scalasca records only positive severities).
     */
    public void addShare(String metric, List<String> callpath, int rank, double ticks) {
        addShare(metric, callpath, rank, 0, ticks);
    }

    /** {@link #addShare} at OpenMP thread {@code thread} of a rank. */
    public void addShare(String metric, List<String> callpath, int rank, int thread, double ticks) {
        if (!covered.contains(metric)) {
            throw new IllegalStateException(scenario + ": metric " + metric + " is not covered by this expectation");
        }
        if (ticks > 0) {
            shares.computeIfAbsent(new Key(metric, List.copyOf(callpath), rank, thread), k -> new double[1])[0]
                    += ticks;
        }
    }

    /**
     * Declares that the expectation predicts these metrics beyond the wait states: every non-zero value of them
     * is added, and they are zero wherever nothing was added.
     */
    public void covers(List<String> metrics) {
        for (String m : metrics) {
            if (!covered.contains(m) && !Metrics.WAIT_STATES.contains(m)) {
                covered.add(m);
            }
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
        List<String> order = new ArrayList<>(Metrics.WAIT_STATES);
        order.addAll(covered);
        Map<Key, Double> ticks = new HashMap<>();
        sums.forEach((k, v) -> ticks.put(k, (double) v[0]));
        shares.forEach((k, v) -> ticks.merge(k, v[0], Double::sum));
        List<Map.Entry<Key, Double>> list = new ArrayList<>(ticks.entrySet());
        list.sort(order(order));
        List<ExpectedSeverities.Entry> entries = new ArrayList<>();
        Map<String, Double> totalTicks = new LinkedHashMap<>();
        for (String m : order) {
            totalTicks.put(m, 0.0);
        }
        for (var e : list) {
            entries.add(new ExpectedSeverities.Entry(e.getKey().metric, e.getKey().callpath, e.getKey().rank,
                    e.getKey().thread, e.getValue() / 1e9));
            totalTicks.merge(e.getKey().metric, e.getValue(), Double::sum);
        }
        Map<String, Double> totals = new LinkedHashMap<>();
        totalTicks.forEach((m, t) -> totals.put(m, t / 1e9));
        return new ExpectedSeverities(ExpectedSeverities.FORMAT, scenario, params.ranks(), params.seed(), params.values(),
                exact, order, entries, totals, scaling, filter, notes);
    }

    private static Comparator<Map.Entry<Key, Double>> order(List<String> metrics) {
        return Comparator.<Map.Entry<Key, Double>>comparingInt(e -> metricIndex(metrics, e.getKey().metric))
                .thenComparing(e -> String.join("/", e.getKey().callpath))
                .thenComparingInt(e -> e.getKey().rank)
                .thenComparingInt(e -> e.getKey().thread);
    }

    private static int metricIndex(List<String> order, String m) {
        int i = order.indexOf(m);
        return i < 0 ? order.size() : i;
    }
}
