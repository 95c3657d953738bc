package dev.straggler.patterns.scaling;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delay costs and the critical path in the scaling analyses. A run on p ranks: every rank spends 15 s in
 * main > MPI_Recv (the MPI time, 15·p in all), of which 0.01·p s Late Sender. Its cause is rank 0's {@code solve}:
 * 0.01·p² s of Late Sender delay (60 % short-term, 40 % long-term), growing faster than the MPI time. Rank 0's
 * {@code init} causes 2 s of Wait at N x N delay at every p, a shrinking part of the MPI time, and 0.001 s of Late
 * Receiver delay (below 1 % of the delay costs at every p). The critical path: 1 + 0.1·p s in solve on rank 0, and
 * 0.05 s of it is imbalance.
 */
class CauseScalingTest {
    static final List<Metric> METRICS = List.of(
            Metric.time("time", "Time", null, ""),
            Metric.time("mpi", "MPI", "time", ""),
            Metric.time("mpi_latesender", "Late Sender", "mpi", ""),
            Metric.time("delay_latesender", "Short-term", null, ""),
            Metric.time("delay_latesender_longterm", "Long-term", null, ""),
            Metric.time("delay_latereceiver", "Short-term", null, ""),
            Metric.time("delay_n2n", "Short-term", null, ""),
            Metric.time("critical_path", "Critical path", null, ""),
            Metric.time("critical_path_imbalance", "Imbalance", "critical_path", ""));
    static final int MAIN = 0;
    static final int SOLVE = 1;
    static final int INIT = 2;
    static final int RECV = 3;

    static SeverityCube run(int p, boolean rootCauses) {
        List<Region> regions = new ArrayList<>();
        String[] names = {"main", "solve", "init", "MPI_Recv"};
        for (int i = 0; i < names.length; i++) {
            boolean mpi = names[i].startsWith("MPI_");
            regions.add(new Region(i, names[i], names[i], mpi ? "MPI" : "a.c", 0, 0, mpi ? Paradigm.MPI : Paradigm.USER,
                    RegionRole.FUNCTION));
        }
        List<CallPath> paths = List.of(new CallPath(MAIN, -1, 0, 0), new CallPath(SOLVE, MAIN, 1, 0),
                new CallPath(INIT, MAIN, 2, 0), new CallPath(RECV, MAIN, 3, 0));
        List<SystemLocation> locs = new ArrayList<>();
        for (int r = 0; r < p; r++) {
            locs.add(new SystemLocation(r, r, 0, "r" + r));
        }
        SeverityCube c = new SeverityCube(METRICS, regions, paths, locs, Map.of("name", "p" + p));
        for (int r = 0; r < p; r++) {
            c.set(0, RECV, r, 15);
            c.set(1, RECV, r, 15);
            c.set(2, RECV, r, 0.01 * p);
        }
        if (rootCauses) {
            c.set(3, SOLVE, 0, 0.6 * 0.01 * p * p);
            c.set(4, SOLVE, 0, 0.4 * 0.01 * p * p);
            c.set(5, INIT, 0, 0.001);
            c.set(6, INIT, 0, 2);
            c.set(7, SOLVE, 0, 1 + 0.1 * p);
            c.set(8, SOLVE, 0, 0.05);
        }
        return c.freeze();
    }

    static List<SeverityCube> series(boolean rootCauses) {
        List<SeverityCube> out = new ArrayList<>();
        for (int p : new int[]{4, 8, 16, 32, 64}) {
            out.add(run(p, rootCauses));
        }
        return out;
    }

    private static RankCorrelation.Row row(WaitStateScaling.Result r, String key) {
        return r.analysis().rows().stream().filter(x -> x.key().equals(key)).findFirst().orElseThrow(
                () -> new AssertionError(key + " not among " + r.analysis().rows().stream().map(RankCorrelation.Row::key).toList()));
    }

    private static MeasurementSeries series(List<MeasurementSeries> all, String metric, List<String> path) {
        return all.stream().filter(s -> s.metric().equals(metric) && s.callPath().equals(path)).findFirst()
                .orElseThrow(() -> new AssertionError(metric + " @ " + path));
    }

