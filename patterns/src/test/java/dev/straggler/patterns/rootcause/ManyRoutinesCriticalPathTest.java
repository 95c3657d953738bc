package dev.straggler.patterns.rootcause;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scalasca 2.6's 128-entry time maps ({@code fixed_priority_map<Callpath::IdType, double, 128>}; docs/root-causes.md)
 * end to end, on the simulated program {@code critical-path-many-routines}: rank 1 runs routines r_1 … r_N one after
 * the other (then r_1 again) between MPI_Init and MPI_Barrier while the others wait, then every rank runs
 * write_output (rank 0 γ longer). Values worked out by hand from the map's rule; the derivation is in the javadoc
 * of the testdata scenario {@code ManyRoutinesScenario}. Network without latency and call overhead.
 *
 * <p>Defaults on 4 ranks: N = 130, r_i lasts max(i − 1, 1)·u with u = 0.1 ms (u, u, 2u, …, 129u), then r_1 again
 * for x = 20 ms; write_output f = 1 ms, γ = 0.2 ms. While the interval is booked, r_129 replaces r_1 (the first of
 * the two smallest in id order), r_130 replaces r_2, and r_1, back from zero, replaces r_3: the map keeps
 * {r_1: 20 ms} and r_4 … r_130 (S_K = 858.2 ms). In rank 1's whole-run map, write_output (1 ms) then replaces the
 * smallest routine kept, r_4 (0.3 ms).
 */
class ManyRoutinesCriticalPathTest {
    private static final double TOLERANCE = 1e-9;
    private static final String SCENARIO = "critical-path-many-routines";
    /** 1/512 s: times in its multiples are exact binary fractions, so equal durations are equal doubles. */
    private static final double BINARY = 0.001953125;

    private static SimulatedRun run(int ranks, Map<String, String> values) throws IOException {
        return SimulatedRun.of(SCENARIO, ranks, values);
    }

    @Test
    void routinesEvictedWhileTheirIntervalIsBookedAreOnNoCriticalPath() throws IOException {
        SimulatedRun r = run(4, Map.of());
        // r_2 and r_3 ran (0.1 and 0.2 ms) but gave way to r_130 and the returning r_1 in the interval's map
        assertEquals(0.0001, r.at("time", 1, "main", "r_2"), TOLERANCE);
        assertEquals(0.0, r.at("critical_path", 1, "main", "r_2"), TOLERANCE);
        assertEquals(0.0, r.at("critical_path", 1, "main", "r_3"), TOLERANCE);
        assertEquals(0.0003, r.at("critical_path", 1, "main", "r_4"), TOLERANCE);
        assertEquals(0.0129, r.at("critical_path", 1, "main", "r_130"), TOLERANCE);
        // S_K + f + γ = 858.2 + 1.2 ms, 0.4 ms shorter than the run (rank 0 enters MPI_Finalize at 859.8 ms)
        assertEquals(0.8594, r.cube().total("critical_path"), TOLERANCE);
        assertEquals(0.0, r.at("critical_imbalance_impact", 1, "main", "r_3"), TOLERANCE);
    }

    @Test
    void anEvictedRoutineCalledAgainInTheSameIntervalStartsFromZero() throws IOException {
        SimulatedRun r = run(4, Map.of());
        // r_1 ran 0.1 ms, was evicted by r_129, and came back for 20 ms: the path has 20 ms, not 20.1 ms
        assertEquals(0.0201, r.at("time", 1, "main", "r_1"), TOLERANCE);
        assertEquals(0.020, r.at("critical_path", 1, "main", "r_1"), TOLERANCE);
        assertEquals(0.020, r.at("critical_path_activities", 1, "main", "r_1"), TOLERANCE);
        assertEquals(0.060, r.at("critical_imbalance_impact", 1, "main", "r_1"), TOLERANCE);
        // the CubePL imbalance takes the busy time from the unbounded exclusive time: 20 − 20.1/4 ms
        assertEquals(0.014975, r.at("critical_path_imbalance", 1, "main", "r_1"), TOLERANCE);
    }

    @Test
    void aTieForTheSmallestEntryEvictsTheLowerCallPathId() throws IOException {
        // N = 129: the map of r_1 … r_128 has two smallest entries, r_1 and r_2 (u each); r_129 replaces r_1
        SimulatedRun r = run(3, Map.of("routines", "129", "revisit", "0", "tail_extra", "0.0001"));
        assertEquals(0.0, r.at("critical_path", 1, "main", "r_1"), TOLERANCE);
        assertEquals(0.0001, r.at("critical_path", 1, "main", "r_2"), TOLERANCE);
        assertEquals(0.0128, r.at("critical_path", 1, "main", "r_129"), TOLERANCE);
    }

