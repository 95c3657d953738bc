package dev.straggler.patterns.callsite;

import java.util.List;

/**
 * One callsite with its per-rank rows and its All row.
 *
 * @param perRank     rows of the ranks that called it, by rank; a report may leave some out (mpiP's print threshold)
 * @param all         the aggregate over all ranks, as reported or summed from {@code perRank}
 * @param reportedCov coefficient of variation as the source reported it (mpiP's aggregate section), NaN if none
 */
public record CallsiteEntry(Callsite site, List<RankStats> perRank, RankStats all, double reportedCov) {
    public CallsiteEntry {
        perRank = List.copyOf(perRank);
    }

    /** Builds the All row from the per-rank rows. */
    public static CallsiteEntry of(Callsite site, List<RankStats> perRank) {
        RankStats all = RankStats.empty(RankStats.ALL);
        for (RankStats r : perRank) {
            all = all.plus(r);
        }
        return new CallsiteEntry(site, perRank, all, Double.NaN);
    }

    /**
     * Coefficient of variation of the per-rank total times: sample standard deviation (N−1) over the mean, over
     * the ranks that called the callsite, 0 for one rank or a zero mean, as mpiP computes it (reference §5). When
     * the per-rank rows are incomplete and the source reported a value, that value.
     *
     * @param ranks number of ranks of the run, to tell whether rows are missing
     */
    public double cov(int ranks) {
        boolean complete = perRank.size() == ranks || Double.isNaN(reportedCov);
        if (!complete) {
            return reportedCov;
        }
        int n = perRank.size();
        if (n <= 1) {
            return 0;
        }
        double mean = 0;
        for (RankStats r : perRank) {
            mean += r.total();
        }
        mean /= n;
        if (mean == 0) {
            return 0;
        }
        double ss = 0;
        for (RankStats r : perRank) {
            ss += (r.total() - mean) * (r.total() - mean);
        }
        return Math.sqrt(ss / (n - 1)) / mean;
    }
}
