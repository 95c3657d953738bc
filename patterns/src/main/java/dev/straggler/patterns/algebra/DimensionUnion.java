package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Region;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The metric, region and call-tree dimensions shared by several cubes: CubeLib's integration step that every
 * algebra operation starts with (reference §3.7), with the matching rules of this project.
 *
 * <ul>
 *   <li>Metrics are matched by unique name; a metric only some operands have is kept.</li>
 *   <li>Regions are matched by name and source file. Region ids are per experiment and mean nothing across
 *       experiments; line numbers are left out so that a rebuilt binary with shifted lines still matches. A region
 *       that no earlier operand has with the same path matches one with the same name and file name in another
 *       directory, when exactly one such region exists: the same program built or recorded in another directory
 *       (compilers record absolute paths) is the same program. Two such regions of one operand stay apart.</li>
 *   <li>Call paths are equal when their parents are equal, their regions are equal and their callsites (source
 *       line of the call) are equal, as Cube's {@code Cnode::operator==}. Matching runs from the roots down, so an
 *       unmatched node brings its whole subtree along.</li>
 * </ul>
 *
 * <p>Unified ids follow first appearance: the first operand's dimensions keep their order and the nodes only later
 * operands have are appended, which keeps every parent before its children.
 */
public final class DimensionUnion {
    private final List<Metric> metrics = new ArrayList<>();
    private final List<Region> regions = new ArrayList<>();
    private final List<CallPath> callPaths = new ArrayList<>();
    private final int[][] metricMap;
    private final int[][] regionMap;
    private final int[][] callPathMap;

    private record RegionKey(String name, String file) {
        /** The key with the file's directory left out. */
        RegionKey base() {
            int cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
            return cut < 0 ? this : new RegionKey(name, file.substring(cut + 1));
        }
    }

    private record NodeKey(int parent, int region, int callsite) {
    }

    private DimensionUnion(List<SeverityCube> cubes) {
        int n = cubes.size();
        metricMap = new int[n][];
        regionMap = new int[n][];
        callPathMap = new int[n][];
        Map<String, Integer> metricIds = new HashMap<>();
        Map<RegionKey, Integer> regionIds = new HashMap<>();
        // unified regions by name and file name without directory: more than one makes the fallback ambiguous
        Map<RegionKey, List<Integer>> byBase = new HashMap<>();
        Map<NodeKey, Integer> nodeIds = new HashMap<>();
        for (int op = 0; op < n; op++) {
            SeverityCube c = cubes.get(op);
            metricMap[op] = new int[c.metrics().size()];
            for (int m = 0; m < c.metrics().size(); m++) {
                Metric metric = c.metrics().get(m);
                Integer id = metricIds.get(metric.uniqueName());
                if (id == null) {
                    id = metrics.size();
                    metrics.add(metric);
                    metricIds.put(metric.uniqueName(), id);
                }
                metricMap[op][m] = id;
            }
            regionMap[op] = new int[c.regions().size()];
            java.util.Arrays.fill(regionMap[op], -1);
            java.util.Set<Integer> taken = new java.util.HashSet<>();
            // exact matches first, so that a fallback never takes a region another one of this operand matches exactly
            for (int r = 0; r < c.regions().size(); r++) {
                Region region = c.regions().get(r);
                Integer id = regionIds.get(new RegionKey(region.name(), region.sourceFile()));
                if (id != null) {
                    regionMap[op][r] = id;
                    taken.add(id);
                }
            }
            for (int r = 0; r < c.regions().size(); r++) {
                if (regionMap[op][r] >= 0) {
                    continue;
                }
                Region region = c.regions().get(r);
                RegionKey key = new RegionKey(region.name(), region.sourceFile());
                List<Integer> same = byBase.get(key.base());
                Integer id = same != null && same.size() == 1 && !taken.contains(same.get(0)) ? same.get(0) : null;
                if (id == null) {
                    id = regions.size();
                    regions.add(new Region(id, region.name(), region.canonicalName(), region.sourceFile(),
                            region.beginLine(), region.endLine(), region.paradigm(), region.role()));
                    byBase.computeIfAbsent(key.base(), k -> new ArrayList<>()).add(id);
                }
                regionIds.putIfAbsent(key, id);
                regionMap[op][r] = id;
                taken.add(id);
            }
            callPathMap[op] = new int[c.callPaths().size()];
            for (CallPath cp : c.callPaths()) {
                int parent = cp.parent() < 0 ? -1 : callPathMap[op][cp.parent()];
                NodeKey key = new NodeKey(parent, regionMap[op][cp.region()], cp.callsite());
                Integer id = nodeIds.get(key);
                if (id == null) {
                    id = callPaths.size();
                    callPaths.add(new CallPath(id, parent, key.region(), key.callsite()));
                    nodeIds.put(key, id);
                }
                callPathMap[op][cp.id()] = id;
            }
        }
    }

    /** @throws IllegalArgumentException when no cube is given */
    public static DimensionUnion of(List<SeverityCube> cubes) {
        if (cubes.isEmpty()) {
            throw new IllegalArgumentException("the algebra needs at least one operand");
        }
        return new DimensionUnion(cubes);
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

    /** Unified index of operand {@code op}'s metric {@code m}. */
    public int metric(int op, int m) {
        return metricMap[op][m];
    }

    /** Unified id of operand {@code op}'s call path {@code c}. */
    public int callPath(int op, int c) {
        return callPathMap[op][c];
    }

    /** Unified id of operand {@code op}'s region {@code r}. */
    public int region(int op, int r) {
        return regionMap[op][r];
    }

    /** The region names from a root to a unified call path. */
    public List<String> pathNames(int callPath) {
        List<String> names = new ArrayList<>();
        for (int c = callPath; c >= 0; c = callPaths.get(c).parent()) {
            names.add(0, regions.get(callPaths.get(c).region()).name());
        }
        return names;
    }
}
