package dev.straggler.bench;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark's control for the cost of threads: the hybrid program with every thread made an MPI rank must wait
 * exactly where and as long as the threads do, or it would not be the same program. Both traces are written from
 * the same random draws, so the waiting is equal tick for tick: the implicit barrier's wait (time from a thread's
 * Enter to the last thread's Enter) is the MPI_Barrier's Wait at Barrier, and the masters' point-to-point waits are
 * the same Late Senders.
 */
class TeamsAsRanksTest {
    private static SeverityCube threads;
    private static SeverityCube ranks;

    @BeforeAll
    static void writeAndAnalyse(@TempDir Path dir) throws Exception {
        Path hybrid = dir.resolve("hybrid");
        Path twin = dir.resolve("twin");
        try (StoreWriter w = StoreWriter.create(hybrid, StoreOptions.defaults())) {
            AnalyzeBenchmark.generate(w, 4, 3_000, 3);
        }
        try (StoreWriter w = StoreWriter.create(twin, StoreOptions.defaults())) {
            AnalyzeBenchmark.generateTeamsAsRanks(w, 4, 3_000, 3);
        }
        threads = analyse(hybrid);
        ranks = analyse(twin);
    }

    private static SeverityCube analyse(Path store) throws Exception {
        try (TraceSource s = Traces.open(store)) {
            return Analysis.run(s, AnalysisOptions.defaults().withThreads(2)).cube();
        }
    }

    @Test
    void barrierWaitOfRanksEqualsTheThreadsImplicitBarrierWait() {
        double omp = threads.total("omp_ibarrier_wait");
        assertTrue(omp > 0, "the generated teams wait at their barriers");
        assertEquals(omp, ranks.total("mpi_barrier_wait"), 1e-9 * omp);
    }

    @Test
    void mastersPointToPointWaitingIsTheSame() {
        double lateSender = threads.total("mpi_latesender");
        assertTrue(lateSender > 0, "the generated masters wait for messages");
        assertEquals(lateSender, ranks.total("mpi_latesender"), 1e-9 * lateSender);
    }
}
