package dev.straggler.testdata.sim;

import dev.straggler.trace.Region;

import java.util.List;

/**
 * An SPMD message-passing program: the statement tree every rank executes, the regions it uses (user functions
 * with source file and line, MPI calls with Score-P's names and roles) and the number of communicator and request
 * slots it needs. Immutable; built with {@link ProgramBuilder}.
 *
 * @param commSlots    communicator slots; slot {@link #WORLD} holds MPI_COMM_WORLD, the others are filled by
 *                     MPI_Comm_split
 * @param requestSlots request slots per rank for Isend/Irecv/Wait/Waitall
 */
public record Program(Node root, List<Region> regions, int commSlots, int requestSlots) {

    /** The slot of MPI_COMM_WORLD. */
    public static final int WORLD = 0;
    /** Wildcard source of a receive (MPI_ANY_SOURCE). */
    public static final int ANY_SOURCE = -1;
    /** Wildcard tag of a receive (MPI_ANY_TAG). */
    public static final int ANY_TAG = -1;

    public Program {
        regions = List.copyOf(regions);
    }
}
