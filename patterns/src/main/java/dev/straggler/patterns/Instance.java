package dev.straggler.patterns;

import java.util.Objects;

/**
 * One of the most severe occurrences of a wait-state pattern, with what a user needs to find it in a timeline
 * viewer. Times are seconds since the start of the measurement. Serializable: a distributed engine hands the
 * instances to the tasks that find their causes.
 *
 * @param metric       unique name of the pattern's metric, e.g. {@code mpi_latesender}
 * @param severity     seconds lost: the wait of this rank for a point-to-point pattern, the waits of all ranks
 *                     summed for a collective operation (as Scalasca ranks collective instances)
 * @param callPath     call-path id in the analysis' cube
 * @param rank         rank that waited (for a collective, the one that waited longest)
 * @param thread       thread of that rank's location
 * @param partnerRank  rank that caused the wait: the late sender or receiver, the root or last process to
 *                     enter a collective; -1 when unknown
 * @param waitingRanks number of ranks that waited in this occurrence (1 for point-to-point)
 * @param start        begin of the waiting call (collective: earliest begin of all members)
 * @param end          end of the waiting call (collective: latest end of all members)
 */
public record Instance(String metric, double severity, int callPath, int rank, int thread, int partnerRank,
                       int waitingRanks, double start, double end) implements java.io.Serializable {
    public Instance {
        Objects.requireNonNull(metric, "metric");
    }

    /** Length of the waiting call (or of the whole collective operation). */
    public double duration() {
        return end - start;
    }
}
