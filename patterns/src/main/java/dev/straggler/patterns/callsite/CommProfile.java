package dev.straggler.patterns.callsite;

import java.util.List;

/**
 * An IPM-style communication profile: MPI time, calls and bytes keyed by (phase region, MPI call, message-size
 * bucket, partner rank), summed over ranks.
 *
 * <p>Per MPI call instance: the size is the bytes of the messages it sent or received (for a collective the larger
 * of its sent and received bytes); the partner is the peer's global rank when all its messages had one peer, the
 * root for a rooted collective, else -1.
 */
public record CommProfile(int phaseDepth, List<Entry> entries) {
    public CommProfile {
        entries = List.copyOf(entries);
    }

    /**
     * @param sizeBucket 0 for no payload, else b with {@code 2^(b-1) <= bytes < 2^b}
     * @param partner    global rank, -1 for several or none
     * @param ranks      number of ranks that contributed
     */
    public record Entry(String phase, String call, int sizeBucket, int partner, long count, double time, long bytes,
                        int ranks) {
        /** "0", "1", "2-3", "4-7", ..., "1024-2047" bytes. */
        public String sizeLabel() {
            if (sizeBucket == 0) {
                return "0";
            }
            long lo = 1L << (sizeBucket - 1);
            long hi = sizeBucket >= 63 ? Long.MAX_VALUE : (1L << sizeBucket) - 1;
            return lo == hi ? Long.toString(lo) : lo + "-" + hi;
        }
    }
}
