package dev.straggler.spark;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.patterns.openmp.OpenMpAnalysis;
import dev.straggler.patterns.waitstate.LocationOutcome;
import dev.straggler.patterns.waitstate.WaitStates;
import dev.straggler.replay.CallTree;
import dev.straggler.replay.RegionTable;
import dev.straggler.replay.Replay;
import dev.straggler.replay.ThreadRecords;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceDefinitions;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The OpenMP level on the executors (docs/openmp.md, docs/spark.md "OpenMP threads"): the single-machine code
 * ({@link OpenMpAnalysis#addTo}) run on a few processes at a time instead of the whole trace. Everything it
 * computes for a thread depends only on the threads of the same process: management from the master's forks and
 * joins, barrier waits and lock contention within the team, idle threads from the thread's and its master's time
 * per call path of the unified tree. So each process's threads are brought together (a keyed grouping by process)
 * with their OpenMP records and their columns of the cube as the wait-state stage leaves them, the single-machine
 * code runs on a cube holding just those threads, and what it changed — each thread's cells, as final values —
 * goes back to where the cube is formed (the driver, or the executors writing the cube). The cells are set, not
 * added, so each is the double the single-machine engine computes.
 *
 * <p>One rule is global: the single-machine code does nothing at all when no location of the trace recorded an
 * OpenMP construct, and otherwise gives every worker thread idle time, even one of a process whose threads
 * recorded none. Such processes are grouped with one that did, so that the code, run on that group, gives them the
 * same idle time.
 */
final class OpenMpStage {
    private OpenMpStage() {
    }

    /** The sentence the single-machine code begins its problems with when instances lack a fork and join. */
    private static final String UNMATCHED_AFTER_COUNT = " parallel-region instances";

    /**
     * What every task of the stage needs, broadcast once; sized by locations and call paths.
     *
     * @param groupOf per location, the group of processes it is analysed with (-1: no OpenMP level for it)
     * @param parent  per call path of the unified tree, its parent
     * @param region  per call path, its region
     */
    record Teams(String trace, boolean lenient, int[] groupOf, int[] parent, int[] region, double tps,
                 long[] timeMasks, boolean idleThreads) implements Serializable {

        /**
         * The groups, or null when no location recorded an OpenMP construct (the single-machine code then adds
         * nothing). Each process whose locations recorded one is a group, numbered by its rank; a process with
         * worker threads that recorded none joins the first group; a location of no process that recorded one is a
         * group of its own.
         *
         * @param threadRecords per location, whether it recorded an OpenMP construct
         */
        static Teams plan(TraceDefinitions defs, boolean[] threadRecords, CallTree tree, String trace,
                          boolean lenient, long[] timeMasks) {
            int n = defs.locations().size();
            int[] locationOfRank = defs.masterLocationByRank();
            int[] teamMaster = Replay.teamMasters(defs, locationOfRank);
            int ranks = locationOfRank.length;
            boolean[] recordsOfRank = new boolean[ranks];
            boolean[] workersOfRank = new boolean[ranks];
            int anchor = Integer.MAX_VALUE;
            for (int l = 0; l < n; l++) {
                int rank = defs.location(l).rank();
                boolean process = rank >= 0 && rank < ranks;
                if (process) {
                    recordsOfRank[rank] |= threadRecords[l];
                    workersOfRank[rank] |= teamMaster[l] >= 0;
                }
                if (threadRecords[l]) {
                    anchor = Math.min(anchor, process ? rank : ranks + l);
                }
            }
            if (anchor == Integer.MAX_VALUE) {
                return null;
            }
            int[] groupOf = new int[n];
            for (int l = 0; l < n; l++) {
                int rank = defs.location(l).rank();
                if (rank >= 0 && rank < ranks) {
                    groupOf[l] = recordsOfRank[rank] ? rank : workersOfRank[rank] ? anchor : -1;
                } else {
                    groupOf[l] = threadRecords[l] ? ranks + l : -1;
                }
            }
            int[] parent = new int[tree.size()];
            int[] region = new int[tree.size()];
            for (int c = 0; c < parent.length; c++) {
                parent[c] = tree.parent(c);
                region[c] = tree.region(c);
            }
            // every call path of the unified tree was visited, but for the artificial THREADS node (not "pthread")
            boolean idleThreads = !dev.straggler.patterns.PthreadApi.remapperSkipsThreadMetrics(
                    dev.straggler.replay.RegionTable.of(defs).regions(), region, c -> true);
            return new Teams(trace, lenient, groupOf, parent, region, defs.clock().ticksPerSecond(), timeMasks,
                    idleThreads);
        }

        int paths() {
            return parent.length;
        }

        /** An empty cube of the unified call tree over the given locations (numbered 0, 1, ...). */
        SeverityCube cube(TraceDefinitions defs, List<Location> locations) {
            List<CallPath> paths = new ArrayList<>(parent.length);
            for (int c = 0; c < parent.length; c++) {
                paths.add(new CallPath(c, parent[c], region[c], 0));
            }
            List<SystemLocation> system = new ArrayList<>(locations.size());
            for (int i = 0; i < locations.size(); i++) {
                Location l = locations.get(i);
                system.add(new SystemLocation(i, l.rank(), l.thread(), l.name(), List.of()));
            }
            return new SeverityCube(MetricTree.ALL, RegionTable.of(defs).regions(), paths, system, Map.of());
        }
    }

    /** One location as the stage takes it: its OpenMP records and its column as the wait-state stage books it. */
    record Member(int location, ThreadRecords threads, StreamedCube.Column column) implements Serializable {
        static Member of(int location, ThreadRecords threads, LocationOutcome outcome, Teams teams) {
            TraceDefinitions defs = TaskDefinitions.of(teams.trace(), teams.lenient());
            SeverityCube col = teams.cube(defs, List.of(defs.location(location)));
            WaitStates.bookLocation(col, outcome, teams.tps(), teams.timeMasks());
            return new Member(location, threads, StreamedCube.Column.of(location, col));
        }
    }

    /**
     * What a group's analysis found besides the cells: the single-machine result's parts ({@link OpenMpAnalysis.Result})
     * and the parallel-region instances without a fork and join of their master, which the single-machine code counts
     * over the whole trace.
     */
    record Summary(int group, boolean hasOpenMp, List<String> problems, int unmatchedInstances)
            implements Serializable {
    }

    /** A group's outcome: its summary, and per location the cells the OpenMP level changed, with their values. */
    record Team(Summary summary, List<StreamedCube.Column> cells) implements Serializable {
    }

    /** Runs the single-machine OpenMP level on one group's threads. */
    static Team analyse(int group, Iterable<Member> in, Teams teams, Plan plan) {
        List<Member> threads = new ArrayList<>();
        in.forEach(threads::add);
        threads.sort(Comparator.comparingInt(Member::location));
        TraceDefinitions defs = TaskDefinitions.of(teams.trace(), teams.lenient());
        int k = threads.size();
        // the group's locations numbered 0..k-1, in location order: a trace of just these threads
        List<Location> locations = new ArrayList<>(k);
        List<ThreadRecords> records = new ArrayList<>(k);
        List<int[]> localToGlobal = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            Member t = threads.get(i);
            Location g = defs.location(t.location());
            locations.add(new Location(i, g.id(), g.name(), g.type(), g.rank(), g.thread(), g.events()));
            records.add(t.threads());
            localToGlobal.add(plan.localToGlobal.get(t.location()));
        }
        TraceDefinitions view = defs.withLocations(locations);
        SeverityCube cube = teams.cube(defs, locations);
        int paths = teams.paths();
        for (int i = 0; i < k; i++) {
            StreamedCube.Column c = threads.get(i).column();
            for (int j = 0; j < c.cell().length; j++) {
                cube.set(c.cell()[j] / paths, c.cell()[j] % paths, i, c.value()[j]);
            }
        }
        SeverityCube before = cube.mutableCopy();
        Replay replay = Replay.threadLevel(view, records, localToGlobal);
        OpenMpAnalysis.Result r = OpenMpAnalysis.addTo(cube, replay, teams.idleThreads());
        List<StreamedCube.Column> cells = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            cells.add(changed(threads.get(i).location(), i, before, cube, paths));
        }
        return new Team(new Summary(group, r.hasOpenMp(), r.problems(),
                replay.teamManagement().unmatchedInstances()), cells);
    }

    /** Location {@code i}'s cells whose value the OpenMP level changed (compared bit for bit), with their values. */
    private static StreamedCube.Column changed(int location, int i, SeverityCube before, SeverityCube after,
                                               int paths) {
        it.unimi.dsi.fastutil.ints.IntArrayList cell = new it.unimi.dsi.fastutil.ints.IntArrayList();
        it.unimi.dsi.fastutil.doubles.DoubleArrayList value = new it.unimi.dsi.fastutil.doubles.DoubleArrayList();
        for (int m = 0; m < MetricTree.COUNT; m++) {
            for (int c = 0; c < paths; c++) {
                double[] row = after.rowOrNull(m, c);
                if (row == null) {
                    continue;
                }
                double[] old = before.rowOrNull(m, c);
                long was = Double.doubleToRawLongBits(old == null ? 0.0 : old[i]);
                if (Double.doubleToRawLongBits(row[i]) != was) {
                    cell.add(m * paths + c);
                    value.add(row[i]);
                }
            }
        }
        return new StreamedCube.Column(location, cell.toIntArray(), value.toDoubleArray());
    }

    /** Sets a location's changed cells into {@code cube} at {@code column} (its index there). */
    static void set(SeverityCube cube, StreamedCube.Column cells, int column, int paths) {
        for (int j = 0; j < cells.cell().length; j++) {
            cube.set(cells.cell()[j] / paths, cells.cell()[j] % paths, column, cells.value()[j]);
        }
    }

    /**
     * The single-machine result from the groups' summaries: the count of instances without a fork and join summed
     * over the trace (the single-machine code states it once, first), then each process's problems in rank order.
     */
    static OpenMpAnalysis.Result result(List<Summary> summaries) {
        List<Summary> sorted = new ArrayList<>(summaries);
        sorted.sort(Comparator.comparingInt(Summary::group));
        boolean any = false;
        long unmatched = 0;
        String unmatchedSentence = null;
        List<String> problems = new ArrayList<>();
        for (Summary s : sorted) {
            any |= s.hasOpenMp();
            List<String> p = s.problems();
            if (s.unmatchedInstances() > 0 && !p.isEmpty()) {
                unmatched += s.unmatchedInstances();
                String count = Integer.toString(s.unmatchedInstances());
                if (p.get(0).startsWith(count + UNMATCHED_AFTER_COUNT)) {
                    unmatchedSentence = p.get(0).substring(count.length());
                    p = p.subList(1, p.size());
                }
            }
            problems.addAll(p);
        }
        if (unmatchedSentence != null) {
            problems.add(0, unmatched + unmatchedSentence);
        }
        return new OpenMpAnalysis.Result(any, List.copyOf(problems));
    }
}
