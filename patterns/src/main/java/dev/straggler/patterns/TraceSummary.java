package dev.straggler.patterns;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Facts about the analysed trace and how well it could be analysed.
 *
 * @param origin                   where the trace came from (path)
 * @param application              application name from the trace, may be empty
 * @param ranks                    processes
 * @param locations                locations (threads, streams)
 * @param events                   events read
 * @param durationSeconds          from the earliest to the latest event
 * @param ticksPerSecond           timer resolution
 * @param hasMpi                   whether the trace has any MPI communication or MPI_Init
 * @param callPaths                call paths of the unified call tree
 * @param messages                 point-to-point messages matched
 * @param unmatchedSends           shipped sends no receive matched
 * @param unmatchedReceives        receives with no matching send (skipped)
 * @param collectiveOperations     collective operations (instances) matched across their communicators
 * @param unmatchedCollectives     collective records outside any complete instance (skipped)
 * @param communicationRecordBytes memory held by the communication records during the analysis
 * @param anomalies                malformed input skipped or repaired, by description
 */
public record TraceSummary(String origin, String application, int ranks, int locations, long events,
                           double durationSeconds, long ticksPerSecond, boolean hasMpi, int callPaths, long messages,
                           long unmatchedSends, long unmatchedReceives, long collectiveOperations,
                           long unmatchedCollectives, long communicationRecordBytes, Map<String, Long> anomalies) {
    public TraceSummary {
        origin = origin == null ? "" : origin;
        application = application == null ? "" : application;
        anomalies = Collections.unmodifiableMap(new LinkedHashMap<>(anomalies));
    }
}
