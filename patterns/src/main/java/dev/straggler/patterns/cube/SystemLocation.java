package dev.straggler.patterns.cube;

/**
 * A location of the cube's system dimension.
 *
 * @param index position in {@link SeverityCube#locations()}; values are indexed by it
 * @param rank  process rank
 * @param thread thread within the process
 */
public record SystemLocation(int index, int rank, int thread, String name) {
}
