package dev.straggler.testdata;

import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.util.List;

/**
 * A simulated MPI program with known wait states: the ground truth every analysis is checked against.
 *
 * <p>{@link #expected} computes the expected severities in closed form from the parameters; it never looks at a
 * trace. {@link #generate} simulates the program and streams its trace into a writer, with memory bounded
 * independently of the trace's length. Both are deterministic: the same parameters and seed give the same
 * events and the same expectations. Implementations are immutable and thread-safe.
 */
public interface Scenario {

    /** The name used on the command line, e.g. {@code late-sender}. */
    String name();

    /** One line: what the program does and what it is expected to show. */
    String description();

    /** Every parameter with its default, including the network and clock parameters common to all scenarios. */
    List<ParamSpec> parameters();

    /**
     * True for application-like families meant to be run at many process counts ({@link ScalingFamily}); their
     * expectations are model-level (which callsites grow with p, model constants) rather than exact per rank.
     */
    boolean scalingFamily();

    /** The smallest rank count the scenario accepts. */
    default int minRanks() {
        return 1;
    }

    /** Process counts a scaling study of this scenario uses by default; empty for non-families. */
    default List<Integer> defaultScale() {
        return List.of();
    }

    /**
     * The expected severities, computed from the parameters alone.
     *
     * @throws IllegalArgumentException for an unknown parameter, a malformed value or an unsupported rank count
     */
    ExpectedSeverities expected(ScenarioParams params);

    /**
     * Simulates the scenario and writes its trace to {@code out} (events, then definitions via
     * {@link TraceWriter#finish}); does not close the writer.
     *
     * @throws IllegalArgumentException as {@link #expected}
     */
    GeneratedTrace generate(ScenarioParams params, TraceWriter out) throws IOException;
}
