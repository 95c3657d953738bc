package dev.straggler.testdata.sim;

/**
 * The simulator's cost model. All times are timer ticks (nanoseconds); a simulated trace's timestamps, and the
 * closed-form expectations of every scenario, are computed from these functions and nothing else, so expected
 * wait states include the network terms exactly.
 *
 * <ul>
 *   <li>Every MPI call lasts at least {@code overhead}.</li>
 *   <li>A message of {@code b} bytes takes {@link #transfer(long)} = latency + b / bandwidth from the moment it is
 *       sent (eager) or both sides are in their calls (rendezvous) to its arrival.</li>
 *   <li>Eager ({@code b <= eagerThreshold}, not MPI_Ssend): the send returns after {@code overhead}. Rendezvous:
 *       the transfer starts when the receive is posted; sender and receiver complete when it arrives.</li>
 *   <li>A collective ends at (the arrivals it depends on, {@link MpiCall.Sync}) + {@link #collectiveCost} +
 *       {@code exitStagger × local rank}; the stagger makes ranks leave one after another, which is what
 *       Scalasca's completion metrics measure.</li>
 * </ul>
 *
 * @param latency        ticks per message or collective step
 * @param bandwidth      bytes per second
 * @param eagerThreshold largest message (bytes) sent eagerly
 * @param overhead       minimum duration of any MPI call, ticks
 * @param exitStagger    extra ticks per local rank before a rank leaves a collective
 */
public record NetworkModel(long latency, double bandwidth, long eagerThreshold, long overhead, long exitStagger) {

    public NetworkModel {
        if (latency < 0 || overhead < 0 || exitStagger < 0 || eagerThreshold < 0) {
            throw new IllegalArgumentException("network times and thresholds must be >= 0: " + latency + ", "
                    + overhead + ", " + exitStagger + ", " + eagerThreshold);
        }
        if (!(bandwidth > 0) || Double.isInfinite(bandwidth)) {
            throw new IllegalArgumentException("bandwidth must be positive and finite: " + bandwidth);
        }
    }

    /** 2 µs latency, 1 GB/s, 16 KiB eager threshold, 500 ns call overhead, no exit stagger. */
    public static NetworkModel defaults() {
        return new NetworkModel(2_000, 1e9, 16_384, 500, 0);
    }

    public NetworkModel withExitStagger(long ticks) {
        return new NetworkModel(latency, bandwidth, eagerThreshold, overhead, ticks);
    }

    /** Ticks to move {@code bytes} at the model's bandwidth, rounded up. */
    public long bytesTime(long bytes) {
        return bytes <= 0 ? 0 : (long) Math.ceil(bytes * 1e9 / bandwidth);
    }

    /** Ticks from a message's start to its arrival. */
    public long transfer(long bytes) {
        return latency + bytesTime(bytes);
    }

    /** Whether a send of this call and size uses the rendezvous protocol (blocks until the receive is posted). */
    public boolean rendezvous(MpiCall call, long bytes) {
        return call == MpiCall.SSEND || bytes > eagerThreshold;
    }

    /** Ticks a rank leaves after its last prerequisite arrival: {@code exitStagger × localRank}. */
    public long exitDelay(int localRank) {
        return exitStagger * localRank;
    }

    /**
     * The two linear terms of {@link #collectiveCost}: {@code {latency steps, bytes}}, so that the cost is
     * {@code steps × latency + bytes / bandwidth} up to rounding to whole ticks (once per step for bcast, reduce, scan
     * and allreduce) and never less than {@code overhead}. Used to calibrate the model on recorded collectives.
     */
    public static long[] collectiveTerms(MpiCall call, long n, int size) {
        long steps = size > 1 ? 32 - Integer.numberOfLeadingZeros(size - 1) : 0;
        return switch (call) {
            case INIT, FINALIZE, BARRIER -> new long[] {steps, 0};
            case COMM_SPLIT -> new long[] {steps, 8L * (size - 1)};
            case BCAST, REDUCE, SCAN -> new long[] {steps, steps * n};
            case SCATTER, GATHER, ALLGATHER, ALLTOALL -> new long[] {steps, n * (size - 1L)};
            case ALLREDUCE -> new long[] {2 * steps, 2 * steps * n};
            case ALLTOALLV -> new long[] {steps, n};
            default -> throw new IllegalArgumentException(call + " is not a collective");
        };
    }

    /**
     * Duration of a collective after its prerequisite arrivals, for a communicator of {@code size} ranks and a
     * per-rank payload of {@code n} bytes (Alltoallv: the rank's total sent bytes); a binomial tree of
     * ⌈log2 size⌉ steps. Never less than {@code overhead}.
     */
    public long collectiveCost(MpiCall call, long n, int size) {
        long steps = size > 1 ? 32 - Integer.numberOfLeadingZeros(size - 1) : 0;
        long c = switch (call) {
            case INIT, FINALIZE, BARRIER -> steps * latency;
            // an allgather of every rank's (colour, key)
            case COMM_SPLIT -> steps * latency + bytesTime(8L * (size - 1));
            case BCAST, REDUCE, SCAN -> steps * transfer(n);
            case SCATTER, GATHER, ALLGATHER, ALLTOALL -> steps * latency + bytesTime(n * (size - 1L));
            case ALLREDUCE -> 2 * steps * transfer(n);
            case ALLTOALLV -> steps * latency + bytesTime(n);
            default -> throw new IllegalArgumentException(call + " is not a collective");
        };
        return Math.max(c, overhead);
    }
}
