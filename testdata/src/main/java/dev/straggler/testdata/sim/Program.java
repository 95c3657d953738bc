package dev.straggler.testdata.sim;

import dev.straggler.trace.Region;

import java.util.List;

/**
 * An SPMD message-passing program: the statement tree every rank executes, the regions it uses (user functions
 * with source file and line, MPI calls with Score-P's names and roles, OpenMP constructs as OPARI2 names them) and
 * the number of communicator and request slots it needs. Immutable; built with {@link ProgramBuilder}.
 *
 * @param commSlots    communicator slots; slot {@link #WORLD} holds MPI_COMM_WORLD, the others are filled by
 *                     MPI_Comm_split
 * @param requestSlots request slots per rank for Isend/Irecv/Wait/Waitall
 * @param threads      OpenMP threads per rank (the team of every parallel region); 1 for a pure MPI program
 * @param locks        OpenMP locks per rank (one per critical-section name)
 */
public record Program(Node root, List<Region> regions, int commSlots, int requestSlots, int threads, int locks) {

    /** The slot of MPI_COMM_WORLD. */
    public static final int WORLD = 0;
    /** Wildcard source of a receive (MPI_ANY_SOURCE). */
    public static final int ANY_SOURCE = -1;
    /** Wildcard tag of a receive (MPI_ANY_TAG). */
    public static final int ANY_TAG = -1;

    public Program {
        regions = List.copyOf(regions);
        if (threads < 1) {
            throw new IllegalArgumentException("a program needs at least one thread per rank: " + threads);
        }
    }

    /** A pure MPI program: one thread per rank, no locks. */
    public Program(Node root, List<Region> regions, int commSlots, int requestSlots) {
        this(root, regions, commSlots, requestSlots, 1, 0);
    }
}
