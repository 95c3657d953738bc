package dev.straggler.testdata.sim;

import dev.straggler.trace.Experiment;

import java.util.Objects;

/**
 * How a program is simulated and recorded.
 *
 * @param batchSize      events buffered per rank before they are handed to the writer; the simulator lowers it
 *                       for large rank counts so that at most about 2^20 events are buffered in all
 * @param programRecords whether each rank's stream starts with PROGRAM_BEGIN and ends with PROGRAM_END, as
 *                       Score-P's streams do (the master thread's stream, in a hybrid program)
 * @param threads        the cost model of OpenMP thread teams, for programs with parallel regions
 */
public record SimOptions(NetworkModel network, ClockSkew skew, long seed, Experiment experiment, int batchSize,
                         boolean programRecords, ThreadModel threads) {

    public static final int DEFAULT_BATCH = 8192;

    public SimOptions {
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(skew, "skew");
        Objects.requireNonNull(experiment, "experiment");
        Objects.requireNonNull(threads, "threads");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1: " + batchSize);
        }
    }

    public static SimOptions of(NetworkModel network, long seed, Experiment experiment) {
        return new SimOptions(network, ClockSkew.none(), seed, experiment, DEFAULT_BATCH, true, ThreadModel.FREE);
    }

    public SimOptions withSkew(ClockSkew s) {
        return new SimOptions(network, s, seed, experiment, batchSize, programRecords, threads);
    }

    public SimOptions withBatchSize(int n) {
        return new SimOptions(network, skew, seed, experiment, n, programRecords, threads);
    }

    public SimOptions withThreads(ThreadModel m) {
        return new SimOptions(network, skew, seed, experiment, batchSize, programRecords, m);
    }
}
