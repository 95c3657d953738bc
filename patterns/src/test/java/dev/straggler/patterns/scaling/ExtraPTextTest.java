package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
