package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.util.List;
import java.util.Map;

/** Small cubes with hand-chosen values for writer tests. */
final class TestCubes {
    private TestCubes() {
    }

    static List<Metric> metrics() {
        return List.of(
                Metric.time("time", "Time", null, "Total time"),
                Metric.time("mpi_latesender", "Late Sender", "time", "Waiting for a message <in> \"receive\" & co"),
                Metric.time("mpi_latesender_wo", "Late Sender, wrong order", "mpi_latesender", ""),
                Metric.time("mpi_latereceiver", "Late Receiver", "time", "Send waiting"),
                Metric.count("visits", "Visits", null, "Number of visits"),
                Metric.bytes("bytes_sent", "Bytes sent", null, "Bytes sent"));
    }

    static List<Region> regions() {
        return List.of(
                new Region(0, "main", "main", "app.c", 10, 90, Paradigm.USER, RegionRole.FUNCTION),
                new Region(1, "MPI_Recv", "MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT),
                new Region(2, "MPI_Send", "MPI_Send", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT),
                new Region(3, "solve<double>", "_Z5solveIdEvv", "solver.cc", 5, 40, Paradigm.COMPILER, RegionRole.FUNCTION),
                new Region(4, "MPI_Allreduce", "MPI_Allreduce", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ALL));
    }

    /** main -> {MPI_Recv@12, solve -> {MPI_Send, MPI_Allreduce}, MPI_Recv@30}; ids in pre-order. */
    static List<CallPath> preOrderCallTree() {
        return List.of(
                new CallPath(0, -1, 0, 0),
                new CallPath(1, 0, 1, 12),
                new CallPath(2, 0, 3, 0),
                new CallPath(3, 2, 2, 0),
                new CallPath(4, 2, 4, 0),
                new CallPath(5, 0, 1, 30));
    }

    /** 2 ranks with 2 threads each, rank-major. */
    static List<SystemLocation> locations() {
        return List.of(
                new SystemLocation(0, 0, 0, "Master thread"),
                new SystemLocation(1, 0, 1, "OMP thread 1"),
                new SystemLocation(2, 1, 0, "Master thread"),
                new SystemLocation(3, 1, 1, "OMP thread 1"));
    }

    static SeverityCube sample() {
        SeverityCube c = new SeverityCube(metrics(), regions(), preOrderCallTree(), locations(),
                Map.of("Application", "ring & <pong>"));
        int time = c.metricIndex("time");
        // exclusive times: values that are not short decimals, a negative one (as in a difference cube)
        for (int p = 0; p < 6; p++) {
            for (int l = 0; l < 4; l++) {
                c.set(time, p, l, 0.1 * (p + 1) + 1e-7 * l + Math.PI * 1e-12);
            }
        }
        c.set(time, 4, 3, -2.5e-3);
        int ls = c.metricIndex("mpi_latesender");
        c.set(ls, 1, 2, 0.0375);
        c.set(ls, 5, 0, 1.0 / 3.0);
        c.set(c.metricIndex("mpi_latesender_wo"), 5, 0, 0.125);
        int visits = c.metricIndex("visits");
        for (int p = 0; p < 6; p++) {
            for (int l = 0; l < 4; l++) {
                c.set(visits, p, l, p == 0 ? 1 : 1000 * p + l);
            }
        }
        c.set(c.metricIndex("bytes_sent"), 3, 1, 4_503_599_627_370_497.0); // 2^52 + 1, exact in a double
        // mpi_latereceiver stays all zero: the file must still define it, with no rows
        return c.freeze();
    }
}
