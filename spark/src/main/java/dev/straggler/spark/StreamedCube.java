package dev.straggler.spark;

import dev.straggler.patterns.ComputationalImbalance;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.patterns.cubex.CubexWriter;
import dev.straggler.patterns.rootcause.CriticalPathTimes;
import dev.straggler.patterns.rootcause.RootCauseMetric;
import dev.straggler.patterns.rootcause.RootCauseMetrics;
import dev.straggler.patterns.rootcause.RootCauses;
import dev.straggler.patterns.waitstate.LocationOutcome;
import dev.straggler.patterns.waitstate.WaitStates;
import dev.straggler.replay.RegionTable;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.Int2DoubleMap;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The severity cube written as a CUBE4 file without ever being whole in one place: each location's severities
 * stay on the executor that found them and become that location's column of the cube; a shuffle turns the columns
 * into rows (one per metric and call path, every location's value in location order); executor tasks write the
 * rows' bytes into files beside the output; the driver writes the metadata and copies the files into the archive.
 *
 * <p>Every value is the single-machine engine's double. What the cube's columns need from all locations is formed
 * as small per-call-path sums, each added over the locations in location order as the single-machine code adds a
 * row ({@link #foldInLocationOrder}): the critical-path impact's sums ({@code CriticalPathImpact.compute}), the
 * critical-path imbalance's call-path times ({@link CriticalPathTimes}), the computation time and visitors of the
 * imbalance heuristic ({@link ComputationalImbalance}). Each location's column is then formed by the single-machine
 * code itself on a cube holding that one location ({@link WaitStates#bookLocation}, {@link RootCauseMetrics#addTo},
 * {@link ComputationalImbalance#book}), and turned call-path inclusive as the writer does
 * ({@link CubexWriter.Layout#inclusive}).
 *
 * <p>The driver keeps per (metric, call path) its sum over locations, per (metric, location) its sum over call
 * paths, and the rows of {@code delay} and {@code delay_mpi} (the terminal report names the ranks holding a call
 * path's delay): what the terminal report reads ({@link SummaryCube}).
 */
final class StreamedCube {
    private StreamedCube() {
    }

    /** The metrics whose per-call-path sums the critical-path imbalance needs (before the heuristic's). */
    private static final int[] CRITICAL_PATH_SUMS;

    static {
        List<Integer> m = new ArrayList<>();
        m.add(MetricTree.CRITICAL_PATH);
        m.add(MetricTree.TIME);
        for (String w : CriticalPathTimes.WAITING) {
            m.add(MetricTree.indexOf(w));
        }
        CRITICAL_PATH_SUMS = m.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * What every executor needs to form a location's column and the file's rows.
     *
     * @param parent   per call path of the unified tree, its parent
     * @param region   per call path, its region
     * @param inFocus  per call path, whether the default focus covers it (the report's POP line reads sums over
     *                 those call paths only)
     * @param rowParts the number of row partitions
     */
    record Shape(String trace, boolean lenient, int locations, int[] parent, int[] region, double tps,
                 long[] timeMasks, CubexWriter.Layout layout, int processes, boolean[] master, boolean[] inFocus,
                 int rowParts, boolean[] parallelRegion)
            implements Serializable {
        int paths() {
            return parent.length;
        }

        /** A cube holding only location {@code l}, as its column 0. */
        SeverityCube column(int l) {
            TraceDefinitions defs = TaskDefinitions.of(trace, lenient);
            List<CallPath> paths = new ArrayList<>(parent.length);
            for (int c = 0; c < parent.length; c++) {
                paths.add(new CallPath(c, parent[c], region[c], 0));
            }
            Location loc = defs.location(l);
            SeverityCube col = new SeverityCube(MetricTree.ALL, RegionTable.of(defs).regions(), paths,
                    List.of(new SystemLocation(0, loc.rank(), loc.thread(), loc.name(), List.of())), Map.of());
            // the metrics the run leaves out, as the driver's cube does (the file's metric order lacks them): the
            // derived metrics depend on it (without OpenMP, delay is delay_mpi alone)
            boolean[] written = new boolean[MetricTree.COUNT];
            for (int m : layout.metricOrder()) {
                written[m] = true;
            }
            for (int m = 0; m < written.length; m++) {
                if (!written[m]) {
                    col.omit(m);
                }
            }
            return col;
        }

        /** The row key of (metric, call path): the metric's place in the file, then the row's position. */
        long key(int fileIndex, int path) {
            return (long) fileIndex * paths() + layout.inclusivePosition()[path];
        }

        int rowPartition(long key) {
            return (int) (key * rowParts / ((long) MetricTree.COUNT * paths()));
        }
    }

    /** One location's non-zero values: cells {@code metric × paths + call path}, ascending. */
    record Column(int location, int[] cell, double[] value) implements Serializable {
        static Column of(int location, SeverityCube col) {
            int paths = col.callPaths().size();
            int[] cell = new int[16];
            double[] value = new double[16];
            int k = 0;
            for (int m = 0; m < MetricTree.COUNT; m++) {
                for (int c = 0; c < paths; c++) {
                    double[] row = col.rowOrNull(m, c);
                    // a -0.0 is kept as it is: only a value that is +0.0 is the cube's "nothing here"
                    if (row != null && Double.doubleToRawLongBits(row[0]) != 0) {
                        if (k == cell.length) {
                            cell = Arrays.copyOf(cell, 2 * k);
                            value = Arrays.copyOf(value, 2 * k);
                        }
                        cell[k] = m * paths + c;
                        value[k++] = row[0];
                    }
                }
            }
            return new Column(location, Arrays.copyOf(cell, k), Arrays.copyOf(value, k));
        }

        SeverityCube cube(Shape shape) {
            SeverityCube col = shape.column(location);
            int paths = shape.paths();
            for (int i = 0; i < cell.length; i++) {
                col.set(cell[i] / paths, cell[i] % paths, 0, value[i]);
            }
            return col;
        }

        double get(int metric, int path, int paths) {
            int i = Arrays.binarySearch(cell, metric * paths + path);
            return i < 0 ? 0 : value[i];
        }
    }

    /** The global sums each location's column needs before it is final. */
    /**
     * @param remapperSkipsImbalance the run visited POSIX threads calls, so that Scalasca's remapping adds no
     *                               imbalance heuristic ({@link dev.straggler.patterns.PthreadApi#remapperSkipsThreadMetrics})
     */
    record Finish(double[] criticalPathImbalance, double[] computation, int[] visitors, boolean remapperSkipsImbalance)
            implements Serializable {
    }

    /** A location's sums over call paths and which of its values could go in an integer column, per metric. */
    record LocationSums(int location, double[] perMetric, double[] perMetricInFocus, boolean[] integral,
                        boolean ranInParallelRegion)
            implements Serializable {
    }

    /** What a row task found of one row (metric, call path): its sum over locations and whether it was written. */
    record RowInfo(int metric, int path, double sum, boolean written, double[] delay) implements Serializable {
    }

    /**
     * What the driver keeps: per metric and call path the sum over locations; per metric and location the sum over
     * call paths (null for a metric without a value anywhere), and over the call paths of the default focus (only for
     * the metrics of the POP line, null for the others); per call path with a delay, the rows of {@code delay} and
     * {@code delay_mpi} ({@link #delayKey}).
     */
    record Summary(double[][] sums, double[][] perLocation, double[][] perLocationInFocus,
                   Map<Integer, double[]> delayRows, boolean[] ranInParallelRegion) {
    }

    /**
     * The key of a row the driver keeps in {@link Summary#delayRows}: of {@code delay} or of {@code delay_mpi} (the
     * report names the ranks holding a call path's delay, of MPI wait states alone where the run has no OpenMP).
     */
    static int delayKey(int metric, int path, int paths) {
        return (metric == MetricTree.DELAY ? 0 : paths) + path;
    }

    /**
     * Forms the columns, writes the cube to {@code out} and returns the sums the report reads.
     *
     * @param outcomes per location its wait-state outcome (with severities), partitioned by {@code byLocation}
     * @param slices   the root-cause stage's slices (before the critical-path impact), or null when the root causes
     *                 were not computed
     * @param openMp   per location the cells the OpenMP level changed, with their values ({@link OpenMpStage}), or
     *                 null for a trace without that level
     * @param shapeCube the cube's metric tree, call tree, system tree and attributes, without values
     */
    static Summary write(JavaSparkContext jsc, JavaPairRDD<Integer, LocationOutcome> outcomes,
                         JavaRDD<RootCauseStage.Slice> slices, JavaPairRDD<Integer, Column> openMp,
                         LocationPartitioner byLocation, Shape shape, SeverityCube shapeCube, Path out)
            throws IOException {
        Broadcast<Shape> shared = jsc.broadcast(shape);
        int paths = shape.paths();
        int parts = byLocation.numPartitions();
        boolean rootCauses = slices != null;
        JavaPairRDD<Integer, Int2DoubleOpenHashMap[]> impacted = null;
        if (rootCauses) {
            impacted = impact(slices, paths, parts).mapPartitionsToPair(it -> {
                List<Tuple2<Integer, Int2DoubleOpenHashMap[]>> o = new ArrayList<>();
                it.forEachRemaining(s -> o.add(new Tuple2<>(s.location(), s.severities())));
                return o.iterator();
            }, true);
        }
        // each location's column as the single-machine code books it: wait states, visit counts, the OpenMP level,
        // root causes with their derived metrics (the critical-path imbalance still to be made global)
        JavaRDD<Column> columns;
        if (rootCauses && openMp != null) {
            columns = outcomes.cogroup(impacted, openMp, byLocation).mapPartitions(it -> {
                Shape sh = shared.value();
                List<Column> o = new ArrayList<>();
                while (it.hasNext()) {
                    var t = it.next();
                    LocationOutcome oc = t._2()._1().iterator().next();
                    Iterator<Int2DoubleOpenHashMap[]> rc = t._2()._2().iterator();
                    Iterator<Column> omp = t._2()._3().iterator();
                    o.add(column(sh, oc, omp.hasNext() ? omp.next() : null, rc.hasNext() ? rc.next() : null, true));
                }
                o.sort(Comparator.comparingInt(Column::location));
                return o.iterator();
            }, true);
        } else if (rootCauses) {
            columns = outcomes.cogroup(impacted, byLocation).mapPartitions(it -> {
                Shape sh = shared.value();
                List<Column> o = new ArrayList<>();
                while (it.hasNext()) {
                    var t = it.next();
                    LocationOutcome oc = t._2()._1().iterator().next();
                    Iterator<Int2DoubleOpenHashMap[]> rc = t._2()._2().iterator();
                    o.add(column(sh, oc, null, rc.hasNext() ? rc.next() : null, true));
                }
                o.sort(Comparator.comparingInt(Column::location));
                return o.iterator();
            }, true);
        } else if (openMp != null) {
            columns = outcomes.cogroup(openMp, byLocation).mapPartitions(it -> {
                Shape sh = shared.value();
                List<Column> o = new ArrayList<>();
                while (it.hasNext()) {
                    var t = it.next();
                    LocationOutcome oc = t._2()._1().iterator().next();
                    Iterator<Column> omp = t._2()._2().iterator();
                    o.add(column(sh, oc, omp.hasNext() ? omp.next() : null, null, false));
                }
                o.sort(Comparator.comparingInt(Column::location));
                return o.iterator();
            }, true);
        } else {
            columns = outcomes.mapPartitions(it -> {
                Shape sh = shared.value();
                List<Column> o = new ArrayList<>();
                it.forEachRemaining(t -> o.add(column(sh, t._2(), null, null, false)));
                o.sort(Comparator.comparingInt(Column::location));
                return o.iterator();
            }, true);
        }
        columns = columns.persist(StorageLevel.MEMORY_AND_DISK());
        try {
            Finish finish = finish(columns, shape, rootCauses, parts);
            Broadcast<Finish> fin = jsc.broadcast(finish);
            JavaRDD<Column> finals = columns.map(c -> finalColumn(shared.value(), fin.value(), c, rootCauses))
                    .persist(StorageLevel.MEMORY_AND_DISK());
            try {
                return rows(jsc, columns, finals, shared, shapeCube, out);
            } finally {
                finals.unpersist(false);
            }
        } finally {
            columns.unpersist(false);
        }
    }

    private static Column column(Shape sh, LocationOutcome o, Column openMp, Int2DoubleOpenHashMap[] rc,
                                 boolean rootCauses) {
        SeverityCube col = sh.column(o.location());
        WaitStates.bookLocation(col, o, sh.tps(), sh.timeMasks());
        if (openMp != null) {
            // the OpenMP level's values, formed with the other threads of the location's process (after the visit
            // counts and before the root causes, as on one machine)
            OpenMpStage.set(col, openMp, 0, sh.paths());
        }
        if (rootCauses) {
            // adds the location's root causes and derives the metrics of the remapped hierarchy from its own values;
            // its critical-path imbalance, which needs sums over all locations, is replaced in finalColumn
            RootCauseMetrics.addTo(col, new RootCauses.Result(new Int2DoubleOpenHashMap[][] {rc}));
        }
        return Column.of(o.location(), col);
    }

    /** The per-call-path sums over all locations that complete the columns. */
    private static Finish finish(JavaRDD<Column> columns, Shape shape, boolean rootCauses, int parts) {
        int paths = shape.paths();
        int[] summed = rootCauses ? CRITICAL_PATH_SUMS : new int[0];
        int width = (summed.length + 1) * paths;
        // per call path: each metric's sum, then the computation time; visitors are counted exactly apart
        double[] sums = foldInLocationOrder(columns.map(c -> {
            double[] v = new double[width];
            for (int k = 0; k < summed.length; k++) {
                for (int p = 0; p < paths; p++) {
                    v[k * paths + p] = c.get(summed[k], p, paths);
                }
            }
            for (int p = 0; p < paths; p++) {
                v[summed.length * paths + p] = c.get(MetricTree.COMP, p, paths);
            }
            return new Tuple2<>(c.location(), v);
        }), width, parts);
        int[] visitors = columns.map(c -> {
            int[] v = new int[paths];
            for (int p = 0; p < paths; p++) {
                if ((long) c.get(MetricTree.VISITS, p, paths) != 0) {
                    v[p] = 1;
                }
            }
            return v;
        }).fold(new int[paths], (a, b) -> {
            int[] s = a.clone();
            for (int p = 0; p < s.length; p++) {
                s[p] += b[p];
            }
            return s;
        });
        double[] computation = Arrays.copyOfRange(sums, summed.length * paths, width);
        double[] factor = null;
        if (rootCauses) {
            factor = criticalPathImbalanceFactors(sums, shape);
        }
        List<dev.straggler.trace.Region> regions = dev.straggler.replay.RegionTable.of(
                TaskDefinitions.of(shape.trace(), shape.lenient())).regions();
        boolean skips = dev.straggler.patterns.PthreadApi.remapperSkipsThreadMetrics(regions, shape.region(),
                p -> visitors[p] > 0);
        return new Finish(factor, computation, visitors, skips);
    }

    /**
     * Per call path, the factor of {@code RootCauseMetrics}: {@code max(0, cp_incl − busy_incl / locations) /
     * cp_incl}, NaN where the single-machine code sets nothing (no time on the critical path, or a factor of 0).
     * The inclusive sums are {@link CriticalPathTimes#of}'s, from the same sums over locations in the same order.
     */
    private static double[] criticalPathImbalanceFactors(double[] sums, Shape shape) {
        int paths = shape.paths();
        double[] cpIncl = new double[paths];
        double[] busyIncl = new double[paths];
        for (int c = 0; c < paths; c++) {
            double cp = sums[c];
            double busy = sums[paths + c];
            for (int k = 2; k < CRITICAL_PATH_SUMS.length; k++) {
                busy -= sums[k * paths + c];
            }
            for (int p = c; p >= 0; p = shape.parent()[p]) {
                cpIncl[p] += cp;
                busyIncl[p] += busy;
            }
        }
        double[] factor = new double[paths];
        for (int c = 0; c < paths; c++) {
            factor[c] = Double.NaN;
            if (!(cpIncl[c] > 0)) {
                continue;
            }
            double f = Math.max(0, cpIncl[c] - busyIncl[c] / shape.locations()) / cpIncl[c];
            if (f != 0) {
                factor[c] = f;
            }
        }
        return factor;
    }

    /** A location's column made final: the global critical-path imbalance and the imbalance heuristic. */
    private static Column finalColumn(Shape sh, Finish f, Column c, boolean rootCauses) {
        SeverityCube col = c.cube(sh);
        int paths = sh.paths();
        if (rootCauses) {
            for (int p = 0; p < paths; p++) {
                double cp = col.get(MetricTree.CRITICAL_PATH, p, 0);
                boolean set = !Double.isNaN(f.criticalPathImbalance()[p]) && cp != 0;
                col.set(MetricTree.CRITICAL_PATH_IMBALANCE, p, 0, set ? f.criticalPathImbalance()[p] * cp : 0);
            }
        }
        if (f.remapperSkipsImbalance()) {
            return Column.of(c.location(), col);
        }
        ComputationalImbalance.Metrics into = ComputationalImbalance.Metrics.of(col);
        // the heuristic's OpenMP branch applies where the cube has OpenMP metrics: a run with OpenMP regions
        boolean openMp = col.regions().stream().anyMatch(r -> r.paradigm() == dev.straggler.trace.Paradigm.OPENMP);
        boolean[] parallel = openMp ? ComputationalImbalance.insideParallelRegions(col) : new boolean[paths];
        for (int p = 0; p < paths; p++) {
            ComputationalImbalance.book(col, into, p, 0, col.get(MetricTree.COMP, p, 0),
                    (long) col.get(MetricTree.VISITS, p, 0) != 0, sh.master()[c.location()], f.computation()[p],
                    sh.processes(), f.visitors()[p], sh.locations(), openMp, parallel[p]);
        }
        return Column.of(c.location(), col);
    }

    // --- the critical-path impact, in passes over the locations ----------------------------------------------

    /**
     * The slices with the critical-path impact booked: {@code CriticalPathImpact.compute}'s arithmetic, its sums
     * over locations formed in location order by {@link #foldInLocationOrder} instead of on one machine.
     */
    private static JavaRDD<RootCauseStage.Slice> impact(JavaRDD<RootCauseStage.Slice> slices, int paths, int parts) {
        int cp = RootCauseMetric.CRITICAL_PATH.ordinal();
        double[] gcpath = foldInLocationOrder(slices.map(s -> {
            double[] v = new double[paths];
            for (Int2DoubleMap.Entry e : s.severities()[cp].int2DoubleEntrySet()) {
                v[e.getIntKey()] += e.getDoubleValue();
            }
            return new Tuple2<>(s.location(), v);
        }), paths, parts);
        double gcplenSum = 0;
        for (double v : gcpath) {
            gcplenSum += v;
        }
        double gcplen = gcplenSum;
        double[] both = foldInLocationOrder(slices.map(s -> {
            double[] lt = s.localTimes();
            double[] v = new double[2 * paths];
            // critical-path imbalance impact (Boehme's thesis, p. 83 f.)
            double lplen = 0;
            for (double x : lt) {
                lplen += x;
            }
            double aggrWaitT = gcplen - lplen;
            double aggrExcessT = 0;
            double[] localImbalance = new double[paths];
            for (int c = 0; c < paths; c++) {
                localImbalance[c] = Math.max(gcpath[c] - lt[c], 0.0);
                aggrExcessT += localImbalance[c];
            }
            double scaling = aggrWaitT / aggrExcessT;
            for (int c = 0; c < paths; c++) {
                v[c] = localImbalance[c] * scaling;
            }
            // inter-partition headroom
            double lp = 0;
            double[] hr = gcpath.clone();
            for (int c = 0; c < paths; c++) {
                if (lt[c] > 0.0) {
                    lp += lt[c] + (hr[c] - Math.min(lt[c], hr[c]));
                    hr[c] = 0.0;
                }
            }
            double lhrlen = 0;
            for (double x : hr) {
                lhrlen += x;
            }
            double hrf = (gcplen - lp) / lhrlen;
            for (int c = 0; c < paths; c++) {
                v[paths + c] = hr[c] * hrf;
            }
            return new Tuple2<>(s.location(), v);
        }), 2 * paths, parts);
        double[] globalImbalance = Arrays.copyOfRange(both, 0, paths);
        double[] phr = Arrays.copyOfRange(both, paths, 2 * paths);
        return slices.mapPartitions(it -> {
            List<RootCauseStage.Slice> out = new ArrayList<>();
            it.forEachRemaining(s -> out.add(bookImpact(s, paths, gcpath, globalImbalance, phr)));
            return out.iterator();
        }, true);
    }

    private static RootCauseStage.Slice bookImpact(RootCauseStage.Slice s, int paths, double[] gcpath,
                                                   double[] globalImbalance, double[] phr) {
        Int2DoubleOpenHashMap[] sev = new Int2DoubleOpenHashMap[s.severities().length];
        for (int m = 0; m < sev.length; m++) {
            sev[m] = s.severities()[m].clone();
        }
        RootCauses.bookImpact(sev, s.localTimes(), paths, gcpath, globalImbalance, phr);
        return new RootCauseStage.Slice(s.location(), sev, null, null, null);
    }

    // --- sums over locations in location order ---------------------------------------------------------------

    /** A run of consecutive locations' vectors, cut to one chunk of their indices. */
    record FoldBlock(int first, double[][] values) implements Serializable {
    }

    /**
     * Per index {@code k < width}, the locations' {@code vector[k]} added in location order, starting from 0 — the
     * order in which the single-machine code adds up a row of the cube. Each index is a sum of its own, so the
     * indices are spread over tasks (chunks of them), while each index's additions stay in order. The vectors come
     * partitioned in location ranges, in location order within a partition.
     */
    static double[] foldInLocationOrder(JavaRDD<Tuple2<Integer, double[]>> vectors, int width, int parts) {
        if (width == 0) {
            return new double[0];
        }
        int chunks = Math.max(1, Math.min(parts, width));
        int size = (width + chunks - 1) / chunks;
        List<Tuple2<Integer, double[]>> sums = vectors.mapPartitionsToPair(it -> {
            List<Tuple2<Integer, double[]>> in = new ArrayList<>();
            it.forEachRemaining(in::add);
            in.sort(Comparator.comparingInt(Tuple2::_1));
            List<Tuple2<Integer, FoldBlock>> out = new ArrayList<>();
            if (in.isEmpty()) {
                return out.iterator();
            }
            for (int j = 0; j * size < width; j++) {
                List<double[]> v = new ArrayList<>(in.size());
                for (Tuple2<Integer, double[]> l : in) {
                    double[] part = Arrays.copyOfRange(l._2(), j * size, Math.min(width, (j + 1) * size));
                    // a location adding only +0.0 changes no sum (each starts at +0.0 and never becomes -0.0
                    // by adding): it need not travel; a NaN or a -0.0 does
                    boolean zero = true;
                    for (double x : part) {
                        zero &= Double.doubleToRawLongBits(x) == 0;
                    }
                    if (!zero) {
                        v.add(part);
                    }
                }
                if (!v.isEmpty()) {
                    out.add(new Tuple2<>(j, new FoldBlock(in.get(0)._1(), v.toArray(new double[0][]))));
                }
            }
            return out.iterator();
        }).groupByKey(chunks).mapToPair(g -> {
            List<FoldBlock> blocks = new ArrayList<>();
            g._2().forEach(blocks::add);
            blocks.sort(Comparator.comparingInt(FoldBlock::first));
            double[] acc = null;
            for (FoldBlock b : blocks) {
                for (double[] v : b.values()) {
                    if (acc == null) {
                        acc = new double[v.length];
                    }
                    for (int k = 0; k < v.length; k++) {
                        acc[k] += v[k];
                    }
                }
            }
            return new Tuple2<>(g._1(), acc);
        }).collect();
        double[] out = new double[width];
        for (Tuple2<Integer, double[]> s : sums) {
            if (s._2() != null) {
                System.arraycopy(s._2(), 0, out, s._1() * size, s._2().length);
            }
        }
        return out;
    }

    // --- rows -------------------------------------------------------------------------------------------------

    /** Rows of one row partition from a run of consecutive locations: per row, their exclusive and inclusive values. */
    record RowBlock(int first, int count, long[] keys, double[][] exclusive, double[][] inclusive)
            implements Serializable {
    }

    /** Row partitions: contiguous ranges of row keys, so that each writes a contiguous part of a metric's data. */
    static final class RowPartitioner extends Partitioner {
        private final int parts;

        RowPartitioner(int parts) {
            this.parts = parts;
        }

        @Override
        public int numPartitions() {
            return parts;
        }

        @Override
        public int getPartition(Object key) {
            return (Integer) key;
        }
    }

    private static Summary rows(JavaSparkContext jsc, JavaRDD<Column> columns, JavaRDD<Column> finals,
                                Broadcast<Shape> shared, SeverityCube shapeCube, Path out) throws IOException {
        Shape shape = shared.value();
        int paths = shape.paths();
        int n = shape.locations();
        // per location: sums over call paths (the report's per-rank figures) and which values are integral
        // fetched one partition at a time; a metric's sums are kept only where it has a value (the others are zero at
        // every location), and within the focus only for the metrics of the POP line
        java.util.Set<Integer> popMetrics = new java.util.HashSet<>(List.of(MetricTree.indexOf("execution"),
                MetricTree.COMP, MetricTree.MPI, MetricTree.indexOf("mpi_io")));
        for (String w : dev.straggler.patterns.pop.PopMetrics.WAITING) {
            popMetrics.add(MetricTree.indexOf(w));
        }
        double[][] byLocation = new double[MetricTree.COUNT][];
        double[][] inFocus = new double[MetricTree.COUNT][];
        boolean[] ranInParallelRegion = new boolean[n];
        boolean[] integer = new boolean[MetricTree.COUNT];
        for (int m = 0; m < integer.length; m++) {
            integer[m] = MetricTree.ALL.get(m).integer();
        }
        for (Iterator<LocationSums> it = finals.map(c -> {
            boolean[] focus = shared.value().inFocus();
            boolean[] parallel = shared.value().parallelRegion();
            int visits = MetricTree.indexOf("visits");
            boolean ranParallel = false;
            double[] sum = new double[MetricTree.COUNT];
            double[] focused = new double[MetricTree.COUNT];
            boolean[] integral = new boolean[MetricTree.COUNT];
            Arrays.fill(integral, true);
            // over the call paths in order, as SeverityCube.perLocation adds them
            for (int i = 0; i < c.cell().length; i++) {
                int m = c.cell()[i] / paths;
                sum[m] += c.value()[i];
                if (focus[c.cell()[i] % paths]) {
                    focused[m] += c.value()[i];
                }
                integral[m] &= CubexWriter.integral(c.value()[i]);
                // as SeverityCube.ranInParallelRegion: the location visited an OpenMP parallel region
                ranParallel |= m == visits && parallel[c.cell()[i] % paths] && c.value()[i] > 0;
            }
            return new LocationSums(c.location(), sum, focused, integral, ranParallel);
        }).toLocalIterator(); it.hasNext(); ) {
            LocationSums s = it.next();
            ranInParallelRegion[s.location()] = s.ranInParallelRegion();
            for (int m = 0; m < MetricTree.COUNT; m++) {
                integer[m] &= s.integral()[m];
                if (byLocation[m] == null && Double.doubleToRawLongBits(s.perMetric()[m]) != 0) {
                    byLocation[m] = new double[n];
                }
                if (byLocation[m] != null) {
                    byLocation[m][s.location()] = s.perMetric()[m];
                }
                if (popMetrics.contains(m)) {
                    if (inFocus[m] == null) {
                        inFocus[m] = new double[n];
                    }
                    inFocus[m][s.location()] = s.perMetricInFocus()[m];
                }
            }
        }
        // every final column is kept now: the columns they were made from are no longer needed
        columns.unpersist(false);
        // a metric the file leaves out (omitted: e.g. the OpenMP delay costs Scalasca computes for the POSIX threads
        // of a run without OpenMP) has no file index, and its values are not written anywhere
        int[] fileIndex = new int[MetricTree.COUNT];
        Arrays.fill(fileIndex, -1);
        int[] order = shape.layout().metricOrder();
        for (int k = 0; k < order.length; k++) {
            fileIndex[order[k]] = k;
        }
        Path dir = Files.createTempDirectory(out.toAbsolutePath().getParent(), "." + out.getFileName() + ".rows-");
        try {
            String rowsDir = dir.toString();
            List<RowInfo> infos = finals.mapPartitionsToPair(it -> blocks(shared.value(), fileIndex, it))
                    .partitionBy(new RowPartitioner(shape.rowParts()))
                    .mapPartitionsWithIndex((r, it) -> writeRows(shared.value(), integer, fileIndex, rowsDir, r, it),
                            false)
                    .collect();
            double[][] sums = new double[MetricTree.COUNT][paths];
            Map<Integer, double[]> delay = new java.util.HashMap<>();
            List<List<Integer>> written = new ArrayList<>();
            for (int m = 0; m < MetricTree.COUNT; m++) {
                written.add(new ArrayList<>());
            }
            for (RowInfo i : infos) {
                sums[i.metric()][i.path()] = i.sum();
                if (i.written()) {
                    written.get(i.metric()).add(shape.layout().inclusivePosition()[i.path()]);
                }
                if (i.delay() != null) {
                    delay.put(delayKey(i.metric(), i.path(), paths), i.delay());
                }
            }
            CubexWriter.write(shapeCube, shape.layout(), integer, new CubexWriter.RowSource() {
                @Override
                public int[] positions(int m) {
                    return written.get(m).stream().mapToInt(Integer::intValue).sorted().toArray();
                }

                @Override
                public void writeRows(int m, OutputStream into) throws IOException {
                    for (int r = 0; r < shape.rowParts(); r++) {
                        Path f = rowFile(dir, r, fileIndex[m]);
                        if (Files.exists(f)) {
                            Files.copy(f, into);
                        }
                    }
                }
            }, out);
            return new Summary(sums, byLocation, inFocus, delay, ranInParallelRegion);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static Path rowFile(Path dir, int partition, int fileIndex) {
        return dir.resolve("r" + partition + "-m" + fileIndex + ".bin");
    }

    /** A location partition's columns as row blocks, one per row partition. */
    private static Iterator<Tuple2<Integer, RowBlock>> blocks(Shape sh, int[] fileIndex, Iterator<Column> it) {
        List<Column> cols = new ArrayList<>();
        it.forEachRemaining(cols::add);
        List<Tuple2<Integer, RowBlock>> out = new ArrayList<>();
        if (cols.isEmpty()) {
            return out.iterator();
        }
        cols.sort(Comparator.comparingInt(Column::location));
        int first = cols.get(0).location();
        int count = cols.get(cols.size() - 1).location() - first + 1;
        int paths = sh.paths();
        // per row key: exclusive values then inclusive values of the partition's locations
        Long2ObjectOpenHashMap<double[]> rows = new Long2ObjectOpenHashMap<>();
        for (Column c : cols) {
            int i = c.location() - first;
            int at = 0;
            for (int m = 0; m < MetricTree.COUNT; m++) {
                int start = at;
                while (at < c.cell().length && c.cell()[at] / paths == m) {
                    at++;
                }
                if (start == at || fileIndex[m] < 0) {
                    continue;
                }
                double[] exclusive = new double[paths];
                for (int k = start; k < at; k++) {
                    exclusive[c.cell()[k] % paths] = c.value()[k];
                }
                double[] inclusive = sh.layout().inclusive(exclusive);
                for (int p = 0; p < paths; p++) {
                    if (Double.doubleToRawLongBits(exclusive[p]) != 0 || Double.doubleToRawLongBits(inclusive[p]) != 0) {
                        double[] row = rows.computeIfAbsent(sh.key(fileIndex[m], p), k -> new double[2 * count]);
                        row[i] = exclusive[p];
                        row[count + i] = inclusive[p];
                    }
                }
            }
        }
        long[] keys = rows.keySet().toLongArray();
        Arrays.sort(keys);
        int from = 0;
        while (from < keys.length) {
            int r = sh.rowPartition(keys[from]);
            int to = from;
            while (to < keys.length && sh.rowPartition(keys[to]) == r) {
                to++;
            }
            long[] k = Arrays.copyOfRange(keys, from, to);
            double[][] ex = new double[k.length][];
            double[][] in = new double[k.length][];
            for (int j = 0; j < k.length; j++) {
                double[] row = rows.get(k[j]);
                ex[j] = Arrays.copyOfRange(row, 0, count);
                in[j] = Arrays.copyOfRange(row, count, 2 * count);
            }
            out.add(new Tuple2<>(r, new RowBlock(first, count, k, ex, in)));
            from = to;
        }
        return out.iterator();
    }

    /** A row partition: assembles its rows from the location blocks, writes their bytes, returns what they hold. */
    private static Iterator<RowInfo> writeRows(Shape sh, boolean[] integer, int[] fileIndex, String dir, int r,
                                               Iterator<Tuple2<Integer, RowBlock>> it) throws IOException {
        int n = sh.locations();
        int paths = sh.paths();
        Long2ObjectOpenHashMap<double[][]> rows = new Long2ObjectOpenHashMap<>();
        while (it.hasNext()) {
            RowBlock b = it.next()._2();
            for (int j = 0; j < b.keys().length; j++) {
                double[][] row = rows.computeIfAbsent(b.keys()[j], k -> new double[][] {new double[n], new double[n]});
                System.arraycopy(b.exclusive()[j], 0, row[0], b.first(), b.count());
                System.arraycopy(b.inclusive()[j], 0, row[1], b.first(), b.count());
            }
        }
        long[] keys = rows.keySet().toLongArray();
        Arrays.sort(keys);
        int[] metricAt = sh.layout().metricOrder();
        int[] pathAt = new int[paths];
        for (int p = 0; p < paths; p++) {
            pathAt[sh.layout().inclusivePosition()[p]] = p;
        }
        List<RowInfo> out = new ArrayList<>(keys.length);
        ByteBuffer buf = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
        OutputStream file = null;
        Path tmp = null;
        Path target = null;
        int open = -1;
        try {
            for (long key : keys) {
                int k = (int) (key / paths);
                int m = metricAt[k];
                int p = pathAt[(int) (key % paths)];
                double[][] row = rows.get(key);
                // the sum over locations as SeverityCube.sumOverLocations adds it
                double sum = 0;
                for (double v : row[0]) {
                    sum += v;
                }
                boolean nonZero = false;
                for (double v : row[1]) {
                    if (v != 0) {
                        nonZero = true;
                        break;
                    }
                }
                if (nonZero) {
                    if (k != open) {
                        if (file != null) {
                            file.close();
                            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                        }
                        target = rowFile(Path.of(dir), r, k);
                        tmp = Files.createTempFile(Path.of(dir), target.getFileName().toString(), ".tmp");
                        file = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
                        open = k;
                    }
                    CubexWriter.encodeRow(row[1], sh.layout().locationOrder(), integer[m], buf);
                    file.write(buf.array());
                }
                out.add(new RowInfo(m, p, sum, nonZero,
                        m == MetricTree.DELAY || m == MetricTree.DELAY_MPI ? row[0] : null));
            }
            if (file != null) {
                file.close();
                file = null;
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cube's rows in " + dir + " (" + e.getMessage() + "): the "
                    + "executors write them beside the cube, whose directory must be on a file system every executor "
                    + "mounts", e);
        } finally {
            if (file != null) {
                file.close();
                Files.deleteIfExists(tmp);
            }
        }
        return out.iterator();
    }
}
