package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ExtraPTextTest {

    @Test
    void writesParameterPointsMetricRegionAndOneDataLinePerPoint() throws Exception {
        StringBuilder sb = new StringBuilder();
        ExtraPText.write(sb, "p", List.of(
                new MeasurementSeries("time", List.of("main", "solve"), new double[]{8, 4, 8, 16},
                        new double[]{2.5, 4, 2.75, 1.25}),
                new MeasurementSeries("time", List.of("main", "MPI_Allreduce"), new double[]{4, 16},
                        new double[]{0.000001, 12000000}),
                new MeasurementSeries("visits", List.of("main"), new double[]{4, 8, 16}, new double[]{1, 1, 1})));
        assertEquals("""
                # written by straggler
                PARAMETER p
                POINTS 4 8 16

                METRIC time
                REGION main->solve
                DATA 4
                DATA 2.5 2.75
                DATA 1.25
                REGION main->MPI_Allreduce
                DATA 0.000001
                DATA 0
                DATA 12000000

                METRIC visits
                REGION main
                DATA 1
                DATA 1
                DATA 1
                """, sb.toString());
    }

    @Test
    void nonFiniteValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ExtraPText.write(new StringBuilder(), "p",
                List.of(new MeasurementSeries("time", List.of("a"), new double[]{1}, new double[]{Double.NaN}))));
    }

    @Test
    void separatorsInsideRegionNamesAreBrokenUp() {
        assertEquals("a->b-_>c", ExtraPText.callPath(List.of("a", "b->c")));
    }

    /**
     * Per-process totals, callsites and call paths are kept apart so that Extra-P's single call tree shows each
     * region once: zran3 only under mg.S.x, never as a root of its own; every METRIC block written once.
     */
    @Test
    void totalsCallsitesAndCallPathsAreKeptApartForExtraPsTree() throws Exception {
        double[] p = {2, 4, 8};
        MeasurementSeries total = new MeasurementSeries("time", List.of(), p, new double[]{3, 2, 1.5});
        MeasurementSeries wait = new MeasurementSeries("mpi_wait_nxn", List.of("mg.S.x", "mg_mpi", "zran3", "MPI_Allreduce"),
                p, new double[]{0.1, 0.2, 0.3});
        MeasurementSeries site = new MeasurementSeries("time", List.of("mg_mpi", "zran3", "Allreduce"), p,
                new double[]{0.4, 0.5, 0.6});
        MeasurementSeries wait2 = new MeasurementSeries("mpi_wait_nxn", List.of("mg.S.x", "mg_mpi", "norm2u3", "MPI_Allreduce"),
                p, new double[]{0.1, 0.1, 0.1});
        StringBuilder sb = new StringBuilder();
        ExtraPText.write(sb, "p", ExtraPText.forExtraP(List.of(total, wait, site, wait2), List.of(site)));
        String text = sb.toString();
        assertTrue(text.contains("METRIC time_per_process\nREGION all\n"), text);
        assertTrue(text.contains("METRIC callsite_time\nREGION Allreduce<zran3<mg_mpi\n"), text);
        assertEquals(1, text.lines().filter(l -> l.equals("METRIC mpi_wait_nxn")).count(), text);
        // every REGION that contains a path separator starts at the program's root
        assertTrue(text.lines().filter(l -> l.startsWith("REGION ") && l.contains("->"))
                .allMatch(l -> l.startsWith("REGION mg.S.x->")), text);
    }
}
