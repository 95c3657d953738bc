package dev.straggler.trace;

import java.util.Objects;

/**
 * A process (OTF2 location group of type process).
 *
 * @param rank global rank: the index of the process in MPI_COMM_WORLD, or the group's index without MPI
 * @param node name of the system-tree node (host) it ran on, empty when unknown
 */
public record ProcessDef(int rank, String name, String node) {
    public ProcessDef {
        Objects.requireNonNull(name, "name");
        node = node == null ? "" : node;
    }
}
