package dev.straggler.replay;

import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The call tree unified across all locations: a node is (parent, region), merged from the locations' trees in
 * location order, then numbered in depth-first pre-order (children in order of first appearance). So ids are
 * deterministic whatever the thread count, parents precede children, and a subtree is a contiguous id range
 * (the row order Cube uses for exclusive metrics, reference §3.5). Immutable.
 */
public final class CallTree {
    private final int[] parent;
    private final int[] region;
    private final int[] subtreeEnd;
    private final int[] creation;

    private CallTree(int[] parent, int[] region, int[] subtreeEnd, int[] creation) {
        this.parent = parent;
        this.region = region;
        this.subtreeEnd = subtreeEnd;
        this.creation = creation;
    }

    /**
     * The node's number as Scalasca gives it to a cube's cnode: the locations' trees are taken in location order,
     * each walked in depth-first pre-order (children in the order the location first entered them), and a node is
     * numbered when first met. So a call path only later locations reach gets a high number although it is listed in
     * its place in the tree.
     */
    public int creationId(int node) {
        return creation[node];
    }

    public int size() {
        return parent.length;
    }

    public int parent(int node) {
        return parent[node];
    }

    public int region(int node) {
        return region[node];
    }

    /** One past the last id of the node's subtree: the subtree is {@code [node, subtreeEnd(node))}. */
    public int subtreeEnd(int node) {
        return subtreeEnd[node];
    }

    /**
     * One location's own call tree: per local node its parent (local id, -1 for a root) and region, parents before
     * children. What an engine that reads locations elsewhere (a Spark executor) ships to where the trees are merged.
     */
    public record LocalTree(int[] parent, int[] region) implements java.io.Serializable {
        public static LocalTree of(LocationProfile p) {
            int[] parent = new int[p.size()];
            int[] region = new int[p.size()];
            for (int n = 0; n < parent.length; n++) {
                parent[n] = p.parent(n);
                region[n] = p.region(n);
            }
            return new LocalTree(parent, region);
        }

        int size() {
            return parent.length;
        }
    }

    /** The unified tree and, per location, the map from its local node ids to the unified ids. */
    public record Merged(CallTree tree, List<int[]> localToGlobal) {
    }

    /** Merges the location trees and sets each location's local-to-global map. */
    static CallTree merge(List<LocationData> locations) {
        List<LocalTree> trees = new ArrayList<>(locations.size());
        for (LocationData loc : locations) {
            trees.add(LocalTree.of(loc.profile()));
        }
        Merged m = mergeTrees(trees);
        for (int l = 0; l < locations.size(); l++) {
            locations.get(l).setLocalToGlobal(m.localToGlobal().get(l));
        }
        return m.tree();
    }

    /**
     * Merges location trees given in location order; the result depends only on the trees and their order, so any
     * engine that merges the same trees gets the same ids.
     */
    public static Merged mergeTrees(List<LocalTree> locations) {
        // Phase 1: creation-order ids, keyed by (parent, region).
        Long2IntOpenHashMap index = new Long2IntOpenHashMap();
        index.defaultReturnValue(-1);
        IntArrayList parents = new IntArrayList();
        IntArrayList regions = new IntArrayList();
        List<int[]> creationMaps = new ArrayList<>(locations.size());
        for (LocalTree p : locations) {
            int[] map = new int[p.size()];
            for (int n = 0; n < p.size(); n++) {
                int gp = p.parent[n] < 0 ? -1 : map[p.parent[n]];
                long key = ((long) (gp + 1) << 32) | (p.region[n] & 0xffffffffL);
                int g = index.get(key);
                if (g < 0) {
                    g = parents.size();
                    parents.add(gp);
                    regions.add(p.region[n]);
                    index.put(key, g);
                }
                map[n] = g;
            }
            creationMaps.add(map);
        }
        int n = parents.size();
        // Scalasca's cnode numbering: each location's own tree in pre-order, new nodes numbered as met
        int[] unified = new int[n];
        java.util.Arrays.fill(unified, -1);
        int numbered = 0;
        for (int l = 0; l < locations.size(); l++) {
            LocalTree p = locations.get(l);
            int[] map = creationMaps.get(l);
            int m = p.size();
            int[] kids = new int[m + 1];
            for (int k = 0; k < m; k++) {
                kids[p.parent[k] + 1]++;
            }
            int[] start = new int[m + 2];
            for (int k = 0; k <= m; k++) {
                start[k + 1] = start[k] + kids[k];
            }
            int[] fillL = java.util.Arrays.copyOf(start, m + 1);
            int[] child = new int[m];
            for (int k = 0; k < m; k++) {
                child[fillL[p.parent[k] + 1]++] = k;
            }
            int[] stackL = new int[m + 1];
            int top = 0;
            for (int c = start[1] - 1; c >= start[0]; c--) {
                stackL[top++] = child[c];
            }
            while (top > 0) {
                int v = stackL[--top];
                if (unified[map[v]] < 0) {
                    unified[map[v]] = numbered++;
                }
                for (int c = start[v + 2] - 1; c >= start[v + 1]; c--) {
                    stackL[top++] = child[c];
                }
            }
        }
        // Phase 2: depth-first pre-order, children in creation order.
        int[] childCount = new int[n + 1];
        for (int i = 0; i < n; i++) {
            childCount[parents.getInt(i) + 1]++;
        }
        int[] childStart = new int[n + 2];
        for (int i = 0; i <= n; i++) {
            childStart[i + 1] = childStart[i] + childCount[i];
        }
        int[] children = new int[n];
        int[] fill = java.util.Arrays.copyOf(childStart, n + 1);
        for (int i = 0; i < n; i++) {
            children[fill[parents.getInt(i) + 1]++] = i;
        }
        int[] order = new int[n];
        int[] newId = new int[n];
        int[] stack = new int[n + 1];
        int sp = 0;
        int next = 0;
        for (int c = childStart[1] - 1; c >= childStart[0]; c--) {
            stack[sp++] = children[c];
        }
        while (sp > 0) {
            int v = stack[--sp];
            newId[v] = next;
            order[next++] = v;
            for (int c = childStart[v + 2] - 1; c >= childStart[v + 1]; c--) {
                stack[sp++] = children[c];
            }
        }
        int[] parent = new int[n];
        int[] region = new int[n];
        for (int i = 0; i < n; i++) {
            int old = order[i];
            int op = parents.getInt(old);
            parent[i] = op < 0 ? -1 : newId[op];
            region[i] = regions.getInt(old);
        }
        int[] subtreeEnd = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            if (subtreeEnd[i] == 0) {
                subtreeEnd[i] = i + 1;
            }
            if (parent[i] >= 0) {
                subtreeEnd[parent[i]] = Math.max(subtreeEnd[parent[i]], subtreeEnd[i]);
            }
        }
        for (int[] map : creationMaps) {
            for (int k = 0; k < map.length; k++) {
                map[k] = newId[map[k]];
            }
        }
        int[] scalascaIds = new int[n];
        for (int i = 0; i < n; i++) {
            scalascaIds[i] = unified[order[i]];
        }
        return new Merged(new CallTree(parent, region, subtreeEnd, scalascaIds), creationMaps);
    }
}
