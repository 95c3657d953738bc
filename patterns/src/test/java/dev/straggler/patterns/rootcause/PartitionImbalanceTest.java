package dev.straggler.patterns.rootcause;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scalasca's critical-path partition rules (CriticalPath.pattern, CRITICALPATH_FINISHED; intra = impact − inter as
 * scout.spec remaps it) on simulated programs whose ranks run different call paths, against values worked out by
 * hand from the definitions; the derivations are in the javadoc of the testdata scenarios
 * {@code MasterWorkerScenario}, {@code ExtraRoutineScenario} and {@code ProducerConsumerScenario}. Network without
 * latency and call overhead.
 *
 * <p>Master/worker on 4 ranks, defaults: manage m = 5 ms (+ 30 ms in iterations 0 and 2: H = 35 ms), workers 1 and
 * 2 work b = 10 ms, rank 3 W = 25 ms, 4 iterations (E = O = 2). Iterations last 35, 25, 35, 25 ms. Critical path:
 * manage EH = 70 ms on rank 0, work OW = 50 ms on rank 3. Local times: manage 80 ms; work 40, 40, 100 ms. Waiting:
 * rank 0 40 ms, ranks 1 and 2 80 ms each, rank 3 20 ms.
 *
 * <p>Extra routine on 4 ranks, defaults: compute b = 10 ms everywhere, extra x = 5 ms on rank 1, write_output
 * f = 4 ms (rank 0: 6 ms), 4 iterations: the path is compute 40 ms and extra 20 ms on rank 1, write_output 6 ms on
 * rank 0.
 *
 * <p>Producer/consumer on 4 ranks, defaults: rank 0 produces P = 10 ms before each send, R = 3 messages to each of
 * ranks 1 … 3 in turn (Π = 90 ms of produce); each consumer consumes C = 6 ms after each receive and waits
 * Π − (R − 1)C = 78 ms in all; rank 3 enters MPI_Finalize last, at 96 ms; the producer waits 6 ms there.
 */
class PartitionImbalanceTest {
    private static final double TOLERANCE = 1e-9;


    private static SimulatedRun masterWorker() throws IOException {
        return SimulatedRun.of("critical-path-master-worker", 4, Map.of());
    }

    private static SimulatedRun extraRoutine() throws IOException {
        return SimulatedRun.of("critical-path-extra-routine", 4, Map.of());
    }

    private static final String[] MANAGE = {"main", "iteration", "manage"};
    private static final String[] WORK = {"main", "iteration", "work"};
    private static final String[] EXTRA = {"main", "iteration", "extra"};

    // ---- master/worker

    @Test
    void criticalPathAlternatesBetweenTheMastersManageAndTheLongestWorkersWork() throws IOException {
        SimulatedRun r = masterWorker();
        assertEquals(0.070, r.at("critical_path", 0, MANAGE), TOLERANCE);
        assertEquals(0.050, r.at("critical_path", 3, WORK), TOLERANCE);
        assertEquals(0.0, r.at("critical_path", 1, WORK), TOLERANCE);
        assertEquals(0.0, r.at("critical_path", 2, WORK), TOLERANCE);
        // EH + OW: when rank 3 enters MPI_Finalize
        assertEquals(0.120, r.total("critical_path"), TOLERANCE);
    }

    @Test
    void activitiesAreEachRanksLocalTimeUpToTheCriticalPath() throws IOException {
        SimulatedRun r = masterWorker();
        // min(gcpath, ltimes): manage min(70, 80); work min(50, 40) on ranks 1 and 2, min(50, 100) on rank 3
        assertEquals(0.070, r.at("critical_path_activities", 0, MANAGE), TOLERANCE);
        assertEquals(0.040, r.at("critical_path_activities", 1, WORK), TOLERANCE);
        assertEquals(0.040, r.at("critical_path_activities", 2, WORK), TOLERANCE);
        assertEquals(0.050, r.at("critical_path_activities", 3, WORK), TOLERANCE);
        // the master runs no work and the workers no manage
        assertEquals(0.0, r.at("critical_path_activities", 0, WORK), TOLERANCE);
        assertEquals(0.0, r.at("critical_path_activities", 1, MANAGE), TOLERANCE);
    }

    @Test
    void localTimeBeyondTheCriticalPathIsNonCriticalActivity() throws IOException {
        SimulatedRun r = masterWorker();
        // ltimes − gcpath: the master's light-iteration manage 2 × 5 ms; rank 3's heavy-iteration work 2 × 25 ms
        assertEquals(0.010, r.at("non_critical_path_activities", 0, MANAGE), TOLERANCE);
        assertEquals(0.050, r.at("non_critical_path_activities", 3, WORK), TOLERANCE);
        assertEquals(0.060, r.total("non_critical_path_activities"), TOLERANCE);
    }

    @Test
    void imbalanceImpactMapsAllWaitingOntoTheTwoPartitionsCriticalRoutines() throws IOException {
        SimulatedRun r = masterWorker();
        // manage: Σ_k EH − max(Rw_k − OW, 0) = 70 + 70 + (70 − 50); work: O(W − m) + 2 · max(OW − Rb, 0) = 40 + 20
        assertEquals(0.160, r.at("critical_imbalance_impact", 0, MANAGE), TOLERANCE);
        assertEquals(0.060, r.at("critical_imbalance_impact", 3, WORK), TOLERANCE);
        // the whole waiting: 40 + 80 + 80 + 20 ms
        assertEquals(0.220, r.total("critical_imbalance_impact"), TOLERANCE);
    }

