package dev.straggler.testdata.sim;

/**
 * What a rank-dependent value of an SPMD program may depend on: the rank, its communicators, the indices of the
 * loops it is in and, inside an OpenMP parallel region, the thread executing it. Functions in a {@link Program} receive the executing rank's context; they
 * must be pure (the same context state gives the same value), because the simulator and the closed-form
 * expectations of a scenario both evaluate them.
 *
 * <p>A context is only valid during the call it is passed to; do not keep it.
 */
public interface Ctx {

    /** Global rank (index in MPI_COMM_WORLD). */
    int rank();

    /** Number of ranks in MPI_COMM_WORLD. */
    int size();

    /** This rank's rank in the communicator held by a slot, -1 when the slot holds no communicator. */
    int commRank(int slot);

    /** Size of the communicator held by a slot, 0 when the slot holds none. */
    int commSize(int slot);

    /**
     * Index of the current iteration of the enclosing loop at a nesting depth (0 = outermost loop); inside a
     * parallel region the loops around the region come first.
     */
    int iteration(int depth);

    /** The run's seed, for seeded noise ({@link Noise}). */
    long seed();

    /** The OpenMP thread number (0 = master): 0 outside parallel regions. */
    default int thread() {
        return 0;
    }

    /** The size of the rank's OpenMP thread team ({@link Program#threads()}), 1 for a pure MPI program. */
    default int threads() {
        return 1;
    }
}