    @Test
    void aCallPathNoLargerThanTheSmallestEntryIsDropped() throws IOException {
        // descending durations 128u, 127u, …, u, u: r_129 (u) equals the smallest kept entry r_128 (u), is dropped
        SimulatedRun r = run(4, Map.of("routines", "129", "order", "descending", "unit", Double.toString(BINARY),
                "tail", Double.toString(10 * BINARY), "tail_extra", Double.toString(BINARY), "revisit", "0"));
        assertEquals(128 * BINARY, r.at("critical_path", 1, "main", "r_1"), TOLERANCE);
        assertEquals(BINARY, r.at("critical_path", 1, "main", "r_128"), TOLERANCE);
        assertEquals(0.0, r.at("critical_path", 1, "main", "r_129"), TOLERANCE);
        assertEquals(BINARY, r.at("time", 1, "main", "r_129"), TOLERANCE);
    }

    /**
     * The busy rank's whole-run map: write_output (f = 1 ms), new to the full map, replaces its smallest routine r_4
     * (0.3 ms). r_4 stays on the critical path, but the busy rank has no local time there: no activities, its time
     * becomes the rank's own excess and its headroom, and the headroom is not empty as it would be without the bound
     * (the busy rank would run every routine of the path, as in critical-path-extra-routine: hrf = 0/0).
     */
    @Test
    void aCallPathNewToTheFullWholeRunMapTakesThePlaceOfTheSmallestRoutine() throws IOException {
        SimulatedRun r = run(4, Map.of());
        assertEquals(0.0003, r.at("critical_path", 1, "main", "r_4"), TOLERANCE);
        assertEquals(0.0, r.at("critical_path_activities", 1, "main", "r_4"), TOLERANCE);
        assertEquals(0.0004, r.at("critical_path_activities", 1, "main", "r_5"), TOLERANCE);
        assertEquals(0.001, r.at("critical_path_activities", 1, "main", "write_output"), TOLERANCE);
        // p·σ at r_4 (every rank's excess), (p − 1)·d_i at the other routines
        assertEquals(0.0012, r.at("critical_imbalance_impact", 1, "main", "r_4"), TOLERANCE);
        assertEquals(0.0012, r.at("critical_imbalance_impact", 1, "main", "r_5"), TOLERANCE);
        assertEquals(0.0012, r.at("inter_partition_imbalance", 1, "main", "r_4"), TOLERANCE);
        assertEquals(0.0012, r.at("inter_partition_imbalance", 1, "main", "r_5"), TOLERANCE);
        // write_output: (p − 1)γ of impact, none of it between partitions
        assertEquals(0.0006, r.at("critical_imbalance_impact", 0, "main", "write_output"), TOLERANCE);
        assertEquals(0.0, r.at("inter_partition_imbalance", 0, "main", "write_output"), TOLERANCE);
        assertEquals(0.0006, r.at("intra_partition_imbalance", 0, "main", "write_output"), TOLERANCE);
    }

    /**
     * N = 140 in multiples of u = 1/512 s: the interval keeps r_13 … r_140, the smallest r_13 with 12u. write_output
     * f = 12u equals it, so it is not strictly larger and stays out of the busy rank's whole-run map, and so does
     * MPI_Finalize (γ = 12u). The busy rank's write_output is then headroom: impact (p − 1)γ + f, inter f + γ.
     */
    @Test
    void aTailNoLargerThanTheSmallestRoutineIsHeadroomNotActivity() throws IOException {
        double u = BINARY;
        SimulatedRun r = run(4, Map.of("routines", "140", "unit", Double.toString(u), "tail", Double.toString(12 * u),
                "tail_extra", Double.toString(12 * u), "revisit", "0"));
        assertEquals(0.0, r.at("critical_path", 1, "main", "r_12"), TOLERANCE);
        assertEquals(12 * u, r.at("critical_path_activities", 1, "main", "r_13"), TOLERANCE);
        assertEquals(0.0, r.at("critical_path_activities", 1, "main", "write_output"), TOLERANCE);
        assertEquals(12 * u, r.at("critical_path_activities", 2, "main", "write_output"), TOLERANCE);
        assertEquals(3 * 12 * u + 12 * u, r.at("critical_imbalance_impact", 0, "main", "write_output"), TOLERANCE);
        assertEquals(24 * u, r.at("inter_partition_imbalance", 0, "main", "write_output"), TOLERANCE);
        assertEquals(24 * u, r.at("intra_partition_imbalance", 0, "main", "write_output"), TOLERANCE);
        assertEquals(3 * 12 * u, r.at("critical_imbalance_impact", 1, "main", "r_13"), TOLERANCE);
    }

    /**
     * Equal durations booked at different times are equal doubles only with exact timestamps: the scenario refuses a
     * result that would rest on how 0.1 ms steps round (r_129 against r_128, both 0.1 ms, at about 0.84 s).
     */
    @Test
    void aTieThatRoundingWouldDecideIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> run(4, Map.of("routines", "129", "order", "descending", "tail_extra", "0.0001")));
        assertTrue(e.getMessage().contains("routines"), e.getMessage());
        assertTrue(e.getMessage().contains("1/512 s"), e.getMessage());
    }
}
