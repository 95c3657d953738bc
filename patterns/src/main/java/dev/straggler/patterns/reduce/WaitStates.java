package dev.straggler.patterns.reduce;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which call paths of a profile carry wait states, so that a reduction never merges two of them: merging would add
 * their severities into one call path and the analysis of the reduced trace would differ from the original's.
 */
public final class WaitStates {
    /** Scalasca's MPI wait-state patterns (reference §1.2), by Cube unique name. */
    public static final Set<String> PATTERNS = Set.of("mpi_latesender", "mpi_latesender_wo", "mpi_lswo_different",
            "mpi_lswo_same", "mpi_latereceiver", "mpi_barrier_wait", "mpi_barrier_completion", "mpi_earlyreduce",
            "mpi_earlyscan", "mpi_latebroadcast", "mpi_wait_nxn", "mpi_nxn_completion", "mpi_init_completion",
            "mpi_finalize_wait");

    private WaitStates() {
    }

    /**
     * Without an analysis: every call path that ends in a communicating region (MPI and the other types after COM)
     * may carry wait states.
     */
    public static boolean[] possible(RegionStatistics s) {
        CallTreeProfile p = s.profile();
        boolean[] out = new boolean[p.nodeCount()];
        for (int n = 0; n < out.length; n++) {
            out[n] = s.type(p.region(n)).marksCallers();
        }
        return out;
    }

    /**
     * From an analysis result or a Scalasca cube: the call paths where some wait-state pattern is non-zero on
     * some location. Cube call paths are matched to the profile's nodes by their region names from the root.
     */
    public static boolean[] fromCube(SeverityCube cube, CallTreeProfile p) {
        Map<List<String>, Boolean> carried = new HashMap<>();
        for (int c = 0; c < cube.callPaths().size(); c++) {
            boolean any = false;
            for (String m : PATTERNS) {
                int mi = cube.metricIndex(m);
                if (mi >= 0 && nonZero(cube.rowOrNull(mi, c))) {
                    any = true;
                    break;
                }
            }
            carried.merge(cube.pathNames(c), any, Boolean::logicalOr);
        }
        boolean[] out = new boolean[p.nodeCount()];
        for (int n = 0; n < out.length; n++) {
            out[n] = carried.getOrDefault(p.pathNames(n), false);
        }
        return out;
    }

    private static boolean nonZero(double[] row) {
        if (row == null) {
            return false;
        }
        for (double v : row) {
            if (v != 0) {
                return true;
            }
        }
        return false;
    }
}
