package dev.straggler.patterns.scaling;

import dev.straggler.patterns.algebra.CauseMetrics;
import dev.straggler.patterns.algebra.CubeAttributes;
import dev.straggler.patterns.algebra.DimensionUnion;
import dev.straggler.patterns.algebra.WaitStatePatterns;
import dev.straggler.patterns.callsite.CallsiteEntry;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.callsite.Frame;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.focus.Focus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a series of runs (severity cubes or callsite statistics) into what the scaling models take: time per
 * process split into computation and communication ({@link ModelPoint}), and per callsite or per (pattern, call
 * path) a {@link MeasurementSeries} of time per process.
 *
 * <p>"Per process" is the aggregate over ranks divided by the number of ranks: the mean time a process spends,
 * which for a balanced run is the wall-clock time.
 */
public final class ScalingInputs {
    private ScalingInputs() {
    }

    /** Ranks of each cube (recorded or counted); @throws IllegalArgumentException when one is unknown */
    public static int[] ranks(List<SeverityCube> cubes) {
        int[] out = new int[cubes.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = CubeAttributes.ranks(cubes.get(i));
            if (out[i] <= 0) {
                throw new IllegalArgumentException(CubeAttributes.describe(cubes.get(i), "run " + (i + 1))
                        + ": number of processes unknown");
            }
        }
        return out;
    }

    /**
     * Total, computation and MPI time per process of each cube over the whole run ({@link Focus#ALL}); see
     * {@link #modelPoints(List, int[], Focus)}.
     */
    public static List<ModelPoint> modelPoints(List<SeverityCube> cubes, int[] tasks) {
        return modelPoints(cubes, tasks, Focus.ALL);
    }


    /**
     * Time, computation and MPI time per process of each cube, all over the call paths of the focus: {@code time},
     * Scalasca's {@code comp} (execution outside MPI and the other parallel runtimes) and {@code mpi} (time in MPI
     * calls: the papers' communication time, reference §9.1 and §9.3). With the default focus, MPI_Init and
     * MPI_Finalize are in none of them; they are series of their own ({@link #INIT_FINALIZE}). A cube without
     * Scalasca's tree gets the time in MPI regions as its MPI time and the rest as computation.
     */
    public static List<ModelPoint> modelPoints(List<SeverityCube> cubes, int[] tasks, Focus focus) {
        return modelPointsIn(cubes.stream().map(focus::select).toList(), tasks);
    }

