package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds small cubes for tests: call paths are given as "main/transpose/MPI_Alltoall" strings, regions are
 * created on first use (in the order of the {@code regionOrder} list when given, so that two cubes can number the
 * same regions differently), and values are set per rank.
 */
final class TestCubes {
    static final List<Metric> METRICS = List.of(
            Metric.time("time", "Time", null, "total time"),
            Metric.time("mpi", "MPI", "time", "time in MPI"),
            Metric.time("mpi_collective", "Collective", "mpi", "collective communication"),
            Metric.time("mpi_wait_nxn", "Wait at N x N", "mpi_collective", "waiting in all-to-all operations"),
            Metric.time("mpi_point2point", "Point-to-point", "mpi", "point-to-point communication"),
            Metric.time("mpi_latesender", "Late Sender", "mpi_point2point", "receiver waits for the sender"),
            Metric.count("visits", "Visits", null, "number of calls"));

    private final List<Metric> metrics;
    private final List<Region> regions = new ArrayList<>();
    private final Map<String, Integer> regionIds = new HashMap<>();
    private final List<CallPath> paths = new ArrayList<>();
    private final Map<String, Integer> pathIds = new LinkedHashMap<>();
    private final int ranks;
    private final Map<String, String> attributes = new LinkedHashMap<>();
    private final List<double[]> values = new ArrayList<>(); // {metric, path, rank, value}

    /** Directory of the non-MPI regions' source file ("" for a bare file name). */
    private final String dir;

    TestCubes(int ranks, List<Metric> metrics, List<String> regionOrder) {
        this(ranks, metrics, regionOrder, "");
    }

    /** With the program's source file in directory {@code dir}, as compilers record absolute paths. */
    TestCubes(int ranks, List<Metric> metrics, List<String> regionOrder, String dir) {
        this.ranks = ranks;
        this.metrics = metrics;
        this.dir = dir;
        for (String r : regionOrder) {
            region(r);
        }
    }

    TestCubes(int ranks) {
        this(ranks, METRICS, List.of());
    }

    TestCubes attr(String k, String v) {
        attributes.put(k, v);
        return this;
    }

    private int region(String name) {
        return regionIds.computeIfAbsent(name, n -> {
            int id = regions.size();
            boolean mpi = n.startsWith("MPI_");
            regions.add(new Region(id, n, n, mpi ? "MPI" : dir.isEmpty() ? "app.c" : dir + "/app.c", 0, 0,
                    mpi ? Paradigm.MPI : Paradigm.USER,
                    RegionRole.FUNCTION));
            return id;
        });
    }

    int path(String path) {
        Integer id = pathIds.get(path);
        if (id != null) {
            return id;
        }
        int cut = path.lastIndexOf('/');
        int parent = cut < 0 ? -1 : path(path.substring(0, cut));
        int nid = paths.size();
        paths.add(new CallPath(nid, parent, region(path.substring(cut + 1)), 0));
        pathIds.put(path, nid);
        return nid;
    }

    /** Sets the value of a metric on a call path for every rank (values[r] for rank r). */
    TestCubes set(String metric, String path, double... perRank) {
        int m = indexOf(metric);
        int p = path(path);
        for (int r = 0; r < perRank.length; r++) {
            values.add(new double[]{m, p, r, perRank[r]});
        }
        return this;
    }

    /** Sets the same value on every rank. */
    TestCubes all(String metric, String path, double v) {
        double[] a = new double[ranks];
        java.util.Arrays.fill(a, v);
        return set(metric, path, a);
    }

    private int indexOf(String metric) {
        for (int i = 0; i < metrics.size(); i++) {
            if (metrics.get(i).uniqueName().equals(metric)) {
                return i;
            }
        }
        throw new IllegalArgumentException(metric);
    }

    SeverityCube build() {
        List<SystemLocation> locs = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            locs.add(new SystemLocation(r, r, 0, "rank " + r));
        }
        SeverityCube c = new SeverityCube(metrics, regions, paths, locs, attributes);
        for (double[] v : values) {
            c.set((int) v[0], (int) v[1], (int) v[2], v[3]);
        }
        return c.freeze();
    }

    /** The value of (metric, call path given as names, location) in a cube, 0 when the path does not exist. */
    static double value(SeverityCube c, String metric, String path, int location) {
        int m = c.metricIndex(metric);
        int p = find(c, path);
        return m < 0 || p < 0 ? 0 : c.get(m, p, location);
    }

    static int find(SeverityCube c, String path) {
        for (int i = 0; i < c.callPaths().size(); i++) {
            if (String.join("/", c.pathNames(i)).equals(path)) {
                return i;
            }
        }
        return -1;
    }
}
