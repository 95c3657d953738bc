package dev.straggler.trace;

/**
 * MPI collective operation of a {@code MPI_COLLECTIVE_END} event, with OTF2's codes
 * ({@code OTF2_CollectiveOp}, reference §6.6). The last six are what Score-P 8 writes for communicator
 * and window management calls such as MPI_Init and MPI_Comm_split.
 */
public enum CollectiveOp {
    BARRIER, BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW,
    ALLREDUCE, REDUCE, REDUCE_SCATTER, SCAN, EXSCAN, REDUCE_SCATTER_BLOCK, CREATE_HANDLE, DESTROY_HANDLE,
    ALLOCATE, DEALLOCATE, CREATE_HANDLE_AND_ALLOCATE, DESTROY_HANDLE_AND_DEALLOCATE;

    private static final CollectiveOp[] BY_CODE = values();

    public int code() {
        return ordinal();
    }

    /** @throws IllegalArgumentException for a code outside OTF2's table */
    public static CollectiveOp of(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("unknown collective operation code " + code);
        }
        return BY_CODE[code];
    }

    public static boolean isValidCode(int code) {
        return code >= 0 && code < BY_CODE.length;
    }
}
