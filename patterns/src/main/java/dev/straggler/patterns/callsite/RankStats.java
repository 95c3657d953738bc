package dev.straggler.patterns.callsite;

/**
 * Statistics of one callsite on one rank (or over all ranks, {@code rank = -1}): mpiP's per-callsite
 * accumulators (reference §5). Times in seconds, sizes in bytes.
 *
 * @param count     number of calls
 * @param total     summed duration
 * @param max       longest call
 * @param min       shortest call
 * @param bytes     bytes sent, summed over the calls
 * @param bytesMax  most bytes sent by one call
 * @param bytesMin  fewest bytes sent by one call
 */
public record RankStats(int rank, long count, double total, double max, double min, double bytes, double bytesMax,
                        double bytesMin) {
    public static final int ALL = -1;

    public double mean() {
        return count == 0 ? 0 : total / count;
    }

    public double meanBytes() {
        return count == 0 ? 0 : bytes / count;
    }

    /** Combines two ranks' statistics (or adds one rank to the All row). */
    public RankStats plus(RankStats o) {
        if (count == 0) {
            return new RankStats(ALL, o.count, o.total, o.max, o.min, o.bytes, o.bytesMax, o.bytesMin);
        }
        if (o.count == 0) {
            return new RankStats(ALL, count, total, max, min, bytes, bytesMax, bytesMin);
        }
        return new RankStats(ALL, count + o.count, total + o.total, Math.max(max, o.max), Math.min(min, o.min),
                bytes + o.bytes, Math.max(bytesMax, o.bytesMax), Math.min(bytesMin, o.bytesMin));
    }

    public static RankStats empty(int rank) {
        return new RankStats(rank, 0, 0, 0, 0, 0, 0, 0);
    }
}
