package dev.straggler.patterns.scaling;

import dev.straggler.patterns.algebra.CauseMetrics;
import dev.straggler.patterns.algebra.CubeAttributes;
import dev.straggler.patterns.algebra.DimensionUnion;
import dev.straggler.patterns.algebra.WaitStatePatterns;
import dev.straggler.patterns.callsite.MpiCallKind;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.PathNames;
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
 * {@code mpi} metric when it has one, else the {@code time} spent in MPI regions, in both cases without MPI_Init
 * and MPI_Finalize: start-up and shut-down often take most of a short run's MPI time (92 % in the NPB MG series)
 * and would make every wait state look negligible. For the same reason their own waits (Initialization
 * Completion, Wait at Finalize) are not rows.
 *
 * <p>When every run carries delay costs (docs/root-causes.md), their causes are rows too: per kind of wait state and
 * delaying call path, the short-term plus long-term delay ("Late Sender delay @ main/solve"), as a share of the
 * same MPI time, so that the cause whose part of the communication time grows fastest ranks with the wait states.
 * When only some runs carry them they are left out, with a note (a run analysed without root causes is not a run
 * without delays).
 */
public final class WaitStateScaling {

    /** What a row of the analysis stands for. */
    public record Key(String metric, String displayName, List<String> path) {
        /** The key used in the rank-correlation rows: "Late Sender @ main/solve/MPI_Recv". */
        public String label() {
            return displayName + " @ " + PathNames.join(path);
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
        List<String> without = new ArrayList<>();
        for (int op = 0; op < cubes.size(); op++) {
            if (!CauseMetrics.carriesDelays(cubes.get(op))) {
                without.add(CubeAttributes.describe(cubes.get(op), "run " + (op + 1)));
            }
        }
        boolean delays = without.isEmpty();
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
                if (INIT_FINALIZE_WAITS.contains(metric.uniqueName())) {
                    continue;
                }
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    double v = c.sumOverLocations(m, cp);
                    if (v != 0) {
                        Key k = new Key(metric.uniqueName(), metric.displayName(), u.pathNames(u.callPath(op, cp)));
                        keys.putIfAbsent(k.label(), k);
                        times.merge(k.label(), v, Double::sum);
                    }
                }
            }
            if (delays) {
                addDelays(c, op, u, keys, times);
            }
            double[] denom = mpiTime(c);
            denominators.add(label + ": " + (denom[1] == 0 ? "mpi metric without Init/Finalize"
                    : denom[1] == 1 ? "time in MPI regions other than MPI_Init/MPI_Finalize" : "total time (no MPI found)"));
            experiments.add(new ScalingExperiment(label, tasks[op], times, denom[0]));
        }
        RankCorrelation.Result rc = RankCorrelation.analyse(experiments, o);
        if (!delays && without.size() < cubes.size()) {
            List<String> notes = new ArrayList<>(rc.notes());
            notes.add("delay costs left out: " + String.join(", ", without) + (without.size() == 1 ? " has" : " have")
                    + " none (analysed without root causes?)");
            rc = new RankCorrelation.Result(rc.experiments(), rc.tasks(), rc.distinctTasks(), rc.shareThreshold(),
                    rc.measure(), rc.rows(), rc.belowThreshold(), List.copyOf(notes));
        }
        return new Result(rc, keys, denominators);
    }

    /**
     * Rows of delay costs: per kind of MPI wait state and delaying call path, short-term plus long-term. The shares
     * are of MPI time, so the delays of OpenMP waiting and idle threads, which explain time outside MPI, stay out.
     */
    private static void addDelays(SeverityCube c, int op, DimensionUnion u, Map<String, Key> keys,
                                  Map<String, Double> times) {
        for (int k = 0; k < CauseMetrics.MPI_KINDS; k++) {
            for (int cp = 0; cp < c.callPaths().size(); cp++) {
                double v = CauseMetrics.delay(c, k, cp);
                if (v != 0) {
                    Key key = new Key(CauseMetrics.aggregate(k), CauseMetrics.delayLabel(k), u.pathNames(u.callPath(op, cp)));
                    keys.putIfAbsent(key.label(), key);
                    times.merge(key.label(), v, Double::sum);
                }
            }
        }
    }

    /** Waits inside MPI_Init and MPI_Finalize, left out with them. */
    static final java.util.Set<String> INIT_FINALIZE_WAITS = java.util.Set.of("mpi_init_completion",
            "mpi_finalize_wait");

    /**
     * {value, how}: how = 0 for the mpi metric, 1 for time in MPI regions, 2 for total time; MPI_Init and
     * MPI_Finalize excluded (the {@code mpi_init_exit} metric, or their regions).
     */
    static double[] mpiTime(SeverityCube c) {
        int mpi = c.metricIndex("mpi");
        if (mpi >= 0 && c.total(mpi) > 0) {
            int init = c.metricIndex("mpi_init_exit");
            double v = c.total(mpi) - (init >= 0 ? c.total(init) : 0);
            if (v > 0) {
                return new double[]{v, 0};
            }
        }
        int time = c.metricIndex("time");
        if (time < 0) {
            return new double[]{0, 2};
        }
        double inMpi = 0;
        for (int cp = 0; cp < c.callPaths().size(); cp++) {
            var region = c.regions().get(c.callPaths().get(cp).region());
            if (MpiCallKind.isMpi(region) && !region.name().startsWith("MPI_Init") && !region.name().equals("MPI_Finalize")) {
                inMpi += c.sumOverLocations(time, cp);
            }
        }
        return inMpi > 0 ? new double[]{inMpi, 1} : new double[]{c.total(time), 2};
    }
}