    @Test
    void waitingForTheOtherPartitionIsInterPartitionImbalance() throws IOException {
        SimulatedRun r = masterWorker();
        // workers' headroom at manage: EH + OW − max(Rw_k, OW) = 70, 70, 20 ms; the master's at work: O(W − m)
        assertEquals(0.160, r.at("inter_partition_imbalance", 0, MANAGE), TOLERANCE);
        assertEquals(0.040, r.at("inter_partition_imbalance", 3, WORK), TOLERANCE);
        assertEquals(0.200, r.total("inter_partition_imbalance"), TOLERANCE);
    }

    @Test
    void lightWorkersShortfallAgainstThePathsWorkIsIntraPartitionImbalance() throws IOException {
        SimulatedRun r = masterWorker();
        // impact − inter: manage 160 − 160 = 0; work 60 − 40 = (p − 2) · (OW − Rb) = 2 · (50 − 40) ms
        assertEquals(0.0, r.at("intra_partition_imbalance", 0, MANAGE), TOLERANCE);
        assertEquals(0.020, r.at("intra_partition_imbalance", 3, WORK), TOLERANCE);
        assertEquals(0.020, r.total("intra_partition_imbalance"), TOLERANCE);
    }

    @Test
    void workersWhoseWorkCoversThePathHaveNoIntraPartitionImbalance() throws IOException {
        // work b = 20 ms, W = 25 ms: Rb = 80 ≥ OW = 50, so every worker's waiting is headroom at manage
        SimulatedRun r = SimulatedRun.of("critical-path-master-worker", 5, Map.of("work", "0.02", "delta", "0.005"));
        assertEquals(0.0, r.total("intra_partition_imbalance"), TOLERANCE);
        // manage: 3 × (70 − (80 − 50)) + (70 − (100 − 50)) = 140 ms; work: O(W − m) = 40 ms
        assertEquals(0.140, r.at("inter_partition_imbalance", 0, MANAGE), TOLERANCE);
        assertEquals(0.040, r.at("inter_partition_imbalance", 4, WORK), TOLERANCE);
        assertEquals(0.180, r.total("critical_imbalance_impact"), TOLERANCE);
    }

    // ---- one rank with an extra routine

    @Test
    void extraRoutineOfOneRankCarriesTheImbalanceImpactOfEveryOtherRanksWaiting() throws IOException {
        SimulatedRun r = extraRoutine();
        assertEquals(0.040, r.at("critical_path", 1, "main", "iteration", "compute"), TOLERANCE);
        assertEquals(0.020, r.at("critical_path", 1, EXTRA), TOLERANCE);
        assertEquals(0.006, r.at("critical_path", 0, "main", "write_output"), TOLERANCE);
        // (p − 1) · R · x and (p − 1) · γ
        assertEquals(0.060, r.at("critical_imbalance_impact", 1, EXTRA), TOLERANCE);
        assertEquals(0.006, r.at("critical_imbalance_impact", 0, "main", "write_output"), TOLERANCE);
        assertEquals(0.020, r.at("critical_path_activities", 1, EXTRA), TOLERANCE);
        assertEquals(0.0, r.at("critical_path_activities", 2, EXTRA), TOLERANCE);
    }

    /**
     * Rank 1 runs every call path of the critical path, so its headroom is empty: hrf = 0/0, and 0 · NaN poisons
     * the sum over locations on every call path; Scalasca records no NaN, so there is no inter-partition imbalance
     * anywhere, and intra (impact − inter) is the whole impact although extra runs on one rank only.
     */
    @Test
    void aRankRunningEveryCriticalRoutineLeavesNoInterPartitionImbalanceAnywhereByIeeeNaN() throws IOException {
        SimulatedRun r = extraRoutine();
        assertEquals(0.0, r.total("inter_partition_imbalance"), TOLERANCE);
        assertEquals(0.060, r.at("intra_partition_imbalance", 1, EXTRA), TOLERANCE);
        assertEquals(0.066, r.total("intra_partition_imbalance"), TOLERANCE);
    }

    // ---- producer and consumers, point-to-point only

    @Test
    void criticalPathCrossesFromTheLastConsumerToTheProducerAtItsLateSender() throws IOException {
        SimulatedRun r = SimulatedRun.of("critical-path-producer-consumer", 4, Map.of());
        assertEquals(0.090, r.at("critical_path", 0, "main", "produce"), TOLERANCE);
        assertEquals(0.006, r.at("critical_path", 3, "main", "consume"), TOLERANCE);
        assertEquals(0.0, r.at("critical_path", 1, "main", "consume"), TOLERANCE);
        assertEquals(0.096, r.total("critical_path"), TOLERANCE);
        // the consumers' receives hold only their Late Sender waits: R · C − C = 12 ms each off the path
        assertEquals(0.012, r.at("non_critical_path_activities", 1, "main", "consume"), TOLERANCE);
        assertEquals(0.006, r.at("critical_path_activities", 2, "main", "consume"), TOLERANCE);
    }

    @Test
    void producerAndConsumersWaitingForEachOthersRoutinesIsAllInterPartition() throws IOException {
        SimulatedRun r = SimulatedRun.of("critical-path-producer-consumer", 4, Map.of());
        // (p − 1)(Π − (R − 1)C) = 3 × 78 ms at produce; the producer's 6 ms at consume
        assertEquals(0.234, r.at("critical_imbalance_impact", 0, "main", "produce"), TOLERANCE);
        assertEquals(0.006, r.at("critical_imbalance_impact", 3, "main", "consume"), TOLERANCE);
        assertEquals(0.234, r.at("inter_partition_imbalance", 0, "main", "produce"), TOLERANCE);
        assertEquals(0.006, r.at("inter_partition_imbalance", 3, "main", "consume"), TOLERANCE);
        assertEquals(0.0, r.total("intra_partition_imbalance"), TOLERANCE);
    }
}
