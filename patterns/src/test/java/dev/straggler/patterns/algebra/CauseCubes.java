package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.Metric;

import java.util.List;

/**
 * Metrics for hand-built cubes with root causes: time with two wait states, the Late Sender and N x N delay costs
 * (short-term and long-term under their aggregate and {@code delay}, Cube's metric-inclusive nesting) and the
 * critical path with its imbalance. A test sets every level itself, so the numbers stay visible in the test.
 */
final class CauseCubes {
    static final List<Metric> METRICS = List.of(
            Metric.time("time", "Time", null, "total time"),
            Metric.time("mpi", "MPI", "time", "time in MPI"),
            Metric.time("mpi_latesender", "Late Sender", "mpi", "receiver waits for the sender"),
            Metric.time("mpi_wait_nxn", "Wait at N x N", "mpi", "waiting in all-to-all operations"),
            Metric.time("delay", "Delay costs", null, "delay costs"),
            Metric.time("delay_latesender_aggregate", "Late Sender", "delay", "Late Sender delay"),
            Metric.time("delay_latesender", "Short-term", "delay_latesender_aggregate", "short-term"),
            Metric.time("delay_latesender_longterm", "Long-term", "delay_latesender_aggregate", "long-term"),
            Metric.time("delay_n2n_aggregate", "Wait at N x N", "delay", "N x N delay"),
            Metric.time("delay_n2n", "Short-term", "delay_n2n_aggregate", "short-term"),
            Metric.time("delay_n2n_longterm", "Long-term", "delay_n2n_aggregate", "long-term"),
            Metric.time("critical_path", "Critical path", null, "critical path"),
            Metric.time("critical_path_imbalance", "Imbalance", "critical_path", "imbalance"));

    private CauseCubes() {
    }

    static TestCubes cube(int ranks) {
        return new TestCubes(ranks, METRICS, List.of());
    }
}
