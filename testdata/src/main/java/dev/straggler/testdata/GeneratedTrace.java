package dev.straggler.testdata;

import dev.straggler.trace.TraceDefinitions;

/**
 * The outcome of generating a scenario: the closed-form expectations (computed from the parameters, never from
 * the trace), the definitions that were written, and the number of events.
 */
public record GeneratedTrace(ExpectedSeverities expected, TraceDefinitions definitions, long events) {
}
