package dev.straggler.patterns.scaling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The statistical scalability analysis of Vetter and McCracken (PPoPP 2001): for every experiment each key's
 * aggregate time is divided by the experiment's aggregate communication time; that ratio and the number of tasks
 * are rank-transformed (ties get the mid-rank) and Spearman's r_s is computed over all experiments, repetitions at
 * the same task count included. A key whose share of communication rises with the task count (r_s near +1) is one
 * that scales badly.
 *
 * <p>Keys that never reach the share threshold in any experiment are counted but not reported.
 */
public final class RankCorrelation {

    /** What is correlated with the number of tasks. */
    public enum Measure {
        /** A key's aggregate time over the aggregate communication time: Vetter and McCracken's measure. */
        SHARE_OF_COMMUNICATION,
        /** A key's aggregate time over the number of tasks: does the time a process spends there grow with p? */
        TIME_PER_TASK
    }

    /**
     * @param shareThreshold a key is reported when its share of communication reaches this in at least one
     *                       experiment (default 1 %), whatever the measure
     * @param measure        what the task count is correlated with (default: share of communication)
     */
    public record Options(double shareThreshold, Measure measure) {
        public Options(double shareThreshold) {
            this(shareThreshold, Measure.SHARE_OF_COMMUNICATION);
        }

        public static Options defaults() {
            return new Options(0.01, Measure.SHARE_OF_COMMUNICATION);
        }
    }

    /** One experiment's value of a key. */
    public record Point(String experiment, int tasks, double time, double share) {
    }

    /**
     * The analysis of one key.
     *
     * @param rs         Spearman's r_s between task count and the measure; NaN when either does not vary
     * @param pValue     two-sided p-value of r_s (exact up to 9 experiments, t approximation beyond), NaN below 3
     * @param maxShare   largest share over the experiments
     * @param series     the raw values, in experiment order
     * @param taskRanks  mid-ranks of the task counts, in experiment order (the rank scatter's x)
     * @param shareRanks mid-ranks of the measure (the rank scatter's y)
     */
    public record Row(String key, double rs, double pValue, double maxShare, List<Point> series, double[] taskRanks,
                      double[] shareRanks) {
    }

    /**
     * @param rows           keys above the threshold, by r_s descending (undefined r_s last)
     * @param belowThreshold keys left out because their share never reached the threshold
     * @param notes          warnings about the input (too few task counts, runs without communication)
     */
    public record Result(List<String> experiments, int[] tasks, int distinctTasks, double shareThreshold,
                         Measure measure, List<Row> rows, int belowThreshold, List<String> notes) {
    }

    private RankCorrelation() {
    }

    public static Result analyse(List<ScalingExperiment> experiments) {
        return analyse(experiments, Options.defaults());
    }

    /** @throws IllegalArgumentException for fewer than two experiments */
    public static Result analyse(List<ScalingExperiment> experiments, Options o) {
        if (experiments.size() < 2) {
            throw new IllegalArgumentException("rank correlation needs at least two experiments, got " + experiments.size());
        }
        int n = experiments.size();
        double[] tasks = new double[n];
        int[] taskInts = new int[n];
        List<String> labels = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            ScalingExperiment e = experiments.get(i);
            tasks[i] = e.tasks();
            taskInts[i] = e.tasks();
            labels.add(e.label());
            keys.addAll(e.times().keySet());
            if (e.communicationTime() <= 0) {
                notes.add(e.label() + ": no communication time; every share there is taken as 0");
            }
        }
        int distinct = (int) java.util.Arrays.stream(taskInts).distinct().count();
        if (distinct < 2) {
            notes.add("all experiments have the same number of tasks: r_s is undefined");
        } else if (distinct < 3) {
            notes.add("only two task counts: r_s tells the direction of change, little more");
        }
        double[] taskRanks = Spearman.ranks(tasks);
        List<Row> rows = new ArrayList<>();
        int below = 0;
        for (String key : keys) {
            double[] share = new double[n];
            double[] measure = new double[n];
            double max = 0;
            List<Point> series = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ScalingExperiment e = experiments.get(i);
                share[i] = e.share(key);
                measure[i] = o.measure() == Measure.SHARE_OF_COMMUNICATION ? share[i]
                        : e.times().getOrDefault(key, 0.0) / e.tasks();
                max = Math.max(max, share[i]);
                series.add(new Point(e.label(), e.tasks(), e.times().getOrDefault(key, 0.0), share[i]));
            }
            if (max < o.shareThreshold()) {
                below++;
                continue;
            }
            double rs = Spearman.correlation(tasks, measure);
            rows.add(new Row(key, rs, Spearman.pValue(tasks, measure), max, List.copyOf(series), taskRanks.clone(),
                    Spearman.ranks(measure)));
        }
        rows.sort(Comparator.comparingDouble((Row r) -> Double.isNaN(r.rs()) ? Double.NEGATIVE_INFINITY : r.rs())
                .reversed().thenComparing(Comparator.comparingDouble(Row::maxShare).reversed()));
        return new Result(List.copyOf(labels), taskInts, distinct, o.shareThreshold(), o.measure(), List.copyOf(rows),
                below, List.copyOf(notes));
    }
}
