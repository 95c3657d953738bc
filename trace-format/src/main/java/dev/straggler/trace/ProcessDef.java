package dev.straggler.trace;

import java.util.Objects;

/**
 * A process (OTF2 location group of type process).
 *
 * @param rank global rank: the index of the process in MPI_COMM_WORLD, or the group's index without MPI
 * @param node name of the system-tree node (host) it ran on, empty when unknown
 * @param path the system-tree nodes above the process, outermost first (e.g. machine Linux, node vm); empty when
 *             the trace does not say
 */
public record ProcessDef(int rank, String name, String node, java.util.List<SystemNode> path) {
    public ProcessDef {
        Objects.requireNonNull(name, "name");
        node = node == null ? "" : node;
        path = path == null ? java.util.List.of() : java.util.List.copyOf(path);
    }

    public ProcessDef(int rank, String name, String node) {
        this(rank, name, node, java.util.List.of());
    }
}
