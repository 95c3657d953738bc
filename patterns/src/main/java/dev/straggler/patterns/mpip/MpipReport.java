package dev.straggler.patterns.mpip;

import dev.straggler.patterns.callsite.CallsiteStatistics;

import java.util.List;
import java.util.Map;

/**
 * A parsed mpiP report.
 *
 * @param header          the {@code @ key : value} lines (Command, Version, MPIP env var, ...), in file order
 * @param hosts           host of each task, from the {@code MPI Task Assignment} lines (empty when absent)
 * @param statistics      the callsite statistics in the project's model
 * @param skippedSections titles of sections read past because they hold nothing the model carries
 *                        (histograms, I/O and RMA statistics, ...)
 */
public record MpipReport(Map<String, String> header, List<String> hosts, CallsiteStatistics statistics,
                         List<String> skippedSections) {
}
