package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of {@link Analysis#run}.
 *
 * @param cube           severities: metric × call path × location, metric-inclusive and call-path-exclusive
 *                       (frozen)
 * @param summary        facts about the trace
 * @param violations     clock-condition violations found (wait times there are clipped)
 * @param mostSevere     the most severe occurrences of each wait-state pattern, most severe first per pattern
 * @param warnings       human-readable warnings (no MPI, unmatched communication, malformed input, ...)
 * @param instanceCounts number of occurrences with a positive wait, per pattern metric (per rank for collectives)
 * @param communicators  the wait states per communicator, in definition order (empty for a trace without MPI)
 */
public record AnalysisResult(SeverityCube cube, TraceSummary summary, ClockViolations violations,
                             List<Instance> mostSevere, List<String> warnings, Map<String, Long> instanceCounts,
                             List<CommunicatorWaits> communicators) {
    public AnalysisResult {
        Objects.requireNonNull(cube, "cube");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(violations, "violations");
        mostSevere = List.copyOf(mostSevere);
        warnings = List.copyOf(warnings);
        instanceCounts = Collections.unmodifiableMap(new LinkedHashMap<>(instanceCounts));
        communicators = List.copyOf(communicators);
    }

    /** A metric's total over all call paths and locations (metric-inclusive), 0 when absent. */
    public double total(String metric) {
        return cube.total(metric);
    }
}
