package dev.straggler.testdata;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.MemoryTrace;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scaling families behave as their expectations claim, measured on the generated traces (noise-free, so
 * the designed trends are strict): designed-bad callsites grow with p, designed-good ones shrink or stay.
 */
class DesignedScalingTest {

    /** Mean exclusive time per rank of every designed callsite, per process count. */
    private static void checkTrends(String name, List<Integer> ps, Map<String, String> values) throws Exception {
        Scenario s = Scenarios.byName(name);
        List<Profiles> profiles = new ArrayList<>();
        ExpectedSeverities.Scaling scaling = null;
        for (int p : ps) {
            MemoryTrace t = new MemoryTrace(name);
            scaling = s.generate(new ScenarioParams(p, 1, values), t).expected().scaling();
            profiles.add(new Profiles(t));
        }
        List<ExpectedSeverities.Callsite> all = new ArrayList<>(scaling.designedBad());
        all.addAll(scaling.designedGood());
        assertFalse(all.isEmpty());
        for (ExpectedSeverities.Callsite c : all) {
            double[] v = profiles.stream().mapToDouble(pr -> pr.meanExclusive(c.callpath())).toArray();
            for (int i = 1; i < v.length; i++) {
                String msg = name + " " + c.callpath() + " (" + c.trend() + ") at p=" + ps.get(i - 1) + ", " + ps.get(i)
                        + ": " + v[i - 1] + " -> " + v[i];
                switch (c.trend()) {
                    case "increasing" -> assertTrue(v[i] > v[i - 1], msg);
                    case "decreasing" -> assertTrue(v[i] < v[i - 1], msg);
                    case "constant" -> assertEquals(v[0], v[i], 1e-12, msg);
                    default -> throw new AssertionError("unknown trend " + c.trend());
                }
            }
        }
    }

    @Test
    void btLikeBadCallsitesGrowAndGoodOnesShrinkWithP() throws Exception {
        checkTrends("bt-like", List.of(1, 4, 9, 16, 25, 36), Map.of("noise", "0", "niter", "3"));
    }

    @Test
    void sweep3dLikeFillGrowsWhileBlockWorkStaysConstant() throws Exception {
        checkTrends("sweep3d-like", List.of(1, 2, 4, 8, 16), Map.of("noise", "0", "iterations", "2"));
    }

    @Test
    void graph500LikeExpandAndExchangeShrinkAsDesigned() throws Exception {
        checkTrends("graph500-like", List.of(1, 2, 4, 8, 16), Map.of("nbfs", "4"));
    }

    @Test
    void gyroLikeWaitsAtTheSubCommunicatorAlltoallAt192ButNotAt128() throws Exception {
        Scenario s = Scenarios.byName("gyro-like");
        List<String> transpose = List.of("main", "timestep", "transpose", "MPI_Alltoall");
        double[] wait = new double[2];
        double[] nl = new double[2];
        int[] ps = {128, 192};
        for (int i = 0; i < 2; i++) {
            MemoryTrace t = new MemoryTrace("gyro");
            ExpectedSeverities e = s.generate(new ScenarioParams(ps[i], 1, Map.of("steps", "3")), t).expected();
            wait[i] = e.entries().stream().filter(x -> x.metric().equals("mpi_wait_nxn") && x.callpath().equals(transpose))
                    .mapToDouble(ExpectedSeverities.Entry::value).sum();
            nl[i] = new Profiles(t).meanExclusive(List.of("main", "timestep", "nl_compute"));
            assertTrue(t.definitions().communicators().stream().skip(1).allMatch(c -> c.size() <= 16));
        }
        assertEquals(0, wait[0], 1e-12, "128 divides the 2048 units: balanced sub-communicators");
        // 2048 = 192 × 10 + 128: per step one unit (2e-5 s) at the 4 or 5 ranks of each of the 12 sub-communicators
        // that got one unit less, over 3 steps
        assertEquals(3 * 2e-5 * (192 - 128), wait[1], 1e-12);
        assertTrue(nl[1] < nl[0]);
    }

    @Test
    void graph500LikeRunTimeIsTheLawExactlyWithoutNoise() throws Exception {
        Scenario s = Scenarios.byName("graph500-like");
        for (int p : new int[] {1, 2, 3, 4, 9, 16}) {
            MemoryTrace t = new MemoryTrace("g");
            ExpectedSeverities e = s.generate(new ScenarioParams(p, 1, Map.of()), t).expected();
            double measured = t.definitions().clock().traceLength() / 1e9;
            assertEquals(e.scaling().predictedRuntime(), measured, 1e-12, "p=" + p);
            double law = 0.2 + 4.0 / p + 0.5 / Math.sqrt(p);
            assertEquals(law, measured, 1e-6 * law, "p=" + p);
        }
    }

    @Test
    void deepCallTreeShortHelpersAreMoreThan98PercentOfFunctionEventsAndNeverCommunicate() throws Exception {
        MemoryTrace t = new MemoryTrace("deep");
        ExpectedSeverities e = Scenarios.byName("deep-calltree").generate(new ScenarioParams(3, 1, Map.of("iterations", "4")), t).expected();
        ExpectedSeverities.Filter f = e.filter();
        Set<Integer> helpers = new HashSet<>();
        for (String h : f.exclude()) {
            helpers.add(t.definitions().regionId(h));
        }
        long helperEvents = 0;
        long allEvents = 0;
        for (int loc = 0; loc < 3; loc++) {
            EventBatch b = t.readLocation(loc);
            int openHelpers = 0;
            for (int i = 0; i < b.size; i++) {
                byte k = b.kind[i];
                if (k == EventKind.ENTER_CODE || k == EventKind.LEAVE_CODE) {
                    allEvents++;
                    if (helpers.contains(b.ref[i])) {
                        helperEvents++;
                        openHelpers += k == EventKind.ENTER_CODE ? 1 : -1;
                    } else {
                        assertEquals(0, openHelpers, "a helper calls another function");
                    }
                } else if (k != EventKind.PROGRAM_BEGIN_CODE && k != EventKind.PROGRAM_END_CODE) {
                    assertEquals(0, openHelpers, "a helper communicates");
                }
            }
        }
        assertEquals(f.shortCallEventFraction(), helperEvents / (double) allEvents, 1e-12);
        assertTrue(f.shortCallEventFraction() > 0.98);
        Profiles pr = new Profiles(t);
        assertEquals(3 * f.callsPerRank().get("vec_get"),
                pr.visits.get("main/solve_step/level_1/level_2/level_3/level_4/level_5/level_6/level_7/level_8/kernel/vec_get"));
    }
}