    @Test
    void delayCostsRankWithTheWaitStatesByTheirShareOfMpiTime() {
        WaitStateScaling.Result r = WaitStateScaling.analyse(series(true), new RankCorrelation.Options(0));
        RankCorrelation.Row solve = row(r, "Late Sender delay @ main/solve");
        assertEquals(1.0, solve.rs(), 1e-12);
        // at p = 8: 0.64 s of delay over 8 · 15 s of MPI time
        assertEquals(0.64 / 120, solve.series().get(1).share(), 1e-12);
        assertEquals("delay_latesender_aggregate", r.keys().get(solve.key()).metric());
        RankCorrelation.Row init = row(r, "Wait at N x N delay @ main/init");
        assertEquals(-1.0, init.rs(), 1e-12);
        assertTrue(r.analysis().rows().stream().noneMatch(x -> x.key().startsWith("Critical")),
                "the critical path is no part of the communication time");
    }

    @Test
    void delayCostsAreLeftOutWithANoteWhenARunHasNone() {
        List<SeverityCube> runs = new ArrayList<>(series(true));
        runs.set(1, run(8, false));
        WaitStateScaling.Result r = WaitStateScaling.analyse(runs, new RankCorrelation.Options(0));
        assertTrue(r.analysis().rows().stream().noneMatch(x -> x.key().contains(" delay @ ")));
        assertTrue(r.analysis().notes().contains("delay costs left out: p8 has none (analysed without root causes?)"),
                r.analysis().notes().toString());
        assertFalse(WaitStateScaling.analyse(series(false), new RankCorrelation.Options(0)).analysis().notes().stream()
                .anyMatch(n -> n.contains("delay")), "no note when no run has delay costs");
    }

    @Test
    void modelSeriesOfDelaysArePerProcessAndTheCriticalPathIsNot() {
        List<SeverityCube> runs = series(true);
        List<MeasurementSeries> all = ScalingInputs.patternSeries(runs, ScalingInputs.ranks(runs));
        MeasurementSeries solve = series(all, "delay_latesender_aggregate", List.of("main", "solve"));
        MeasurementSeries path = series(all, "critical_path", List.of());
        MeasurementSeries pathInSolve = series(all, "critical_path", List.of("main", "solve"));
        MeasurementSeries imbalance = series(all, "critical_path_imbalance", List.of());
        MeasurementSeries delay = series(all, "delay", List.of());
        for (int i = 0; i < 5; i++) {
            double p = 4 << i;
            assertEquals(0.01 * p, solve.values()[i], 1e-12);
            assertEquals(1 + 0.1 * p, path.values()[i], 1e-12);
            assertEquals(1 + 0.1 * p, pathInSolve.values()[i], 1e-12);
            assertEquals(0.05, imbalance.values()[i], 1e-15);
            assertEquals((0.01 * p * p + 2.001) / p, delay.values()[i], 1e-12);
        }
    }

    @Test
    void aDelaySeriesIsFittedLikeAWaitState() {
        List<SeverityCube> runs = series(true);
        List<MeasurementSeries> all = ScalingInputs.patternSeries(runs, ScalingInputs.ranks(runs));
        PmnfModel m = ModelSearch.fitAll(List.of(series(all, "delay_latesender_aggregate", List.of("main", "solve"))),
                PmnfModeler.Options.defaults()).get(0).model();
        assertEquals(1.0, m.term().exponent(), 1e-12);
        assertEquals(0, m.term().logExponent());
        assertEquals(0.01, m.c1(), 1e-9);
    }

    @Test
    void causesBelowOnePercentOfTheDelayCostsAreNotModelled() {
        List<SeverityCube> runs = series(true);
        List<MeasurementSeries> all = ScalingInputs.patternSeries(runs, ScalingInputs.ranks(runs));
        assertTrue(all.stream().noneMatch(s -> s.metric().equals("delay_latereceiver_aggregate")));
        assertTrue(all.stream().anyMatch(s -> s.metric().equals("delay_n2n_aggregate")));
    }

    @Test
    void runsWithoutRootCausesGiveTheModelNoRootCauseSeries() {
        List<SeverityCube> runs = new ArrayList<>(series(true));
        runs.set(0, run(4, false));
        List<MeasurementSeries> all = ScalingInputs.patternSeries(runs, ScalingInputs.ranks(runs));
        assertTrue(all.stream().noneMatch(s -> s.metric().startsWith("delay") || s.metric().startsWith("critical")));
    }
}
