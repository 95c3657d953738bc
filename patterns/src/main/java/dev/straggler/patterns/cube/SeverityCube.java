package dev.straggler.patterns.cube;

import dev.straggler.trace.Region;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Severity values over metric × call path × location, the result of an analysis and the operand of the
 * profile algebra.
 *
 * <p>Storage is sparse by (metric, call path): a row of per-location values exists only where something
 * was recorded, because most patterns are zero on most call paths. Values follow Cube's convention (see
 * {@link Metric}): metric-inclusive, call-path-exclusive.
 *
 * <p>A cube is built by one thread through {@link #add}/{@link #set} and then treated as immutable: the
 * algebra never mutates its operands, it builds new cubes. {@link #freeze()} enforces that.
 *
 * <p>Not final for one reason: an engine that never holds the whole cube (the Spark engine writing the rows on its
 * executors) gives the reports a cube that answers the sums they read from sums formed where the rows are.
 */
public class SeverityCube {
    private final List<Metric> metrics;
    private final Map<String, Integer> metricIndex = new HashMap<>();
    private final List<Region> regions;
    private final List<CallPath> callPaths;
    private final List<SystemLocation> locations;
    private final Map<String, String> attributes;
    private final Map<String, String> attributesView;
    /** [metric][callPath] -> per-location values, or null where all are zero. */
    private final double[][][] values;
    private boolean frozen;
    /** The cnode id each call path gets in a Cube file, or null for its position in tree order. */
    private int[] cnodeIds;
    /** Metrics of the tree that do not apply to this experiment (no value, not written to files). */
    private final java.util.BitSet omitted = new java.util.BitSet();

    public SeverityCube(List<Metric> metrics, List<Region> regions, List<CallPath> callPaths,
                        List<SystemLocation> locations, Map<String, String> attributes) {
        this.metrics = List.copyOf(metrics);
        this.regions = List.copyOf(regions);
        this.callPaths = List.copyOf(callPaths);
        this.locations = List.copyOf(locations);
        this.attributes = new LinkedHashMap<>(Objects.requireNonNullElse(attributes, Map.of()));
        this.attributesView = Collections.unmodifiableMap(this.attributes);
        for (int i = 0; i < this.metrics.size(); i++) {
            if (metricIndex.put(this.metrics.get(i).uniqueName(), i) != null) {
                throw new IllegalArgumentException("duplicate metric " + this.metrics.get(i).uniqueName());
            }
        }
        for (Metric m : this.metrics) {
            if (m.parent() != null && !metricIndex.containsKey(m.parent())) {
                throw new IllegalArgumentException("metric " + m.uniqueName() + " has unknown parent " + m.parent());
            }
        }
        for (int i = 0; i < this.callPaths.size(); i++) {
            CallPath c = this.callPaths.get(i);
            if (c.id() != i || c.parent() >= i || c.region() < 0 || c.region() >= this.regions.size()) {
                throw new IllegalArgumentException("bad call path at position " + i + ": " + c);
            }
        }
        for (int i = 0; i < this.locations.size(); i++) {
            if (this.locations.get(i).index() != i) {
                throw new IllegalArgumentException("location at position " + i + " has index " + this.locations.get(i).index());
            }
        }
        this.values = new double[this.metrics.size()][this.callPaths.size()][];
    }

    /**
     * Sets the ids the call paths carry in a Cube file (a permutation of 0..n-1), as the tool that made the call tree
     * numbered them; without them a writer numbers cnodes in tree order.
     *
     * @throws IllegalArgumentException when {@code ids} is not a permutation of the call paths
     */
    public void setCnodeIds(int[] ids) {
        if (ids.length != callPaths.size()) {
            throw new IllegalArgumentException(ids.length + " cnode ids for " + callPaths.size() + " call paths");
        }
        boolean[] seen = new boolean[ids.length];
        for (int id : ids) {
            if (id < 0 || id >= ids.length || seen[id]) {
                throw new IllegalArgumentException("cnode ids are not a permutation of 0.." + (ids.length - 1));
            }
            seen[id] = true;
        }
        this.cnodeIds = ids.clone();
    }

    /** The Cube file id of a call path, or -1 when none was set. */
    public int cnodeId(int callPath) {
        return cnodeIds == null ? -1 : cnodeIds[callPath];
    }

    public List<Metric> metrics() {
        return metrics;
    }

    public List<Region> regions() {
        return regions;
    }

    public List<CallPath> callPaths() {
        return callPaths;
    }

    public List<SystemLocation> locations() {
        return locations;
    }

    /** Free key/value facts about the experiment (application, processes, trace file, ...). */
    public Map<String, String> attributes() {
        return attributesView;
    }

    /**
     * Sets an attribute while the cube is being built (a stage that learns something about the whole result after
     * the cube was made, e.g. that the root causes could not be computed).
     */
    public void setAttribute(String key, String value) {
        if (frozen) {
            throw new IllegalStateException("cube is frozen");
        }
        attributes.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /** Index of a metric by unique name, -1 when absent. */
    public int metricIndex(String uniqueName) {
        return metricIndex.getOrDefault(uniqueName, -1);
    }

    public Metric metric(String uniqueName) {
        int i = metricIndex(uniqueName);
        if (i < 0) {
            throw new IllegalArgumentException("no metric " + uniqueName);
        }
        return metrics.get(i);
    }

    /** Indices of the direct children of a metric (-1: the roots), in definition order. */
    public List<Integer> childMetrics(int metric) {
        String parentName = metric < 0 ? null : metrics.get(metric).uniqueName();
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < metrics.size(); i++) {
            if (Objects.equals(metrics.get(i).parent(), parentName)) {
                out.add(i);
            }
        }
        return out;
    }

    /** Ids of the direct children of a call path (-1: the roots), in id order. */
    public List<Integer> childCallPaths(int callPath) {
        List<Integer> out = new ArrayList<>();
        for (CallPath c : callPaths) {
            if (c.parent() == callPath) {
                out.add(c.id());
            }
        }
        return out;
    }

    public void add(int metric, int callPath, int location, double v) {
        if (v == 0) {
            return;
        }
        row(metric, callPath)[location] += v;
    }

    public void set(int metric, int callPath, int location, double v) {
        double[] r = values[metric][callPath];
        if (r == null && v == 0) {
            return;
        }
        row(metric, callPath)[location] = v;
    }

    private double[] row(int metric, int callPath) {
        if (frozen) {
            throw new IllegalStateException("cube is frozen");
        }
        double[] r = values[metric][callPath];
        if (r == null) {
            r = new double[locations.size()];
            values[metric][callPath] = r;
        }
        return r;
    }

    public double get(int metric, int callPath, int location) {
        double[] r = values[metric][callPath];
        return r == null ? 0 : r[location];
    }

    /** The per-location values of one (metric, call path); null when all are zero. Do not modify. */
    public double[] rowOrNull(int metric, int callPath) {
        return values[metric][callPath];
    }

    /** Sum over all locations of one (metric, call path). */
    public double sumOverLocations(int metric, int callPath) {
        double[] r = values[metric][callPath];
        if (r == null) {
            return 0;
        }
        double s = 0;
        for (double v : r) {
            s += v;
        }
        return s;
    }

    /** A metric's total over all call paths and locations (metric-inclusive, as stored). */
    public double total(int metric) {
        double s = 0;
        for (int c = 0; c < callPaths.size(); c++) {
            s += sumOverLocations(metric, c);
        }
        return s;
    }

    public double total(String uniqueName) {
        int m = metricIndex(uniqueName);
        return m < 0 ? 0 : total(m);
    }

    /** True when some location is not its process's first thread: locations are then threads, named rank.thread. */
    public boolean hasThreads() {
        return locations().stream().anyMatch(l -> l.thread() != 0);
    }

    /**
     * Per location, whether it visited an OpenMP parallel region (role PARALLEL, paradigm OpenMP): the threads of
     * an OpenMP team (a worker thread's regions all start with one), not the locations of other runtimes.
     */
    public boolean[] ranInParallelRegion() {
        boolean[] out = new boolean[locations().size()];
        int visits = metricIndex("visits");
        if (visits < 0) {
            return out;
        }
        for (int c = 0; c < callPaths().size(); c++) {
            var region = regions().get(callPaths().get(c).region());
            if (region.role() != dev.straggler.trace.RegionRole.PARALLEL
                    || region.paradigm() != dev.straggler.trace.Paradigm.OPENMP) {
                continue;
            }
            double[] row = rowOrNull(visits, c);
            for (int l = 0; row != null && l < out.length; l++) {
                out[l] |= row[l] > 0;
            }
        }
        return out;
    }

    /** A metric's value per location, summed over all call paths. */
    public double[] perLocation(int metric) {
        double[] out = new double[locations.size()];
        for (int c = 0; c < callPaths.size(); c++) {
            double[] r = values[metric][c];
            if (r != null) {
                for (int l = 0; l < out.length; l++) {
                    out[l] += r[l];
                }
            }
        }
        return out;
    }

    /** A call path's value summed over its whole subtree (call-path inclusive), all locations. */
    public double inclusive(int metric, int callPath) {
        double s = sumOverLocations(metric, callPath);
        for (int child : childCallPaths(callPath)) {
            s += inclusive(metric, child);
        }
        return s;
    }

    /** The region names from a root to this call path. */
    public List<String> pathNames(int callPath) {
        List<String> names = new ArrayList<>();
        for (int c = callPath; c >= 0; c = callPaths.get(c).parent()) {
            names.add(regions.get(callPaths.get(c).region()).name());
        }
        Collections.reverse(names);
        return names;
    }

    /**
     * Declares a metric (and, by the caller, its descendants) as not applying to this experiment, as Scalasca's
     * remapping leaves the OpenMP metrics out of a pure-MPI experiment: the metric stays addressable and zero, and
     * the Cube writer leaves it out. Only before {@link #freeze}.
     */
    public void omit(int metric) {
        if (frozen) {
            throw new IllegalStateException("cube is frozen");
        }
        omitted.set(metric);
    }

    /** True when {@link #omit} declared the metric as not applying. */
    public boolean isOmitted(int metric) {
        return omitted.get(metric);
    }

    /** Makes the cube read-only; further writes throw. Returns this. */
    public SeverityCube freeze() {
        frozen = true;
        return this;
    }

    public boolean isFrozen() {
        return frozen;
    }

    /** A deep copy that can be written again. */
    public SeverityCube mutableCopy() {
        SeverityCube c = new SeverityCube(metrics, regions, callPaths, locations, attributes);
        c.cnodeIds = cnodeIds == null ? null : cnodeIds.clone();
        c.omitted.or(omitted);
        for (int m = 0; m < values.length; m++) {
            for (int p = 0; p < values[m].length; p++) {
                if (values[m][p] != null) {
                    c.values[m][p] = Arrays.copyOf(values[m][p], values[m][p].length);
                }
            }
        }
        return c;
    }
}
