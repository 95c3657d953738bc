package dev.straggler.patterns.rootcause;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Root causes of simulated programs against values worked out by hand from the definitions (reference §1.6,
 * Scalasca 2.6's Delay.MPI.pattern, Waitstates.MPI.pattern and CriticalPath.pattern); the derivations are in the
 * javadoc of the scenarios (testdata {@code ImbalanceDelayScenario}, {@code LateSenderChainScenario},
 * {@code CriticalPathScenario}). The scenarios' defaults: no latency and no call overhead.
 *
 * <p>Late Sender chain on 4 ranks with b = 10 ms, δ = 40 ms, ε = 10 ms, β = 5 ms: waits w_k = δ + (k−1)ε − kβ =
 * 35, 40, 45 ms at ranks 1, 2, 3; D_k = d_k + w_{k−1} = w_k + β = 40, 45, 50 ms; scales s_k = w_k / D_k.
 */
class SimulatedRootCausesTest {
    private static final double TOLERANCE = 1e-9;


    private static SimulatedRun chain() throws IOException {
        return SimulatedRun.of("late-sender-chain", 4, Map.of());
    }

    private static SimulatedRun timesteps() throws IOException {
        return SimulatedRun.of("critical-path-slowest-rank", 4, Map.of());
    }

    // ---- computational imbalance

    @ParameterizedTest(name = "{0}")
    @CsvSource({"imbalance-delay-barrier, delay_barrier", "imbalance-delay-allreduce, delay_n2n",
            "imbalance-delay-sends, delay_latesender"})
    void imbalanceComesBackAsDelayOfTheSlowFunction(String scenario, String delay) throws IOException {
        SimulatedRun r = SimulatedRun.of(scenario, 4, Map.of());
        // 3 repetitions × 3 waiting ranks × 20 ms, all on rank 1's imbalanced_work
        assertEquals(0.18, r.at(delay, 1, "main", "iteration", "imbalanced_work"), TOLERANCE);
        assertEquals(0.18, r.total(delay), TOLERANCE);
        assertEquals(0.0, r.at(delay, 1, "main", "iteration", "balanced_work"), TOLERANCE);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"imbalance-delay-barrier", "imbalance-delay-allreduce", "imbalance-delay-sends"})
    void anImbalanceWithoutEarlierWaitingHasNoLongTermCostAndDoesNotPropagate(String scenario) throws IOException {
        SimulatedRun r = SimulatedRun.of(scenario, 4, Map.of());
        for (String m : List.of("delay_latesender_longterm", "delay_barrier_longterm", "delay_n2n_longterm",
                "mpi_wait_propagating_ls", "mpi_wait_indirect_latesender")) {
            assertEquals(0.0, r.total(m), TOLERANCE, m);
        }
    }

    // ---- Late Sender chain

    @Test
    void firstSendersExcessIsShortTermDelayScaledByTheWaitItCauses() throws IOException {
        // d₁ = δ, no waiting before rank 0's send: δ · w₁ / (δ + 0) = w₁ = 35 ms
        assertEquals(0.035, chain().at("delay_latesender", 0, "main", "imbalanced_work"), TOLERANCE);
    }

    @Test
    void eachRanksOwnRelayWorkIsShortTermDelayOfTheNextWait() throws IOException {
        SimulatedRun r = chain();
        // ε · s_{k+1}: 10 · 40/45 ms at rank 1, 10 · 45/50 ms at rank 2; the last rank's relay_work causes no Late Sender
        assertEquals(0.010 * 40 / 45, r.at("delay_latesender", 1, "main", "relay_work"), TOLERANCE);
        assertEquals(0.009, r.at("delay_latesender", 2, "main", "relay_work"), TOLERANCE);
        assertEquals(0.0, r.at("delay_latesender", 3, "main", "relay_work"), TOLERANCE);
        assertEquals(0.0, r.at("delay_latesender", 2, "main", "work"), TOLERANCE);
    }

    @Test
    void chainWaitBeyondFirstReceiverIsIndirect() throws IOException {
        SimulatedRun r = chain();
        // indirect at k = s_k · w_{k−1}: rank 1 none, rank 2 40/45 · 35 ms, rank 3 45/50 · 40 ms = 36 ms
        assertEquals(0.0, r.at("mpi_wait_indirect_latesender", 1, "main", "MPI_Recv"), TOLERANCE);
        assertEquals(0.035 * 40 / 45, r.at("mpi_wait_indirect_latesender", 2, "main", "MPI_Recv"), TOLERANCE);
        assertEquals(0.036, r.at("mpi_wait_indirect_latesender", 3, "main", "MPI_Recv"), TOLERANCE);
        // direct = the rest: all of rank 1's 35 ms, s_k · ε further down
        assertEquals(0.035, r.at("mpi_wait_direct_latesender", 1, "main", "MPI_Recv"), TOLERANCE);
        assertEquals(0.009, r.at("mpi_wait_direct_latesender", 3, "main", "MPI_Recv"), TOLERANCE);
    }

    @Test
    void chainWaitPropagatesExceptAtTheLastReceiver() throws IOException {
        SimulatedRun r = chain();
        // propagating at k = s_{k+1} · w_k; the last receiver's 45 ms are terminal
        assertEquals(0.035 * 40 / 45, r.at("mpi_wait_propagating_ls", 1, "main", "MPI_Recv"), TOLERANCE);
        assertEquals(0.036, r.at("mpi_wait_propagating_ls", 2, "main", "MPI_Recv"), TOLERANCE);
        assertEquals(0.0, r.at("mpi_wait_propagating_ls", 3, "main", "MPI_Recv"), TOLERANCE);
        assertEquals(0.045, r.at("mpi_wait_terminal_ls", 3, "main", "MPI_Recv"), TOLERANCE);
        assertEquals(0.004, r.at("mpi_wait_terminal_ls", 2, "main", "MPI_Recv"), TOLERANCE);
    }

    @Test
    void propagatedWaitingIsChargedBackToTheFirstDelayAsLongTerm() throws IOException {
        SimulatedRun r = chain();
        // C₃ = 0; C₂ = s₃ · w₂ = 36 ms; C₁ = (s₂ + C₂ / D₂) · w₁ = (40 + 36) / 45 · 35 ms
        assertEquals(0.035 * 76 / 45, r.at("delay_latesender_longterm", 0, "main", "imbalanced_work"), TOLERANCE);
        // rank 1's relay_work: ε · C₂ / D₂ = 10 · 36/45 ms = 8 ms; rank 2's: ε · C₃ / D₃ = 0
        assertEquals(0.008, r.at("delay_latesender_longterm", 1, "main", "relay_work"), TOLERANCE);
        assertEquals(0.0, r.at("delay_latesender_longterm", 2, "main", "relay_work"), TOLERANCE);
    }

    @Test
    void withoutRampEverySecondOfChainWaitingIsChargedToExactlyOneDelay() throws IOException {
        // β = 0 on 5 ranks: waits δ + (k−1)ε = 40, 50, 60, 70 ms; every scale is 1
        SimulatedRun r = SimulatedRun.of("late-sender-chain", 5, Map.of("ramp", "0"));
        assertEquals(0.22, r.total("mpi_latesender"), TOLERANCE);
        assertEquals(0.22, r.total("delay_latesender") + r.total("delay_latesender_longterm"), TOLERANCE);
        // long-term: (p − 2) · δ on rank 0, (p − 2 − j) · ε on rank j's relay_work
        assertEquals(3 * 0.040, r.at("delay_latesender_longterm", 0, "main", "imbalanced_work"), TOLERANCE);
        assertEquals(2 * 0.010, r.at("delay_latesender_longterm", 1, "main", "relay_work"), TOLERANCE);
        assertEquals(0.010, r.at("delay_latesender_longterm", 2, "main", "relay_work"), TOLERANCE);
    }

    @Test
    void criticalPathFollowsTheChainBackToTheFirstSender() throws IOException {
        SimulatedRun r = chain();
        assertEquals(0.010, r.at("critical_path", 0, "main", "work"), TOLERANCE);
        assertEquals(0.040, r.at("critical_path", 0, "main", "imbalanced_work"), TOLERANCE);
        for (int k = 1; k < 4; k++) {
            assertEquals(0.010, r.at("critical_path", k, "main", "relay_work"), TOLERANCE);
            assertEquals(0.0, r.at("critical_path", k, "main", "work"), TOLERANCE, "rank " + k + " work");
        }
        // b + δ + (p − 1) · ε: when the last rank enters MPI_Finalize
        assertEquals(0.080, r.total("critical_path"), TOLERANCE);
    }

    // ---- critical path of an SPMD loop

    /** MPI_Allreduce of 8 bytes on 4 ranks: 2 × ⌈log2 4⌉ steps of 8 bytes at 1 GB/s. */
    private static final double ALLREDUCE = 2 * 2 * 8e-9;

    @Test
    void criticalPathRunsThroughTheSlowestRanksSolve() throws IOException {
        SimulatedRun r = timesteps();
        // 4 time steps of 10 + 5 ms on rank 1; no other rank's solve is on the path
        assertEquals(0.060, r.at("critical_path", 1, "main", "timestep", "solve"), TOLERANCE);
        for (int l : new int[] {0, 2, 3}) {
            assertEquals(0.0, r.at("critical_path", l, "main", "timestep", "solve"), TOLERANCE, "rank " + l);
        }
    }

    @Test
    void criticalPathEndsWithTheLastWriterAndTotalsTheTimeItEntersFinalize() throws IOException {
        SimulatedRun r = timesteps();
        // the writer (rank 0) from its last Allreduce on: the Allreduce less its wait, and write_output 4 + 2 ms
        assertEquals(0.006, r.at("critical_path", 0, "main", "write_output"), TOLERANCE);
        assertEquals(ALLREDUCE, r.at("critical_path", 0, "main", "timestep", "MPI_Allreduce"), TOLERANCE);
        assertEquals(3 * ALLREDUCE, r.at("critical_path", 1, "main", "timestep", "MPI_Allreduce"), TOLERANCE);
        // R · (b + δ + c) + f + γ
        assertEquals(4 * (0.015 + ALLREDUCE) + 0.006, r.total("critical_path"), TOLERANCE);
    }

    @Test
    void imbalanceImpactOfTheWaitingLandsOnTheCriticalPathsImbalancedFunctions() throws IOException {
        SimulatedRun r = timesteps();
        // the other three ranks' waits: 4 × 5 ms each in the Allreduce, 2 ms each at MPI_Finalize
        assertEquals(0.060, r.at("critical_imbalance_impact", 1, "main", "timestep", "solve"), TOLERANCE);
        assertEquals(0.006, r.at("critical_imbalance_impact", 0, "main", "write_output"), TOLERANCE);
        assertEquals(0.066, r.total("intra_partition_imbalance"), TOLERANCE);
        assertEquals(0.0, r.total("inter_partition_imbalance"), TOLERANCE);
    }
}
