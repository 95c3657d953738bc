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
 * @param causes         with root causes, the delay behind each of the {@code mostSevere} instances that has one
 *                       (point-to-point and MPI collective instances), in their order; empty without root causes
 */
public record AnalysisResult(SeverityCube cube, TraceSummary summary, ClockViolations violations,
                             List<Instance> mostSevere, List<String> warnings, Map<String, Long> instanceCounts,
                             List<CommunicatorWaits> communicators, List<DelayCause> causes) {
    public AnalysisResult {
        Objects.requireNonNull(cube, "cube");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(violations, "violations");
        mostSevere = List.copyOf(mostSevere);
        warnings = List.copyOf(warnings);
        instanceCounts = Collections.unmodifiableMap(new LinkedHashMap<>(instanceCounts));
        communicators = List.copyOf(communicators);
        causes = List.copyOf(causes);
    }

    public AnalysisResult(SeverityCube cube, TraceSummary summary, ClockViolations violations,
                          List<Instance> mostSevere, List<String> warnings, Map<String, Long> instanceCounts,
                          List<CommunicatorWaits> communicators) {
        this(cube, summary, violations, mostSevere, warnings, instanceCounts, communicators, List.of());
    }

    /** The same result with the delays behind its most severe instances. */
    public AnalysisResult withCauses(List<DelayCause> delayCauses) {
        return new AnalysisResult(cube, summary, violations, mostSevere, warnings, instanceCounts, communicators,
                delayCauses);
    }

    /** The delay behind an instance, or null when none was found (or root causes were not computed). */
    public DelayCause causeOf(Instance instance) {
        for (DelayCause c : causes) {
            if (c.instance().equals(instance)) {
                return c;
            }
        }
        return null;
    }

    /** A metric's total over all call paths and locations (metric-inclusive), 0 when absent. */
    public double total(String metric) {
        return cube.total(metric);
    }
}
