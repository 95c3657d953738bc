package dev.straggler.patterns.cube;

/**
 * A location of the cube's system dimension.
 *
 * @param index position in {@link SeverityCube#locations()}; values are indexed by it
 * @param rank  process rank
 * @param thread thread within the process
 * @param host   the system-tree nodes above the process, outermost first (e.g. machine Linux, node vm); empty when
 *               unknown, and then the cube's system tree has one machine and one node
 */
public record SystemLocation(int index, int rank, int thread, String name,
                             java.util.List<dev.straggler.trace.SystemNode> host) {
    public SystemLocation {
        host = host == null ? java.util.List.of() : java.util.List.copyOf(host);
    }

    public SystemLocation(int index, int rank, int thread, String name) {
        this(index, rank, thread, name, java.util.List.of());
    }
}
