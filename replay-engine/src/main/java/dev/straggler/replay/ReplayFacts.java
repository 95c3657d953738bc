package dev.straggler.replay;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * What a replay found about the trace as a whole, whichever engine ran it (threads on one machine, or Spark): the
 * reports and warnings are computed from these figures alone, so both engines print the same.
 *
 * @param events                     events read over all locations
 * @param firstTime                  earliest timestamp of a location with events (ticks), {@code Long.MAX_VALUE}
 *                                   when none has any
 * @param lastTime                   latest timestamp (ticks), {@code Long.MIN_VALUE} when none
 * @param hasMpi                     some location has an MPI communication record or left MPI_Init
 * @param anyInit                    some location has MPI_Init
 * @param anyFinalize                some location has MPI_Finalize
 * @param matchedMessages            receives matched with a send
 * @param unmatchedSends             shipped sends no receive matched
 * @param unmatchedReceives          receives no send matched
 * @param collectiveInstances        complete collective instances over all communicators
 * @param unmatchedCollectiveRecords collective records outside a complete instance
 * @param incompleteCommunicators    communicators with a member rank missing from the trace
 * @param recordBytes                bytes held by the communication records
 * @param anomalies                  anomalies per kind
 */
public record ReplayFacts(long events, long firstTime, long lastTime, boolean hasMpi, boolean anyInit,
                          boolean anyFinalize, long matchedMessages, long unmatchedSends, long unmatchedReceives,
                          long collectiveInstances, long unmatchedCollectiveRecords, long incompleteCommunicators,
                          long recordBytes, Map<Anomaly, Long> anomalies) {
    public ReplayFacts {
        anomalies = Collections.unmodifiableMap(anomalies.isEmpty() ? new EnumMap<>(Anomaly.class)
                : new EnumMap<>(anomalies));
    }
}
