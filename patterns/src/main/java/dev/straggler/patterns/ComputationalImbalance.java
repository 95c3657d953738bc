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
 * while visitors are counted over all locations. OpenMP-parallel call paths, which the remapper averages over
 * threads instead, do not arise: Straggler analyses MPI.
 */
public final class ComputationalImbalance {
    private ComputationalImbalance() {
    }

    /** Adds the heuristic to {@code cube}, whose {@code comp} and {@code visits} are complete. */
    public static void addTo(SeverityCube cube) {
        int comp = cube.metricIndex("comp");
        int visits = cube.metricIndex("visits");
        int imbalance = cube.metricIndex("imbalance");
        if (comp < 0 || visits < 0 || imbalance < 0) {
            return;
        }
        int above = cube.metricIndex("imbalance_above");
        int single = cube.metricIndex("imbalance_above_single");
        int below = cube.metricIndex("imbalance_below");
        int bypass = cube.metricIndex("imbalance_below_bypass");
        int singularity = cube.metricIndex("imbalance_below_singularity");
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
            double mean = sum / processes;
            for (int l = 0; l < locations; l++) {
                if (!master[l]) {
                    continue;
                }
                double diff = (time == null ? 0 : time[l]) - mean;
                if (diff > 0) {
                    cube.set(imbalance, c, l, diff);
                    cube.set(above, c, l, diff);
                } else if (diff < 0) {
                    cube.set(imbalance, c, l, -diff);
                    cube.set(below, c, l, -diff);
                }
            }
            if (mean == 0) {
                continue;
            }
            double[] v = cube.rowOrNull(visits, c);
            int visitors = 0;
            for (int l = 0; l < locations; l++) {
                if (v != null && (long) v[l] != 0) {
                    visitors++;
                }
            }
            if (visitors == locations) {
                continue;
            }
            for (int l = 0; l < locations; l++) {
                boolean visited = v != null && (long) v[l] != 0;
                if (!visited) {
                    cube.set(bypass, c, l, mean);
                }
                if (visitors == 1) {
                    if (visited) {
                        cube.set(single, c, l, mean * (locations - 1));
                    } else {
                        cube.set(singularity, c, l, mean);
                    }
                }
            }
        }
    }
}
