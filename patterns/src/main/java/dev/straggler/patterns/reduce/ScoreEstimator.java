package dev.straggler.patterns.reduce;

import dev.straggler.trace.Region;

import java.util.Set;

/**
 * Trace bytes and records per visit of a region as {@code scorep-score} estimates them (reference §4.4, and the
 * facts of Score-P's {@code SCOREP_Score_Estimator}/{@code SCOREP_Score_Event} and OTF2's event size estimator):
 *
 * <ul>
 *   <li>every event costs its record size plus a 9-byte timestamp record (type byte and 8 bytes), except
 *       MpiCollectiveBegin, which Score-P counts without a timestamp;</li>
 *   <li>record sizes are upper bounds: a type byte, a length byte for records that have one, and each compressed
 *       integer at its largest (5 bytes for 32-bit, 9 for 64-bit values) unless it refers to a definition whose
 *       count is known, in which case it takes only as many bytes as the largest id needs. Score-P seeds the
 *       region count only, so Enter/Leave take {@code 1 + size(regions - 1)} and communicator references 5;</li>
 *   <li>Enter and Leave for every region except measurement-system regions and "MEASUREMENT OFF"; MPI records by
 *       region name (Send/Bsend/Rsend/Ssend/Sendrecv* one MpiSend, Recv/Sendrecv* one MpiRecv, Isend and the
 *       persistent send inits MpiIsend plus MpiIsendComplete, Irecv/Irecv_init MpiIrecvRequest plus MpiIrecv,
 *       the blocking collectives MpiCollectiveBegin/End); ProgramBegin/End for root regions; two
 *       MeasurementOnOff per "MEASUREMENT OFF" visit and a BufferFlush per "TRACE BUFFER FLUSH" visit.</li>
 * </ul>
 *
 * <p>Not modelled: parameters, hardware-counter metrics, OpenMP/thread/RMA/I/O records, and the communicator
 * records Score-P 8 writes for MPI_Comm_dup and the like (which scorep-score does not count either).
 */
public final class ScoreEstimator {
    static final int TIMESTAMP = 9;
    /** A 32-bit field at its largest: byte count and four bytes. */
    private static final int U32 = 5;
    /** A 64-bit field at its largest. */
    private static final int U64 = 9;

    private static final Set<String> SEND = Set.of("MPI_Bsend", "MPI_Rsend", "MPI_Ssend", "MPI_Sendrecv",
            "MPI_Sendrecv_replace", "MPI_Send");
    private static final Set<String> ISEND = Set.of("MPI_Ibsend", "MPI_Irsend", "MPI_Issend", "MPI_Isend",
            "MPI_Bsend_init", "MPI_Rsend_init", "MPI_Send_init", "MPI_Ssend_init");
    private static final Set<String> RECV = Set.of("MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Recv");
    private static final Set<String> IRECV = Set.of("MPI_Irecv", "MPI_Irecv_init");
    private static final Set<String> COLLECTIVE = Set.of("MPI_Allgather", "MPI_Allgatherv", "MPI_Allreduce",
            "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Barrier", "MPI_Bcast", "MPI_Exscan", "MPI_Gather",
            "MPI_Gatherv", "MPI_Reduce", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Scatter",
            "MPI_Scatterv");

    private final int enter;
    private final int programArguments;

    /**
     * @param regionCount      number of region definitions (bounds the region references of Enter/Leave)
     * @param programArguments arguments recorded by ProgramBegin (Score-P stores the count in its profile)
     */
    public ScoreEstimator(int regionCount, int programArguments) {
        this.enter = 1 + referenceSize(regionCount);
        this.programArguments = programArguments;
    }

    /** Bytes of a compressed reference to one of {@code count} definitions (ids 0..count-1); 1 for none. */
    static int referenceSize(long count) {
        return count <= 0 ? 1 : RecordSizes.u64c(count - 1);
    }

    /** Size of an Enter or Leave record, without its timestamp. */
    public int enterSize() {
        return enter;
    }

    /** Estimated bytes one visit of the region adds to a trace. */
    public long bytesPerVisit(Region r, boolean root) {
        return estimate(r, root, true);
    }

    /** Event records one visit of the region adds to a trace. */
    public long eventsPerVisit(Region r, boolean root) {
        return estimate(r, root, false);
    }

    private long estimate(Region r, boolean root, boolean bytes) {
        long sum = 0;
        String name = r.name();
        boolean measurement = ScoreType.ofDefinition(r) == ScoreType.SCOREP || name.equals(TraceProfiler.MEASUREMENT_OFF);
        if (!measurement) {
            sum += 2 * (bytes ? enter + TIMESTAMP : 1);
        }
        if (SEND.contains(name)) {
            sum += bytes ? stamped(1 + 1 + U32 + U32 + U32 + U64) : 1;
        }
        if (RECV.contains(name)) {
            sum += bytes ? stamped(1 + 1 + U32 + U32 + U32 + U64) : 1;
        }
        if (ISEND.contains(name)) {
            sum += bytes ? stamped(1 + 1 + U32 + U32 + U32 + U64 + U64) + stamped(1 + U64) : 2;
        }
        if (IRECV.contains(name)) {
            sum += bytes ? stamped(1 + U64) + stamped(1 + 1 + U32 + U32 + U32 + U64 + U64) : 2;
        }
        if (COLLECTIVE.contains(name)) {
            // MpiCollectiveBegin is counted without a timestamp record
            sum += bytes ? (1 + 1) + stamped(1 + 1 + 1 + U32 + U32 + U64 + U64) : 2;
        }
        if (root) {
            sum += bytes ? stamped(1 + 1 + U32 + U32 + (long) programArguments * U32) + stamped(1 + 1 + U64) : 2;
        }
        if (name.equals(TraceProfiler.MEASUREMENT_OFF)) {
            sum += bytes ? 2L * stamped(1 + 1 + 1) : 2;
        }
        if (name.equals(TraceProfiler.BUFFER_FLUSH)) {
            sum += bytes ? stamped(1 + 1 + 8) : 1;
        }
        return sum;
    }

    private static long stamped(long record) {
        return record + TIMESTAMP;
    }
}
