package dev.straggler.testdata.sim;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.RegionRole;

/**
 * The MPI calls the simulator knows, with the region name, role and collective operation that Score-P 8 records
 * for them (checked against the region definitions of the real Score-P traces in {@code shared/traces/real}:
 * MPI_Wait, MPI_Waitall, MPI_Init, MPI_Finalize and MPI_Comm_split have role FUNCTION; MPI_Init, MPI_Finalize and
 * MPI_Comm_split carry a CREATE_HANDLE / DESTROY_HANDLE collective record; MPI_Scan has role COLL_OTHER).
 */
public enum MpiCall {
    INIT("MPI_Init", RegionRole.FUNCTION, CollectiveOp.CREATE_HANDLE, Sync.ALL),
    FINALIZE("MPI_Finalize", RegionRole.FUNCTION, CollectiveOp.DESTROY_HANDLE, Sync.ALL),
    COMM_SPLIT("MPI_Comm_split", RegionRole.FUNCTION, CollectiveOp.CREATE_HANDLE, Sync.ALL),
    SEND("MPI_Send", RegionRole.POINT2POINT, null, null),
    SSEND("MPI_Ssend", RegionRole.POINT2POINT, null, null),
    RECV("MPI_Recv", RegionRole.POINT2POINT, null, null),
    ISEND("MPI_Isend", RegionRole.POINT2POINT, null, null),
    IRECV("MPI_Irecv", RegionRole.POINT2POINT, null, null),
    SENDRECV("MPI_Sendrecv", RegionRole.POINT2POINT, null, null),
    WAIT("MPI_Wait", RegionRole.FUNCTION, null, null),
    WAITALL("MPI_Waitall", RegionRole.FUNCTION, null, null),
    BARRIER("MPI_Barrier", RegionRole.BARRIER, CollectiveOp.BARRIER, Sync.ALL),
    BCAST("MPI_Bcast", RegionRole.COLL_ONE2ALL, CollectiveOp.BCAST, Sync.ONE_TO_ALL),
    SCATTER("MPI_Scatter", RegionRole.COLL_ONE2ALL, CollectiveOp.SCATTER, Sync.ONE_TO_ALL),
    GATHER("MPI_Gather", RegionRole.COLL_ALL2ONE, CollectiveOp.GATHER, Sync.ALL_TO_ONE),
    REDUCE("MPI_Reduce", RegionRole.COLL_ALL2ONE, CollectiveOp.REDUCE, Sync.ALL_TO_ONE),
    ALLREDUCE("MPI_Allreduce", RegionRole.COLL_ALL2ALL, CollectiveOp.ALLREDUCE, Sync.ALL),
    ALLGATHER("MPI_Allgather", RegionRole.COLL_ALL2ALL, CollectiveOp.ALLGATHER, Sync.ALL),
    ALLTOALL("MPI_Alltoall", RegionRole.COLL_ALL2ALL, CollectiveOp.ALLTOALL, Sync.ALL),
    ALLTOALLV("MPI_Alltoallv", RegionRole.COLL_ALL2ALL, CollectiveOp.ALLTOALLV, Sync.ALL),
    SCAN("MPI_Scan", RegionRole.COLL_OTHER, CollectiveOp.SCAN, Sync.PREFIX);

    /**
     * Which arrivals a rank's completion of a collective depends on (the cost model of the issue): N×N, barrier
     * and communicator management complete only after the last rank arrives; 1-to-N non-roots cannot finish
     * before the root arrives; an N-to-1 root cannot finish before the last sender arrives; scan rank i waits for
     * ranks 0..i.
     */
    public enum Sync { ALL, ONE_TO_ALL, ALL_TO_ONE, PREFIX }

    private final String regionName;
    private final RegionRole role;
    private final CollectiveOp op;
    private final Sync sync;

    MpiCall(String regionName, RegionRole role, CollectiveOp op, Sync sync) {
        this.regionName = regionName;
        this.role = role;
        this.op = op;
        this.sync = sync;
    }

    public String regionName() {
        return regionName;
    }

    public RegionRole role() {
        return role;
    }

    /** The collective operation of the call's MPI_COLLECTIVE_END record, null for point-to-point calls. */
    public CollectiveOp collectiveOp() {
        return op;
    }

    public Sync sync() {
        return sync;
    }

    public boolean isCollective() {
        return op != null;
    }

    public boolean isRooted() {
        return sync == Sync.ONE_TO_ALL || sync == Sync.ALL_TO_ONE;
    }

    /**
     * Bytes sent and received that Score-P writes in the MPI_COLLECTIVE_END record of local rank {@code me}
     * (Score-P's collective byte rules, e.g. a bcast root reports {@code n * size} sent; scan rank i sends
     * {@code n * (size - i)} and receives {@code n * (i + 1)}).
     *
     * @param n per-rank payload in bytes (for Alltoallv: the rank's total sent bytes)
     * @param v Alltoallv only: the rank's total received bytes
     * @return {sent, received}
     */
    public long[] scorepBytes(long n, long v, int size, int me, int root) {
        return switch (this) {
            case INIT, FINALIZE, COMM_SPLIT, BARRIER -> new long[] {0, 0};
            case BCAST, SCATTER -> me == root ? new long[] {n * size, n} : new long[] {0, n};
            case GATHER, REDUCE -> me == root ? new long[] {n, n * size} : new long[] {n, 0};
            case ALLREDUCE, ALLGATHER, ALLTOALL -> new long[] {n * size, n * size};
            case ALLTOALLV -> new long[] {n, v};
            case SCAN -> new long[] {n * (size - me), n * (me + 1L)};
            default -> throw new IllegalStateException(this + " is not a collective");
        };
    }
}
