package dev.straggler.cli.report;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Cubes with hand-chosen values for report tests. */
final class ReportCubes {
    private ReportCubes() {
    }

    /**
     * time (10 s in all) > mpi (6 s) > mpi_latesender (2 s); visits. Call tree main -> {MPI_Recv, work}; 4 ranks.
     * The region name contains markup that must not escape its JSON block.
     */
    static SeverityCube small() {
        List<Metric> metrics = List.of(
                Metric.time("time", "Time", null, "Total time"),
                Metric.time("mpi", "MPI", "time", "Time in MPI"),
                Metric.time("mpi_latesender", "Late Sender", "mpi", "Waiting for a late sender"),
                Metric.count("visits", "Visits", null, "Number of visits"));
        List<Region> regions = List.of(
                new Region(0, "main", "main", "app.c", 1, 50, Paradigm.USER, RegionRole.FUNCTION),
                new Region(1, "MPI_Recv", "MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT),
                new Region(2, "work</script><b>x</b>", "work", "app.c", 10, 20, Paradigm.USER, RegionRole.FUNCTION));
        List<CallPath> paths = List.of(new CallPath(0, -1, 0, 0), new CallPath(1, 0, 1, 14), new CallPath(2, 0, 2, 0));
        List<SystemLocation> locs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            locs.add(new SystemLocation(r, r, 0, "Master thread"));
        }
        SeverityCube c = new SeverityCube(metrics, regions, paths, locs, Map.of());
        int time = 0, mpi = 1, ls = 2, visits = 3;
        double[] mainT = {0.25, 0.25, 0.25, 0.25};   // 1 s
        double[] recvT = {0.5, 1.0, 1.5, 3.0};       // 6 s, all MPI
        double[] workT = {1.0, 1.0, 0.5, 0.5};       // 3 s
        double[] lsV = {0.0, 0.5, 0.5, 1.0};         // 2 s
        for (int l = 0; l < 4; l++) {
            c.set(time, 0, l, mainT[l]);
            c.set(time, 1, l, recvT[l]);
            c.set(time, 2, l, workT[l]);
            c.set(mpi, 1, l, recvT[l]);
            c.set(ls, 1, l, lsV[l]);
            c.set(visits, 0, l, 1);
            c.set(visits, 1, l, 100 + l);
            c.set(visits, 2, l, 10);
        }
        return c.freeze();
    }

    /** Call paths of {@link #rootCauses()}: main/{solve/{MPI_Recv, work}, MPI_Barrier}. */
    static final int MAIN = 0, SOLVE = 1, RECV = 2, WORK = 3, BARRIER = 4;

