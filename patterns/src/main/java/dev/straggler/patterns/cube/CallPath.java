package dev.straggler.patterns.cube;

/**
 * A node of the call tree (Cube "cnode"). Two nodes are the same call path when parent, region and callsite
 * are equal.
 *
 * @param id       index in {@link SeverityCube#callPaths()}; parents always have smaller ids than children
 * @param parent   id of the parent node, -1 for a root
 * @param region   index into {@link SeverityCube#regions()}
 * @param callsite source line of the call when known, else 0 (part of the node's identity)
 */
public record CallPath(int id, int parent, int region, int callsite) {
}
