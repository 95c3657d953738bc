package dev.straggler.cli.report;

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
}
