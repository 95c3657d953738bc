package dev.straggler.patterns.scaling;

import dev.straggler.patterns.algebra.CubeAttributes;
import dev.straggler.patterns.algebra.DimensionUnion;
import dev.straggler.patterns.algebra.WaitStatePatterns;
import dev.straggler.patterns.callsite.MpiCallKind;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rank-correlation analysis of Vetter and McCracken applied to wait states: for every (pattern, call path) of
 * a series of analysed runs, its severity summed over ranks is divided by the run's MPI time, and the
 * rank-correlation of that share with the number of processes tells which wait state grows with p.
 *
 * <p>Call paths of the runs are unified by region names as in the profile algebra. The MPI time is the run's
 * {@code mpi} metric when it has one, else the {@code time} spent in MPI regions.
 */
public final class WaitStateScaling {

    /** What a row of the analysis stands for. */
    public record Key(String metric, String displayName, List<String> path) {
        /** The key used in the rank-correlation rows: "Late Sender @ main > solve > MPI_Recv". */
        public String label() {
            return displayName + " @ " + String.join(" > ", path);
        }
    }

    /** @param keys the (pattern, call path) of every row key; @param denominators how each run's MPI time was found */
    public record Result(RankCorrelation.Result analysis, Map<String, Key> keys, List<String> denominators) {
    }

    private WaitStateScaling() {
    }

    /** Uses each cube's number of ranks as its task count. */
    public static Result analyse(List<SeverityCube> cubes, RankCorrelation.Options o) {
        int[] tasks = new int[cubes.size()];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = CubeAttributes.ranks(cubes.get(i));
            if (tasks[i] <= 0) {
                throw new IllegalArgumentException(CubeAttributes.describe(cubes.get(i), "run " + (i + 1))
                        + ": number of processes unknown; give the task counts explicitly");
            }
        }
        return analyse(cubes, tasks, o);
    }

    public static Result analyse(List<SeverityCube> cubes, int[] tasks, RankCorrelation.Options o) {
        DimensionUnion u = DimensionUnion.of(cubes);
        List<Integer> patterns = WaitStatePatterns.all(u.metrics());
        Map<String, Key> keys = new LinkedHashMap<>();
        List<ScalingExperiment> experiments = new ArrayList<>();
        List<String> denominators = new ArrayList<>();
        for (int op = 0; op < cubes.size(); op++) {
            SeverityCube c = cubes.get(op);
            String label = CubeAttributes.describe(c, "run " + (op + 1));
            int[] toOperand = new int[u.metrics().size()];
            java.util.Arrays.fill(toOperand, -1);
            for (int m = 0; m < c.metrics().size(); m++) {
                toOperand[u.metric(op, m)] = m;
            }
            Map<String, Double> times = new LinkedHashMap<>();
            for (int um : patterns) {
                int m = toOperand[um];
                if (m < 0) {
                    continue;
                }
                Metric metric = u.metrics().get(um);
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    double v = c.sumOverLocations(m, cp);
                    if (v != 0) {
                        Key k = new Key(metric.uniqueName(), metric.displayName(), u.pathNames(u.callPath(op, cp)));
                        keys.putIfAbsent(k.label(), k);
                        times.merge(k.label(), v, Double::sum);
                    }
                }
            }
            double[] denom = mpiTime(c);
            denominators.add(label + ": " + (denom[1] == 0 ? "mpi metric" : denom[1] == 1 ? "time in MPI regions" : "total time (no MPI found)"));
            experiments.add(new ScalingExperiment(label, tasks[op], times, denom[0]));
        }
        return new Result(RankCorrelation.analyse(experiments, o), keys, denominators);
    }

    /** {value, how}: how = 0 for the mpi metric, 1 for time in MPI regions, 2 for total time. */
    static double[] mpiTime(SeverityCube c) {
        int mpi = c.metricIndex("mpi");
        if (mpi >= 0 && c.total(mpi) > 0) {
            return new double[]{c.total(mpi), 0};
        }
        int time = c.metricIndex("time");
        if (time < 0) {
            return new double[]{0, 2};
        }
        double inMpi = 0;
        for (int cp = 0; cp < c.callPaths().size(); cp++) {
            if (MpiCallKind.isMpi(c.regions().get(c.callPaths().get(cp).region()))) {
                inMpi += c.sumOverLocations(time, cp);
            }
        }
        return inMpi > 0 ? new double[]{inMpi, 1} : new double[]{c.total(time), 2};
    }
}
