package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

/**
 * Scalasca's computational load imbalance heuristic (the {@code imbalance} metric subtree, which the Cube remapper
 * computes after the trace analysis; pattern documentation "Computational Load Imbalance Heuristic"), per call path
 * and process:
 * <ul>
 *   <li>the mean is the call path's exclusive computation time summed over all locations, divided by the number
 *       of processes;</li>
 *   <li>a process above the mean has its excess as Overload, one below has its shortfall as Underload (both are
 *       also the value of {@code imbalance}, their parent);</li>
 *   <li>when not every location visits the call path, every location that never visits it has the mean as
 *       Non-participation; when exactly one location visits it, that one has the mean times (locations − 1) as
 *       Single participant and the others have the mean as Singularity.</li>
 * </ul>
 * As in the remapper's pure-MPI branch, only each process's master thread (thread 0) gets Overload and Underload,
 * while visitors are counted over all locations.
 *
 * <p>A run with OpenMP (its cube has {@code omp_time}) takes the remapper's other branch (docs/openmp.md §3.4): a
 * call path inside a parallel region (itself or an ancestor a region named {@code !$omp parallel...}) is averaged over
 * all threads instead of the processes, and every thread gets Overload and Underload there; outside parallel
 * regions only masters do, and the non-participation metrics are computed for call paths inside parallel regions
 * only.
 */
public final class ComputationalImbalance {
    private ComputationalImbalance() {
    }

    /** Adds the heuristic to {@code cube}, whose {@code comp} and {@code visits} are complete. */
    public static void addTo(SeverityCube cube) {
        int comp = cube.metricIndex("comp");
        int visits = cube.metricIndex("visits");
        int imbalance = cube.metricIndex("imbalance");
        if (comp < 0 || visits < 0 || imbalance < 0 || PthreadApi.remapperSkipsThreadMetrics(cube)) {
            return;
        }
        Metrics into = Metrics.of(cube);
        int ompTime = cube.metricIndex("omp_time");
        boolean openMp = ompTime >= 0 && !cube.isOmitted(ompTime);
        boolean[] parallel = openMp ? insideParallelRegions(cube) : new boolean[cube.callPaths().size()];
        int locations = cube.locations().size();
        boolean[] master = new boolean[locations];
        int processes = (int) cube.locations().stream().mapToInt(SystemLocation::rank).distinct().count();
        for (SystemLocation l : cube.locations()) {
            master[l.index()] = l.thread() == 0;
        }
        if (processes == 0) {
            return;
        }
        for (int c = 0; c < cube.callPaths().size(); c++) {
            double[] time = cube.rowOrNull(comp, c);
            double sum = 0;
            if (time != null) {
                for (double t : time) {
                    sum += t;
                }
            }
            double[] v = cube.rowOrNull(visits, c);
            int visitors = 0;
            for (int l = 0; l < locations; l++) {
                if (v != null && (long) v[l] != 0) {
                    visitors++;
                }
            }
            for (int l = 0; l < locations; l++) {
                book(cube, into, c, l, time == null ? 0 : time[l], v != null && (long) v[l] != 0, master[l], sum,
                        processes, visitors, locations, openMp, parallel[c]);
            }
        }
    }

    /**
     * Per call path, whether it lies inside an OpenMP parallel region: itself or an ancestor is a region whose name
     * starts with {@code !$omp parallel} (the remapper decides by name, as CubeLib's {@code is_omp_parallel}).
     */
    public static boolean[] insideParallelRegions(SeverityCube cube) {
        int n = cube.callPaths().size();
        boolean[] out = new boolean[n];
        // parents come before their children
        for (int c = 0; c < n; c++) {
            var cp = cube.callPaths().get(c);
            boolean own = cube.regions().get(cp.region()).name().startsWith("!$omp parallel");
            out[c] = own || (cp.parent() >= 0 && out[cp.parent()]);
        }
        return out;
    }

    /** The heuristic's metrics in a cube. */
    public record Metrics(int imbalance, int above, int single, int below, int bypass, int singularity)
            implements java.io.Serializable {
        public static Metrics of(SeverityCube cube) {
            return new Metrics(cube.metricIndex("imbalance"), cube.metricIndex("imbalance_above"),
                    cube.metricIndex("imbalance_above_single"), cube.metricIndex("imbalance_below"),
                    cube.metricIndex("imbalance_below_bypass"), cube.metricIndex("imbalance_below_singularity"));
        }
    }

    /**
     * Books the heuristic of call path {@code c} at one location into column {@code column} of {@code cube} (the
     * location's own column, or the only one of a cube holding just that location).
     *
     * @param time      the location's exclusive computation time on the call path
     * @param visited   whether the location visits the call path
     * @param master    whether the location is its process's master thread
     * @param sum       the call path's computation time summed over all locations, in location order
     * @param processes the number of processes
     * @param visitors  the number of locations that visit the call path
     * @param locations the number of locations
     */
    public static void book(SeverityCube cube, Metrics into, int c, int column, double time, boolean visited,
                            boolean master, double sum, int processes, int visitors, int locations) {
        book(cube, into, c, column, time, visited, master, sum, processes, visitors, locations, false, false);
    }

    /**
     * As above for a run with or without OpenMP ({@code openMp}: the cube has OpenMP metrics); {@code parallel} when
     * the call path lies inside a parallel region ({@link #insideParallelRegions}).
     */
    public static void book(SeverityCube cube, Metrics into, int c, int column, double time, boolean visited,
                            boolean master, double sum, int processes, int visitors, int locations, boolean openMp,
                            boolean parallel) {
        if (processes == 0) {
            return;
        }
        boolean threads = openMp && parallel;
        double mean = sum / (threads ? locations : processes);
        if (master || threads) {
            double diff = time - mean;
            if (diff > 0) {
                cube.set(into.imbalance(), c, column, diff);
                cube.set(into.above(), c, column, diff);
            } else if (diff < 0) {
                cube.set(into.imbalance(), c, column, -diff);
                cube.set(into.below(), c, column, -diff);
            }
        }
        if (mean == 0 || visitors == locations || (openMp && !parallel)) {
            return;
        }
        if (!visited) {
            cube.set(into.bypass(), c, column, mean);
        }
        if (visitors == 1) {
            if (visited) {
                cube.set(into.single(), c, column, mean * (locations - 1));
            } else {
                cube.set(into.singularity(), c, column, mean);
            }
        }
    }
}
