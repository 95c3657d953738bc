package dev.straggler.patterns;

import dev.straggler.trace.CommunicationMatrix;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * An engine that runs the analysis somewhere else than in this process's threads (Apache Spark, in the
 * {@code straggler-spark} module), found with {@link java.util.ServiceLoader}. Its result must equal
 * {@link Analysis#run}'s for the same trace, value for value, so that every report reads the same.
 */
public interface AnalysisEngine {
    /** Setting that asks for the communication matrix as well (value {@code true}); the HTML report shows it. */
    String COMMUNICATION_MATRIX = "communication-matrix";

    /**
     * Setting that asks the engine to write the CUBE4 file itself, at the path given, without holding the whole cube
     * (the Spark engine writes its rows from the executors). The result's cube then answers only the sums the terminal
     * report reads, so the caller gives it only when no other output reads every value (JSON, CSV, HTML) and the
     * report's focus is the default or the whole run.
     */
    String CUBE_FILE = "cube-file";

    /**
     * What the engine found.
     *
     * @param matrix  the point-to-point traffic between ranks, computed by the engine's workers when asked for
     *                ({@link #COMMUNICATION_MATRIX}), else null
     * @param skipped what a lenient read skipped on the workers, as lines to print after the report (empty when
     *                nothing was)
     */
    record Outcome(AnalysisResult result, CommunicationMatrix matrix, java.util.List<String> skipped) {
        public Outcome {
            skipped = java.util.List.copyOf(skipped);
        }
    }

    /** The name users select it by ({@code --engine NAME}). */
    String name();

    /**
     * Analyses the trace at {@code trace}, which every worker of the engine must be able to read at that path.
     *
     * @param settings engine settings, e.g. {@code master} and {@code partitions} for Spark
     * @throws IOException when the trace cannot be read; the message names the trace and the location
     */
    Outcome analyze(Path trace, boolean lenient, AnalysisOptions options, Map<String, String> settings)
            throws IOException;
}
