package dev.straggler.patterns;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The POSIX threads API calls the metric tree has categories for ({@code pthread_management}, {@code pthread_lock_api},
 * {@code pthread_conditional}): the call-path masks {@code pthread_mgmt}, {@code pthread_sync_mutex} and
 * {@code pthread_sync_condition} of Scalasca's remapping specification, which match the region names of paradigm
 * Pthread exactly. Every other Pthread region (e.g. Score-P's artificial {@code THREADS}, or calls the list lacks
 * such as spin locks) counts as computation, as the remapping's {@code comp} = execution − mpi − omp_time −
 * pthread_time − ... makes it.
 */
public final class PthreadApi {
    private PthreadApi() {
    }

    /** What a region's time counts towards. */
    public enum Category { NONE, MANAGEMENT, MUTEX, CONDITION }

    private static final Pattern MANAGEMENT = Pattern.compile("^pthread_(cancel|create|detach|exit|join)$");
    private static final Pattern MUTEX = Pattern.compile("^pthread_mutex_(destroy|init|lock|trylock|unlock)$");
    private static final Pattern CONDITION = Pattern.compile(
            "^pthread_cond_(broadcast|destroy|init|signal|timedwait|wait)$");

    /**
     * True when the run visited a call path whose region name contains "pthread": Scalasca's {@code square} then
     * remaps the report without {@code -s} ("Deactivate OpenMP Idle Threads metric if experiment contains POSIX
     * threads", it greps the visits dump for the word), so neither idle threads nor the computational imbalance
     * heuristic, which cube_remap2 computes only with {@code -s}, are added: both stay zero (docs/openmp.md §8).
     *
     * @param visited per call path, whether any location visited it
     */
    public static boolean remapperSkipsThreadMetrics(List<Region> regions, int[] callPathRegion,
                                                     java.util.function.IntPredicate visited) {
        for (int c = 0; c < callPathRegion.length; c++) {
            if (regions.get(callPathRegion[c]).name().contains("pthread") && visited.test(c)) {
                return true;
            }
        }
        return false;
    }

    /** {@link #remapperSkipsThreadMetrics} on a cube whose visits are complete. */
    public static boolean remapperSkipsThreadMetrics(dev.straggler.patterns.cube.SeverityCube cube) {
        int visits = cube.metricIndex("visits");
        if (visits < 0) {
            return false;
        }
        int[] region = new int[cube.callPaths().size()];
        for (int c = 0; c < region.length; c++) {
            region[c] = cube.callPaths().get(c).region();
        }
        return remapperSkipsThreadMetrics(cube.regions(), region, c -> cube.sumOverLocations(visits, c) > 0);
    }

    public static Category of(Region r) {
        if (r.paradigm() != Paradigm.PTHREAD) {
            return Category.NONE;
        }
        String name = r.name();
        if (MANAGEMENT.matcher(name).matches()) {
            return Category.MANAGEMENT;
        }
        if (MUTEX.matcher(name).matches()) {
            return Category.MUTEX;
        }
        if (CONDITION.matcher(name).matches()) {
            return Category.CONDITION;
        }
        return Category.NONE;
    }
}