    /**
     * A cube with Scalasca's metric tree, 4 ranks and hand-chosen root causes:
     * <ul>
     *   <li>Late Sender: 4 s of waiting in solve/MPI_Recv on ranks 1, 2, 3 (1 + 1 + 2 s), of it 0.5 s indirect
     *   (rank 3) and 1 s propagating (rank 1). Its delays: solve/work on ranks 2 (1.5 s short-term + 0.5 s
     *   long-term) and 3 (1 s short-term) = 3 s, 75 % of the waiting; MPI_Recv itself on rank 1 (0.5 s short-term,
     *   12.5 %) with a long-term rounding residue of −1e-18 s;</li>
     *   <li>Wait at Barrier: 0.6 s in MPI_Barrier on ranks 0 and 1, caused by work on rank 3 with a delay of
     *   0.6 s + 1e-10 s (rounding: it explains "more" than all of the waiting);</li>
     *   <li>critical path 4.5 s: work on rank 2 (4 s) and MPI_Recv on rank 3 (0.5 s). Time outside wait states:
     *   work 3, 2, 4, 3 s (average 3 s), MPI_Recv 0.5 s on every rank, MPI_Barrier 0.1 s per rank; work's
     *   critical-path imbalance 4 − 3 = 1 s; imbalance impact 4 s on work (ranks 0, 1, 3) and 0.1 s on MPI_Recv.</li>
     * </ul>
     */
    static SeverityCube rootCauses() {
        List<Region> regions = List.of(
                new Region(0, "main", "main", "app.c", 1, 90, Paradigm.USER, RegionRole.FUNCTION),
                new Region(1, "solve", "solve", "app.c", 10, 40, Paradigm.USER, RegionRole.FUNCTION),
                new Region(2, "MPI_Recv", "MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT),
                new Region(3, "work", "work", "app.c", 50, 60, Paradigm.USER, RegionRole.FUNCTION),
                new Region(4, "MPI_Barrier", "MPI_Barrier", "MPI", 0, 0, Paradigm.MPI, RegionRole.BARRIER));
        List<CallPath> paths = List.of(new CallPath(MAIN, -1, 0, 0), new CallPath(SOLVE, MAIN, 1, 0),
                new CallPath(RECV, SOLVE, 2, 0), new CallPath(WORK, SOLVE, 3, 0), new CallPath(BARRIER, MAIN, 4, 0));
        List<SystemLocation> locs = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            locs.add(new SystemLocation(r, r, 0, "Master thread"));
        }
        SeverityCube c = new SeverityCube(MetricTree.ALL, regions, paths, locs, Map.of());
        row(c, MetricTree.TIME, MAIN, 0.1, 0.1, 0.1, 0.1);
        row(c, MetricTree.TIME, RECV, 0.5, 1.5, 1.5, 2.5);
        row(c, MetricTree.TIME, WORK, 3, 2, 4, 3);
        row(c, MetricTree.TIME, BARRIER, 0.4, 0.4, 0.1, 0.1);
        row(c, MetricTree.MPI_LATESENDER, RECV, 0, 1, 1, 2);
        row(c, MetricTree.MPI_WAIT_INDIRECT_LATESENDER, RECV, 0, 0, 0, 0.5);
        row(c, MetricTree.MPI_WAIT_PROPAGATING_LS, RECV, 0, 1, 0, 0);
        row(c, MetricTree.DELAY_LATESENDER, WORK, 0, 0, 1.5, 1);
        row(c, MetricTree.DELAY_LATESENDER_LONGTERM, WORK, 0, 0, 0.5, 0);
        row(c, MetricTree.DELAY_LATESENDER, RECV, 0, 0.5, 0, 0);
        row(c, MetricTree.DELAY_LATESENDER_LONGTERM, RECV, 0, -1e-18, 0, 0);
        row(c, MetricTree.MPI_BARRIER_WAIT, BARRIER, 0.3, 0.3, 0, 0);
        row(c, MetricTree.DELAY_BARRIER, WORK, 0, 0, 0, 0.6 + 1e-10);
        row(c, MetricTree.CRITICAL_PATH, WORK, 0, 0, 4, 0);
        row(c, MetricTree.CRITICAL_PATH, RECV, 0, 0, 0, 0.5);
        row(c, MetricTree.CRITICAL_PATH_IMBALANCE, WORK, 0, 0, 1, 0);
        row(c, MetricTree.CRITICAL_IMBALANCE_IMPACT, WORK, 1, 2, 0, 1);
        row(c, MetricTree.CRITICAL_IMBALANCE_IMPACT, RECV, 0, 0, 0.1, 0);
        return c.freeze();
    }

    /**
     * {@link #rootCauses()} with 5 s of critical imbalance impact on MPI_Recv (rank 2, instead of 0.1 s), which then
     * holds the largest
     * impact although it has no critical-path imbalance (0.5 s on the path, as much as its average per rank) - as
     * MPI_Init on NPB MG: the impact compares the path with each waiting rank, the imbalance with the average.
     */
    static SeverityCube impactWithoutCriticalPathImbalance() {
        SeverityCube c = copy(rootCauses(), MetricTree.COUNT);
        c.set(MetricTree.CRITICAL_IMBALANCE_IMPACT, RECV, 2, 5);
        return c.freeze();
    }

    /** An unfrozen copy of the first {@code metrics} metrics of a cube, without its attributes. */
    private static SeverityCube copy(SeverityCube full, int metrics) {
        SeverityCube c = new SeverityCube(full.metrics(), full.regions(), full.callPaths(), full.locations(), Map.of());
        for (int m = 0; m < metrics; m++) {
            for (int p = 0; p < full.callPaths().size(); p++) {
                for (int l = 0; l < full.locations().size(); l++) {
                    c.set(m, p, l, full.get(m, p, l));
                }
            }
        }
        return c;
    }

    /** {@link #rootCauses()} without any root-cause value: an analysis run with --no-root-causes. */
    static SeverityCube withoutRootCauses() {
        return copy(rootCauses(), MetricTree.FIRST_ROOT_CAUSE).freeze();
    }

    private static void row(SeverityCube c, int metric, int path, double... perRank) {
        for (int l = 0; l < perRank.length; l++) {
            c.set(metric, path, l, perRank[l]);
        }
    }
}
