package dev.straggler.patterns.openmp;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.Replay;
import dev.straggler.replay.TeamManagement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The thread level of the analysis (docs/openmp.md): thread management ({@link ThreadManagement}), waiting at
 * barriers ({@link BarrierWait}), lock contention of OpenMP and POSIX threads ({@link LockContention}) and idle
 * threads ({@link IdleThreads}),
 * per thread and call path with
 * Scalasca 2.6's rules. The threads of a process form one team: their k-th parallel regions and k-th barriers
 * belong together, and their lock orders are shared. Reads only what the replay kept of each location
 * ({@link dev.straggler.replay.ThreadRecords}); processes are independent of each other.
 */
public final class OpenMpAnalysis {
    private OpenMpAnalysis() {
    }

    /** What could not be analysed, one sentence per process and reason; empty when everything was. */
    public record Result(boolean hasOpenMp, List<String> problems) {
    }

    /**
     * True when the cube is of a run whose threads spent time in OpenMP (its OpenMP metrics are there and not all
     * zero): the reports then say what the MPI-only parts (root causes, the critical path) leave out.
     */
    public static boolean spentTimeInOpenMp(SeverityCube cube) {
        int m = cube.metricIndex("omp_time");
        return m >= 0 && !cube.isOmitted(m) && cube.total(m) > 0;
    }

    /** Books the OpenMP severities of every thread into the (not yet frozen) cube, whose visits are complete. */
    public static Result addTo(SeverityCube cube, Replay replay) {
        return addTo(cube, replay, !dev.straggler.patterns.PthreadApi.remapperSkipsThreadMetrics(cube));
    }

    /**
     * As above; {@code idleThreads} false leaves the idle threads out, as Scalasca's remapping does for a run that
     * visits POSIX threads calls ({@link dev.straggler.patterns.PthreadApi#remapperSkipsThreadMetrics}).
     */
    public static Result addTo(SeverityCube cube, Replay replay, boolean idleThreads) {
        List<LocationData> all = replay.locations();
        boolean any = false;
        boolean openMp = false;
        for (LocationData d : all) {
            any |= !d.threads().isEmpty();
            openMp |= d.threads().hasOpenMp();
        }
        if (!any) {
            return new Result(false, List.of());
        }
        int n = all.size();
        Severities[] sev = new Severities[n];
        for (int l = 0; l < n; l++) {
            sev[l] = new Severities(l, MetricTree.COUNT);
        }
        TeamManagement management = replay.teamManagement();
        if (openMp) {
            for (LocationData d : all) {
                ThreadManagement.book(d, management, sev[d.location()]);
            }
        }
        List<String> problems = new ArrayList<>();
        if (openMp && management.unmatchedInstances() > 0) {
            problems.add(management.unmatchedInstances() + " parallel-region instances have no matching fork and join"
                    + " of their master thread: no management time for them");
        }
        int[] locationOfRank = replay.definitions().masterLocationByRank();
        int[] teamMaster = Replay.teamMasters(replay.definitions(), locationOfRank);
        for (LocationData[] t : replay.teams()) {
            Severities[] out = new Severities[t.length];
            for (int i = 0; i < t.length; i++) {
                out[i] = sev[t[i].location()];
            }
            String why = openMp ? unsupported(t) : null;
            if (why != null) {
                // nested teams: the remapper's idle-thread walk knows one level of parallel regions, and gave an inner
                // team's thread its master's serial time on top of its own (more time than the run); Scalasca 2.6
                // refuses such a trace, so no idle time is computed for its threads either
                boolean nested = java.util.Arrays.stream(t).anyMatch(d -> d.threads().nestedParallelRegions() > 0);
                if (nested) {
                    for (LocationData d : t) {
                        teamMaster[d.location()] = -1;
                    }
                }
                problems.add(String.format(Locale.ROOT, "rank %d: %s: its OpenMP barrier and lock waiting is not"
                        + " analysed%s", t[0].rank(), why, nested ? ", nor its idle threads" : ""));
                continue;
            }
            if (openMp) {
                BarrierWait.book(t, out);
            }
            LockContention.book(t, out);
        }
        double tps = replay.definitions().clock().ticksPerSecond();
        for (LocationData d : all) {
            sev[d.location()].forEach((metric, path, ticks) ->
                    cube.add(metric, d.globalCallPath(path), d.location(), ticks / tps));
        }
        // last: it reads the time profile as it stands, as Scalasca's remapping reads the analysis report; only
        // OpenMP reserves CPU for a team (POSIX threads are created and joined by the program itself)
        if (openMp && idleThreads) {
            IdleThreads.addTo(cube, teamMaster);
        }
        return new Result(openMp, problems);
    }

    /** Why a team cannot be analysed as Scalasca 2.6 does it, or null. */
    private static String unsupported(LocationData[] team) {
        for (LocationData d : team) {
            if (d.threads().nestedParallelRegions() > 0) {
                return "nested parallel regions on thread " + d.thread() + " (Scalasca 2.6 supports none)";
            }
        }
        int barriers = team[0].threads().barriers();
        for (LocationData d : team) {
            if (d.threads().barriers() != barriers) {
                return "its threads passed different numbers of barriers (thread 0: " + barriers + ", thread "
                        + d.thread() + ": " + d.threads().barriers() + "), as with teams of varying size";
            }
        }
        return null;
    }
}