    /** {@link #modelPoints(List, int[], Focus)} of runs with the focus already applied. */
    public static List<ModelPoint> modelPointsIn(List<Focus.Selection> runs, int[] tasks) {
        List<ModelPoint> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            SeverityCube c = runs.get(i).cube();
            double total = c.total("time");
            double mpi;
            double comp;
            if (c.metricIndex("mpi") >= 0 && c.metricIndex("comp") >= 0) {
                mpi = c.total("mpi");
                comp = c.total("comp");
            } else {
                mpi = mpiRegionTime(c);
                comp = total - mpi;
            }
            out.add(new ModelPoint(CubeAttributes.describe(runs.get(i).whole(), "run " + (i + 1)), tasks[i], total / tasks[i],
                    comp / tasks[i], mpi / tasks[i]));
        }
        return out;
    }

    /** Series name of the time per process in MPI_Init, MPI_Init_thread and MPI_Finalize (outside the default focus). */
    public static final String INIT_FINALIZE = "init_finalize";

    /** Time in MPI regions (call-path exclusive, so nested calls are not counted twice). */
    private static double mpiRegionTime(SeverityCube c) {
        int time = c.metricIndex("time");
        double inMpi = 0;
        for (int cp = 0; time >= 0 && cp < c.callPaths().size(); cp++) {
            if (dev.straggler.patterns.callsite.MpiCallKind.isMpi(c.regions().get(c.callPaths().get(cp).region()))) {
                inMpi += c.sumOverLocations(time, cp);
            }
        }
        return inMpi;
    }

    /** AppTime and MPI time per process of each run, from callsite statistics (e.g. mpiP reports). */
    public static List<ModelPoint> modelPoints(List<CallsiteStatistics> runs) {
        List<ModelPoint> out = new ArrayList<>();
        for (CallsiteStatistics s : runs) {
            int p = s.ranks();
            out.add(new ModelPoint(s.origin(), p, s.appTotal() / p, (s.appTotal() - s.mpiTotal()) / p, s.mpiTotal() / p));
        }
        return out;
    }

    /**
     * Per (wait-state pattern, call path) the severity per process, and the whole run's time, computation and
     * communication per process (call path "all"). Call paths are unified across runs by region names.
     *
     * <p>When every run carries root causes, also: the whole run's {@code delay} per process, its
     * {@code critical_path} and {@code critical_path_imbalance} (lengths of one path, not divided by the processes),
     * and, for the call paths that reach {@link #CAUSE_SHARE} of the run's total in some run: per (delay kind,
     * delaying call path) the short-term plus long-term delay per process (metric {@code delay_latesender_aggregate}
     * etc.) and the critical path per call path. The rest are hundreds of tiny series no model says anything about.
     */
    public static List<MeasurementSeries> patternSeries(List<SeverityCube> cubes, int[] tasks) {
        return patternSeries(cubes, tasks, Focus.ALL);
    }

    /**
     * {@link #patternSeries(List, int[])} over the call paths of a focus: every series covers only the focus, and
     * with the default focus the time in MPI_Init/MPI_Finalize is a series of its own ({@link #INIT_FINALIZE}).
     */
    public static List<MeasurementSeries> patternSeries(List<SeverityCube> wholes, int[] tasks, Focus focus) {
        return patternSeriesIn(wholes.stream().map(focus::select).toList(), tasks);
    }

    /** {@link #patternSeries(List, int[], Focus)} of runs with one focus already applied to each. */
    public static List<MeasurementSeries> patternSeriesIn(List<Focus.Selection> runs, int[] tasks) {
        Focus focus = runs.get(0).focus();
        List<SeverityCube> cubes = new ArrayList<>();
        double[] initFinalize = new double[runs.size()];
        boolean leftOut = false;
        for (int i = 0; i < runs.size(); i++) {
            Focus.Selection sel = runs.get(i);
            cubes.add(sel.cube());
            initFinalize[i] = sel.outside("time") / tasks[i];
            leftOut |= !sel.coversAll();
        }
        DimensionUnion u = DimensionUnion.of(cubes);
        Map<String, double[]> values = new LinkedHashMap<>();
        Map<String, String[]> meta = new LinkedHashMap<>();
        List<ModelPoint> points = modelPointsIn(runs, tasks);
        for (String name : List.of("time", "comp", "mpi")) {
            double[] v = new double[cubes.size()];
            for (int i = 0; i < v.length; i++) {
                ModelPoint p = points.get(i);
                v[i] = name.equals("time") ? p.total() : name.equals("comp") ? p.computation() : p.communication();
            }
            values.put(name, v);
            meta.put(name, new String[]{name});
        }
        if (focus.kind() == Focus.Kind.DEFAULT && leftOut) {
            values.put(INIT_FINALIZE, initFinalize);
            meta.put(INIT_FINALIZE, new String[]{INIT_FINALIZE});
        }
        List<Integer> patterns = WaitStatePatterns.all(u.metrics());
        for (int op = 0; op < cubes.size(); op++) {
            SeverityCube c = cubes.get(op);
            for (int m = 0; m < c.metrics().size(); m++) {
                int um = u.metric(op, m);
                if (!patterns.contains(um)) {
                    continue;
                }
                Metric metric = u.metrics().get(um);
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    double v = c.sumOverLocations(m, cp);
                    if (v == 0) {
                        continue;
                    }
                    List<String> path = u.pathNames(u.callPath(op, cp));
                    String key = metric.uniqueName() + "\u0000" + String.join("\u0000", path);
                    values.computeIfAbsent(key, k -> new double[cubes.size()])[op] += v / tasks[op];
                    meta.putIfAbsent(key, key.split("\u0000"));
                }
            }
        }
        if (cubes.stream().allMatch(CauseMetrics::carriesDelays)) {
            addRootCauses(cubes, tasks, u, values, meta);
        }
        double[] p = new double[cubes.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = tasks[i];
        }
        List<MeasurementSeries> out = new ArrayList<>();
        values.forEach((k, v) -> {
            String[] m = meta.get(k);
            out.add(new MeasurementSeries(m[0], List.of(m).subList(1, m.length), p.clone(), v));
        });
        return out;
    }

    /** Share of a run's delay costs (critical path) a call path's series must reach in some run to be modelled. */
    public static final double CAUSE_SHARE = 0.01;

    private static void addRootCauses(List<SeverityCube> cubes, int[] tasks, DimensionUnion u,
                                      Map<String, double[]> values, Map<String, String[]> meta) {
        int n = cubes.size();
        double[] delay = new double[n];
        double[] path = new double[n];
        Map<String, double[]> perPath = new LinkedHashMap<>();
        Map<String, Boolean> large = new LinkedHashMap<>();
        for (int op = 0; op < n; op++) {
            SeverityCube c = cubes.get(op);
            for (int k = 0; k < CauseMetrics.SHORT_TERM.size(); k++) {
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    delay[op] += CauseMetrics.delay(c, k, cp);
                }
            }
            path[op] = c.total("critical_path");
        }
        for (int op = 0; op < n; op++) {
            SeverityCube c = cubes.get(op);
            for (int k = 0; k < CauseMetrics.SHORT_TERM.size(); k++) {
                for (int cp = 0; cp < c.callPaths().size(); cp++) {
                    double v = CauseMetrics.delay(c, k, cp);
                    if (v != 0) {
                        String key = put(perPath, CauseMetrics.aggregate(k), u.pathNames(u.callPath(op, cp)), op, n,
                                v / tasks[op]);
                        large.merge(key, v >= CAUSE_SHARE * delay[op], Boolean::logicalOr);
                    }
                }
            }
            int cpm = c.metricIndex("critical_path");
            for (int cp = 0; cpm >= 0 && cp < c.callPaths().size(); cp++) {
                double v = c.sumOverLocations(cpm, cp);
                if (v != 0) {
                    String key = put(perPath, "critical_path", u.pathNames(u.callPath(op, cp)), op, n, v);
                    large.merge(key, v >= CAUSE_SHARE * path[op], Boolean::logicalOr);
                }
            }
        }
        double[] perProcess = new double[n];
        double[] imbalance = new double[n];
        for (int op = 0; op < n; op++) {
            perProcess[op] = delay[op] / tasks[op];
            imbalance[op] = cubes.get(op).total("critical_path_imbalance");
        }
        values.put("delay", perProcess);
        values.put("critical_path", path);
        values.put("critical_path_imbalance", imbalance);
        for (String name : List.of("delay", "critical_path", "critical_path_imbalance")) {
            meta.put(name, new String[]{name});
        }
        perPath.forEach((key, v) -> {
            if (large.get(key)) {
                values.put(key, v);
                meta.put(key, key.split("\u0000"));
            }
        });
    }

    /** Adds {@code v} to run {@code op} of the series (metric, path); returns its key. */
    private static String put(Map<String, double[]> values, String metric, List<String> path, int op, int runs,
                              double v) {
        String key = metric + "\u0000" + String.join("\u0000", path);
        values.computeIfAbsent(key, k -> new double[runs])[op] += v;
        return key;
    }

    /** Per callsite (matched across runs by {@link dev.straggler.patterns.callsite.Callsite#key()}) its time per process. */
    public static List<MeasurementSeries> callsiteSeries(List<CallsiteStatistics> runs) {
        Map<String, double[]> values = new LinkedHashMap<>();
        Map<String, List<String>> paths = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            CallsiteStatistics s = runs.get(i);
            for (CallsiteEntry e : s.callsites()) {
                String key = e.site().key();
                values.computeIfAbsent(key, k -> new double[runs.size()])[i] += e.all().total() / s.ranks();
                paths.computeIfAbsent(key, k -> {
                    List<String> path = new ArrayList<>();
                    List<Frame> fr = e.site().frames();
                    for (int f = fr.size() - 1; f >= 0; f--) {
                        path.add(fr.get(f).function());
                    }
                    path.add(e.site().operation());
                    return path;
                });
            }
        }
        double[] p = new double[runs.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = runs.get(i).ranks();
        }
        List<MeasurementSeries> out = new ArrayList<>();
        values.forEach((k, v) -> out.add(new MeasurementSeries("time", paths.get(k), p.clone(), v)));
        return out;
    }
}
