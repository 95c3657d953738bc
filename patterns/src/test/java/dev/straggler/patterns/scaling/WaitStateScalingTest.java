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
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitStateScalingTest {
    static final List<Metric> METRICS = List.of(
            Metric.time("time", "Time", null, ""),
            Metric.time("mpi_latesender", "Late Sender", "time", ""),
            Metric.time("mpi_wait_nxn", "Wait at N x N", "time", ""));

    /**
     * A run on p ranks (each rank alike): main > solve > MPI_Recv takes 10 s per rank of which Late Sender is
     * 0.01·p s (growing with p); main > MPI_Allreduce takes 5 s per rank of which Wait at N x N is 2/p s (shrinking);
     * main itself computes 100/p s. Regions are numbered differently at every p.
     */
    static SeverityCube run(int p) {
        List<Region> regions = new ArrayList<>();
        String[] names = p % 2 == 0 ? new String[]{"main", "solve", "MPI_Recv", "MPI_Allreduce"}
                : new String[]{"MPI_Allreduce", "MPI_Recv", "solve", "main"};
        for (int i = 0; i < names.length; i++) {
            boolean mpi = names[i].startsWith("MPI_");
            regions.add(new Region(i, names[i], names[i], mpi ? "MPI" : "a.c", 0, 0, mpi ? Paradigm.MPI : Paradigm.USER,
                    RegionRole.FUNCTION));
        }
        int main = List.of(names).indexOf("main");
        List<CallPath> paths = List.of(new CallPath(0, -1, main, 0), new CallPath(1, 0, List.of(names).indexOf("solve"), 0),
                new CallPath(2, 1, List.of(names).indexOf("MPI_Recv"), 0), new CallPath(3, 0, List.of(names).indexOf("MPI_Allreduce"), 0));
        List<SystemLocation> locs = new ArrayList<>();
        for (int r = 0; r < p; r++) {
            locs.add(new SystemLocation(r, r, 0, "r" + r));
        }
        SeverityCube c = new SeverityCube(METRICS, regions, paths, locs, Map.of("name", "p" + p));
        for (int r = 0; r < p; r++) {
            c.set(0, 0, r, 100.0 / p);
            c.set(0, 2, r, 10);
            c.set(1, 2, r, 0.01 * p);
            c.set(0, 3, r, 5);
            c.set(2, 3, r, 2.0 / p);
        }
        return c.freeze();
    }

    @Test
    void theWaitStateThatGrowsWithPRanksFirst() {
        List<SeverityCube> runs = List.of(run(4), run(8), run(16), run(32), run(64));
        WaitStateScaling.Result r = WaitStateScaling.analyse(runs, RankCorrelation.Options.defaults());
        RankCorrelation.Row top = r.analysis().rows().get(0);
        assertEquals("Late Sender @ main/solve/MPI_Recv", top.key());
        assertEquals(1.0, top.rs(), 1e-12);
        WaitStateScaling.Key k = r.keys().get(top.key());
        assertEquals("mpi_latesender", k.metric());
        assertEquals(List.of("main", "solve", "MPI_Recv"), k.path());
        RankCorrelation.Row last = r.analysis().rows().get(r.analysis().rows().size() - 1);
        assertEquals("Wait at N x N @ main/MPI_Allreduce", last.key());
        assertEquals(-1.0, last.rs(), 1e-12);
        // The share is the severity over the MPI time: at p = 8, 8 * 0.08 s of 8 * 15 s.
        assertEquals(0.08 / 15, top.series().get(1).share(), 1e-12);
        assertTrue(r.denominators().get(0).endsWith("time in MPI regions other than MPI_Init/MPI_Finalize"), r.denominators().toString());
    }

    @Test
    void modelInputsArePerProcessTimes() {
        List<SeverityCube> runs = List.of(run(4), run(8), run(16));
        int[] tasks = ScalingInputs.ranks(runs);
        List<ModelPoint> pts = ScalingInputs.modelPoints(runs, tasks);
        // At p = 8: 12.5 s computation in main, 15 s in MPI per rank.
        assertEquals(27.5, pts.get(1).total(), 1e-12);
        assertEquals(12.5, pts.get(1).computation(), 1e-12);
        assertEquals(15, pts.get(1).communication(), 1e-12);
        MedyaModel.Fit comp = MedyaModel.fit(new double[]{4, 8, 16}, pts.stream().mapToDouble(ModelPoint::computation).toArray());
        assertEquals(100, comp.c1(), 1e-9);
        List<MeasurementSeries> series = ScalingInputs.patternSeries(runs, tasks);
        MeasurementSeries ls = series.stream().filter(s -> s.metric().equals("mpi_latesender")).findFirst().orElseThrow();
        assertEquals(List.of("main", "solve", "MPI_Recv"), ls.callPath());
        assertEquals(0.16, ls.values()[2], 1e-12);
        assertEquals(3, series.stream().filter(s -> s.callPath().isEmpty()).count(), "time, comp and mpi of the whole run");
    }
}
