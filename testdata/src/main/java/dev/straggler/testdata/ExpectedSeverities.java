package dev.straggler.testdata;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The ground truth of a generated trace, computed in closed form from the scenario's parameters (never from the
 * trace), with the wait-state semantics of Scalasca 2.6 (reference §1.3–1.4, including its clipping and its
 * exclusions). Serialised as JSON ({@value #FORMAT}) next to the trace by {@code straggler generate --expected}.
 *
 * <p>When {@link #exact()} is true, {@link #entries()} lists every non-zero value of every metric in
 * {@link #metrics()} at (metric, call path, rank); a metric of that list with no entry at some (call path, rank) is
 * expected to be zero there. Values are seconds; the network terms of the simulator's model are included, so an
 * analysis must match them to a relative error of about 1e-9. The root-cause scenarios also list delay costs,
 * wait-state classes and critical-path metrics (reference §1.6), derived with Scalasca 2.6's rules; their values
 * are shares of simulated times, not whole ticks. Scaling families are model-level ({@code exact} false): see
 * {@link #scaling()}.
 *
 * <p>Hybrid MPI+OpenMP scenarios give every entry a {@link Entry#thread() thread} (the OpenMP thread number within
 * the rank); the metrics they list include the OpenMP ones (docs/openmp.md), and where a scenario derives them, the
 * root causes across threads (§6).
 *
 * @param parameters     every parameter's effective value, defaults included
 * @param totals         per metric of {@link #metrics()}, the sum over call paths and ranks
 * @param scaling        scaling families only: designed-bad and designed-good callsites and model constants
 * @param filter         the instrumentation-overhead scenario only: the ground truth for include/exclude lists
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExpectedSeverities(String format, String scenario, int ranks, long seed, Map<String, String> parameters,
                                 boolean exact, List<String> metrics, List<Entry> entries, Map<String, Double> totals,
                                 Scaling scaling, Filter filter, List<String> notes) {

    public static final String FORMAT = "straggler.expected/1";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public ExpectedSeverities {
        Objects.requireNonNull(scenario, "scenario");
        format = format == null ? FORMAT : format;
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNullElse(parameters, Map.of())));
        metrics = List.copyOf(Objects.requireNonNullElse(metrics, List.of()));
        entries = List.copyOf(Objects.requireNonNullElse(entries, List.of()));
        totals = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNullElse(totals, Map.of())));
        notes = List.copyOf(Objects.requireNonNullElse(notes, List.of()));
    }

    /**
     * One expected severity.
     *
     * @param metric   Scalasca unique metric name, e.g. {@code mpi_latesender}
     * @param callpath region names from the root of the call tree, e.g. [main, late_sender, ..., MPI_Recv]
     * @param rank     global rank (= location index in a pure MPI program: one location per rank)
     * @param thread   OpenMP thread number within the rank (0 = master, the only thread of a pure MPI program);
     *                 omitted from the JSON when 0
     * @param value    seconds
     */
    public record Entry(String metric, List<String> callpath, int rank,
                        @JsonInclude(JsonInclude.Include.NON_DEFAULT) int thread, double value) {
        public Entry {
            callpath = List.copyOf(callpath);
            if (thread < 0) {
                throw new IllegalArgumentException("thread must be >= 0: " + thread);
            }
        }

        /** An entry of a rank's master thread. */
        public Entry(String metric, List<String> callpath, int rank, double value) {
            this(metric, callpath, rank, 0, value);
        }
    }

    /**
     * A callsite whose behaviour across process counts is designed in.
     *
     * @param measure what is compared across process counts, e.g. "mean exclusive time per rank"
     * @param trend   {@code increasing}, {@code decreasing} or {@code constant} in the process count (noise-free)
     * @param law     how it grows, e.g. "∝ ceil(log2 p)"
     */
    public record Callsite(List<String> callpath, String measure, String trend, String law) {
        public Callsite {
            callpath = List.copyOf(callpath);
        }
    }

    /**
     * Model-level ground truth of a scaling family.
     *
     * @param designedBad      callsites designed to scale badly (their measure grows with p)
     * @param designedGood     callsites designed to scale well
     * @param constants        model constants, e.g. c0, c1, c2 of the run-time law
     * @param runtimeLaw       the run-time law, e.g. "c0 + c1/p + c2/sqrt(p)"; null when none is designed in
     * @param predictedRuntime the law's value at this experiment's p, seconds (exact for zero noise); null if none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Scaling(List<Callsite> designedBad, List<Callsite> designedGood, Map<String, Double> constants,
                          String runtimeLaw, Double predictedRuntime) {
        public Scaling {
            designedBad = List.copyOf(designedBad);
            designedGood = List.copyOf(designedGood);
            constants = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNullElse(constants, Map.of())));
        }
    }

    /**
     * Ground truth for include/exclude-list generation.
     *
     * @param exclude               functions that should be filtered: short, called very often, never communicating
     * @param keep                  functions that must stay: they communicate (MPI below them) or are long
     * @param callsPerRank          visits of each function on one rank
     * @param shortCallEventFraction fraction of all function ENTER/LEAVE events (MPI calls included) that belong to
     *                              the functions of {@code exclude}
     */
    public record Filter(List<String> exclude, List<String> keep, Map<String, Long> callsPerRank,
                         double shortCallEventFraction) {
        public Filter {
            exclude = List.copyOf(exclude);
            keep = List.copyOf(keep);
            callsPerRank = Collections.unmodifiableMap(new LinkedHashMap<>(callsPerRank));
        }
    }

    /** Sum over call paths and ranks of one metric (0 when it has no entry). */
    public double total(String metric) {
        return entries.stream().filter(e -> e.metric.equals(metric)).mapToDouble(Entry::value).sum();
    }

    /** The expected value at one (metric, call path, rank) of the rank's master thread, 0 when there is no entry. */
    public double value(String metric, List<String> callpath, int rank) {
        return value(metric, callpath, rank, 0);
    }

    /** The expected value at one (metric, call path, rank, thread), 0 when there is no entry. */
    public double value(String metric, List<String> callpath, int rank, int thread) {
        return entries.stream()
                .filter(e -> e.rank == rank && e.thread == thread && e.metric.equals(metric)
                        && e.callpath.equals(callpath))
                .mapToDouble(Entry::value).sum();
    }


    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, toJson() + "\n");
    }

    public static ExpectedSeverities fromJson(String json) throws IOException {
        return JSON.readValue(json, ExpectedSeverities.class);
    }

    public static ExpectedSeverities read(Path file) throws IOException {
        return fromJson(Files.readString(file));
    }
}
