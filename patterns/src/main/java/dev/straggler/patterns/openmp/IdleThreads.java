package dev.straggler.patterns.openmp;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Paradigm;

import java.util.Arrays;
import java.util.List;

/**
 * Idle threads ({@code omp_idle_threads}, child {@code omp_limited_parallelism}; docs/openmp.md §3.2): the CPU
 * time a process reserves for its threads but leaves unused. Scalasca's remapping computes it from the time profile
 * alone, and so does this, with its rules:
 * <ul>
 *   <li>call paths are walked in tree order (depth first); a call path opens a construct when its region is a
 *   parallel region or a function of the OpenMP API (the remapper's {@code is_omp}: a name beginning with
 *   {@code "!$omp parallel @"}, or the source file {@code "OMP"} Score-P gives the API functions), and the next call
 *   path at its depth or above closes it (an OpenMP one opening the next). Other OpenMP constructs ({@code !$omp for},
 *   {@code !$omp barrier} ...) open none: called from serial code (orphaned) they are serial code;</li>
 *   <li>on a call path outside any construct ("serial"), every worker thread gets its master's time there as idle
 *   time;</li>
 *   <li>when a construct closes, a thread whose time inside it falls short of its master's by at least 1e-10 s gets
 *   the difference as limited parallelism (and idle time) on the construct's call path.</li>
 * </ul>
 * Idle time is added to {@code time} (so {@code time} exceeds {@code execution} by it), as Scalasca's remapped
 * report does.
 *
 * <p>One documented difference: Scalasca walks the call paths in id (creation) order, so a call path created late
 * (first visited on a later rank, inside a parallel region) is taken for serial code, and its master's time there
 * is given to the workers as idle time although they were inside the region, waiting at its barrier: their
 * {@code time} then exceeds the length of the run (omp-kernels-2x4: 0.302 s on each of rank 1's workers). Walking
 * in tree order keeps such a call path inside its region, where it adds nothing; on every other call path the two
 * walks give the same values.
 */
final class IdleThreads {
    /** The remapping's threshold: a smaller shortfall is rounding, not limited parallelism. */
    static final double THRESHOLD = 1e-10;

    private IdleThreads() {
    }

    /**
     * @param teamMaster per location, the master thread of its team when it is a worker thread, else -1
     *                   ({@link dev.straggler.replay.Replay#teamMasters}): accelerator streams are no workers
     */
    static void addTo(SeverityCube cube, int[] teamMaster) {
        int n = cube.locations().size();
        int[] master = new int[n];
        boolean anyWorker = false;
        for (int l = 0; l < n; l++) {
            master[l] = teamMaster[l] >= 0 ? teamMaster[l] : l;
            anyWorker |= teamMaster[l] >= 0;
        }
        if (!anyWorker) {
            return;
        }
        List<CallPath> paths = cube.callPaths();
        int p = paths.size();
        int[] depth = new int[p];
        for (int c = 0; c < p; c++) {
            depth[c] = paths.get(c).parent() < 0 ? 0 : depth[paths.get(c).parent()] + 1;
        }
        int time = MetricTree.TIME;
        double[] scout = new double[n];
        double[] inside = new double[n];
        int open = -1;
        // the cube's call paths are numbered depth first: their index order is the tree order
        for (int c = 0; c < p; c++) {
            boolean openMp = opensConstruct(cube.regions().get(paths.get(c).region()));
            if (open >= 0 && depth[c] <= depth[open]) {
                close(cube, open, inside, master);
                open = -1;
            }
            if (openMp && open < 0) {
                open = c;
                Arrays.fill(inside, 0);
            }
            for (int l = 0; l < n; l++) {
                scout[l] = cube.get(time, c, l);
            }
            if (open >= 0) {
                for (int l = 0; l < n; l++) {
                    inside[l] += scout[l];
                }
            } else {
                for (int l = 0; l < n; l++) {
                    double idle = scout[master[l]];
                    if (master[l] != l && idle != 0) {
                        cube.add(MetricTree.OMP_IDLE_THREADS, c, l, idle);
                        cube.add(time, c, l, idle);
                    }
                }
            }
        }
        if (open >= 0) {
            close(cube, open, inside, master);
        }
    }

    /**
     * The remapper's {@code is_omp} (CubeLib, Predicates.cpp) for the regions Score-P writes: a parallel region
     * (its name begins with {@code "!$omp parallel @"}, outside MPI's file) or a function of the OpenMP API (file
     * {@code "OMP"}). Description-based cases of older formats ("OMP", "pomp") do not occur in Score-P's traces; a
     * region of paradigm OpenMP and role parallel is a parallel region whatever its name, and one of role wrapper an
     * API function whatever its file.
     */
    static boolean opensConstruct(dev.straggler.trace.Region r) {
        String file = r.sourceFile();
        // by their roles too, for traces that do not name or file them the way Score-P does: a parallel region, and
        // an OpenMP API function (Score-P: role wrapper, file "OMP")
        if (file.equals("OMP") || (r.paradigm() == Paradigm.OPENMP
                && (r.role() == dev.straggler.trace.RegionRole.PARALLEL
                || r.role() == dev.straggler.trace.RegionRole.WRAPPER))) {
            return true;
        }
        return !file.equals("pomp") && !file.equals("MPI") && !file.equals("mpi") && !file.equals("EPIK")
                && r.name().startsWith("!$omp parallel @");
    }

    private static void close(SeverityCube cube, int construct, double[] inside, int[] master) {
        for (int l = 0; l < inside.length; l++) {
            double d = inside[master[l]] - inside[l];
            if (d >= THRESHOLD) {
                cube.add(MetricTree.OMP_LIMITED_PARALLELISM, construct, l, d);
                cube.add(MetricTree.OMP_IDLE_THREADS, construct, l, d);
                cube.add(MetricTree.TIME, construct, l, d);
            }
        }
    }
}
