package dev.straggler.patterns.reduce;

import dev.straggler.patterns.cube.PathNames;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.util.HashMap;
import java.util.Map;

/**
 * Detects whether dropping a set of regions would merge distinct communication call paths of which one carries wait
 * states. Removing a region's ENTER/LEAVE attaches its children to its caller, so two call paths that differ only in
 * dropped regions become one ({@code main/f/MPI_Send} and {@code main/g/MPI_Send} are both {@code main/MPI_Send}
 * without f and g), and an analysis of the reduced trace adds their severities together.
 */
final class PathMerges {
    private final CallTreeProfile profile;
    private final boolean[] communicating;
    private final boolean[] carries;
    private final int[] original;

    /**
     * @param communicating per region: the call paths ending in it are communication call paths
     * @param carries       per node: the call path carries (or may carry) wait states
     */
    PathMerges(CallTreeProfile profile, boolean[] communicating, boolean[] carries) {
        this.profile = profile;
        this.communicating = communicating;
        this.carries = carries;
        this.original = canonical(new boolean[profile.regions().size()]);
    }

    /**
     * Null when the exclusion set folds no two communication call paths with wait states together, else a
     * description naming one of them.
     */
    String merge(boolean[] dropped) {
        int[] reduced = canonical(dropped);
        Map<Integer, IntOpenHashSet> originals = new HashMap<>();
        Map<Integer, Boolean> carried = new HashMap<>();
        Map<Integer, Integer> example = new HashMap<>();
        for (int n = 0; n < reduced.length; n++) {
            if (!communicating[profile.region(n)]) {
                continue;
            }
            originals.computeIfAbsent(reduced[n], k -> new IntOpenHashSet()).add(original[n]);
            carried.merge(reduced[n], carries[n], Boolean::logicalOr);
            example.putIfAbsent(reduced[n], n);
        }
        for (Map.Entry<Integer, IntOpenHashSet> e : originals.entrySet()) {
            if (e.getValue().size() > 1 && carried.get(e.getKey())) {
                return "e.g. " + PathNames.join(profile.pathNames(example.get(e.getKey())));
            }
        }
        return null;
    }

    /** An id per node for its call path with the dropped regions left out; equal ids mean equal reduced paths. */
    private int[] canonical(boolean[] dropped) {
        int n = profile.nodeCount();
        int[] canon = new int[n];
        Long2IntOpenHashMap ids = new Long2IntOpenHashMap();
        ids.defaultReturnValue(-1);
        for (int i = 0; i < n; i++) {
            int par = profile.parent(i);
            int up = par < 0 ? -1 : canon[par];
            int r = profile.region(i);
            if (dropped[r]) {
                canon[i] = up;
                continue;
            }
            long key = ((long) (up + 1) << 32) | r;
            int id = ids.get(key);
            if (id < 0) {
                id = ids.size();
                ids.put(key, id);
            }
            canon[i] = id;
        }
        return canon;
    }
}
