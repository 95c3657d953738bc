package dev.straggler.testdata.sim;

import dev.straggler.trace.TraceDefinitions;

/**
 * What a simulation produced besides the events it wrote.
 *
 * @param events  number of events written, all locations together
 * @param endTime per rank, the true (unskewed) time at which its program ended
 */
public record SimResult(TraceDefinitions definitions, long events, long[] endTime) {
}
