package dev.straggler.patterns.cubex;

import java.util.List;

/**
 * The order in which a metric's data rows list the call-tree nodes. It depends on how the metric is
 * stored along the call tree (CubeW {@code cube_metric_create_enumeration}, CubeLib
 * {@code CubeDeepSearchEnumerator}/{@code CubeWideSearchEnumerator}; reference §3.5).
 *
 * <p>Nodes are given as indices into a pre-order list (the order in which they appear, nested, in
 * anchor.xml), children in definition order.
 */
final class CnodeOrder {
    private CnodeOrder() {
    }

    /**
     * EXCLUSIVE metrics: depth-first pre-order over the forest, which is the anchor's document order.
     */
    static int[] exclusive(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        return order;
    }

    /**
     * INCLUSIVE metrics: for each root, the root, then all its children, then recursively each child's
     * children (children listed before any grandchild of the same parent).
     */
    static int[] inclusive(List<int[]> children, int[] roots, int n) {
        int[] order = new int[n];
        int k = 0;
        // explicit stack of nodes whose children are still to be expanded, in the order the recursion would take
        int[] stack = new int[n];
        for (int root : roots) {
            order[k++] = root;
            int top = 0;
            stack[top++] = root;
            while (top > 0) {
                int node = stack[--top];
                int[] ch = children.get(node);
                for (int c : ch) {
                    order[k++] = c;
                }
                for (int i = ch.length - 1; i >= 0; i--) {
                    stack[top++] = ch[i];
                }
            }
        }
        if (k != n) {
            throw new IllegalStateException("call tree enumeration reached " + k + " of " + n + " nodes");
        }
        return order;
    }
}
