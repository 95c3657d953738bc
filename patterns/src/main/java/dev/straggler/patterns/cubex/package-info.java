/**
 * CUBE4 {@code .cubex} files (reference §3): {@link dev.straggler.patterns.cubex.CubexWriter} writes a
 * {@link dev.straggler.patterns.cube.SeverityCube} for the Cube GUI and the CubeLib tools,
 * {@link dev.straggler.patterns.cubex.CubexReader} reads reports of Scalasca, Score-P and CubeLib back into
 * a cube.
 *
 * <p>A {@code .cubex} is a ustar archive holding {@code anchor.xml} (metric tree, regions, call tree,
 * system tree) and per metric an index and a data file of rows (one value per location) for the call
 * paths that have values. Values are metric-tree inclusive; along the call tree a metric stores either
 * exclusive or inclusive rows, and the row order depends on which (CubeW's enumerations).
 */
package dev.straggler.patterns.cubex;
