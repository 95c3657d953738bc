package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The algebra on Scalasca's own analyses of a real scaling series (NPB MG class S, 2 to 16 ranks). */
class AlgebraOnScalascaResultsTest {

    @Test
    void differenceOfTwoRunsHasTheDifferenceOfScalascasTotals() throws Exception {
        for (int[] pair : new int[][]{{8, 4}, {16, 2}}) {
            SeverityCube a = ScalascaMgSeries.cube(pair[0]);
            SeverityCube b = ScalascaMgSeries.cube(pair[1]);
            Map<String, Double> ta = ScalascaMgSeries.totals(pair[0]);
            Map<String, Double> tb = ScalascaMgSeries.totals(pair[1]);
            SeverityCube d = ProfileAlgebra.diff(a, b);
            assertEquals(CubeAttributes.SYSTEM_SUM, d.attributes().get(CubeAttributes.SYSTEM));
            int checked = 0;
            for (int m = 0; m < d.metrics().size(); m++) {
                String name = d.metrics().get(m).uniqueName();
                if (!ta.containsKey(name)) {
                    continue;
                }
                double expected = ta.get(name) - tb.get(name);
                // Both totals carry 6 significant digits; so does their difference, up to the larger operand.
                double tol = 1e-5 * Math.max(Math.abs(ta.get(name)), Math.abs(tb.get(name))) + 1e-12;
                assertEquals(expected, d.total(m), tol, name + " " + pair[0] + " - " + pair[1]);
                checked++;
            }
            assertTrue(checked > 40, "metrics compared: " + checked);
        }
    }

    @Test
    void aDifferenceWrittenAsCubexReadsBackAsAnOperand(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        SeverityCube d = ProfileAlgebra.diff(ScalascaMgSeries.cube(16), ScalascaMgSeries.cube(8));
        java.nio.file.Path file = tmp.resolve("diff.cubex");
        dev.straggler.patterns.cubex.CubexWriter.write(d, file);
        SeverityCube back = dev.straggler.patterns.cubex.CubexReader.read(file);
        assertEquals(d.metrics().size(), back.metrics().size());
        for (int m = 0; m < d.metrics().size(); m++) {
            String name = d.metrics().get(m).uniqueName();
            double tol = 1e-9 * Math.max(1, Math.abs(d.total(m)));
            assertEquals(d.total(m), back.total(name), tol, name);
        }
        assertEquals(CubeAttributes.SYSTEM_SUM, back.attributes().get(CubeAttributes.SYSTEM));
        // ... and the read-back difference is an operand again: (A - B) - (A - B) = 0.
        SeverityCube zero = ProfileAlgebra.diff(back, d);
        for (int m = 0; m < zero.metrics().size(); m++) {
            assertEquals(0, zero.total(m), 1e-9 * Math.max(1, Math.abs(d.total(zero.metrics().get(m).uniqueName()))));
        }
    }

    @Test
    void lawsHoldOnARealCube() throws Exception {
        SeverityCube a = ScalascaMgSeries.cube(4);
        SeverityCube zero = ProfileAlgebra.diff(a, a);
        for (int m = 0; m < zero.metrics().size(); m++) {
            for (int p = 0; p < zero.callPaths().size(); p++) {
                double[] row = zero.rowOrNull(m, p);
                if (row != null) {
                    for (double v : row) {
                        assertEquals(0.0, v);
                    }
                }
            }
        }
        SeverityCube mean = ProfileAlgebra.mean(List.of(a, a, a));
        assertEquals(a.callPaths().size(), mean.callPaths().size());
        for (int m = 0; m < a.metrics().size(); m++) {
            for (int p = 0; p < a.callPaths().size(); p++) {
                for (int l = 0; l < a.locations().size(); l++) {
                    assertEquals(a.get(m, p, l), mean.get(m, p, l));
                }
            }
        }
    }

    @Test
    void diffReportOfTheScalingSeriesSaysTheSystemWasCollapsed() throws Exception {
        DiffReport r = DiffReport.of(ScalascaMgSeries.cube(16), ScalascaMgSeries.cube(8));
        assertTrue(r.collapsed());
        assertEquals(16, r.minuendRanks());
        double t16 = ScalascaMgSeries.totals(16).get("time");
        double t8 = ScalascaMgSeries.totals(8).get("time");
        assertEquals((t16 - t8) / t8, r.totalTime().relative(), 1e-5);
        assertEquals(t16 / 16, r.totalTime().aPerRank(), 1e-5 * t16);
        assertTrue(r.headline().startsWith(String.format(java.util.Locale.ROOT, "total time %+.1f %%", 100 * (t16 - t8) / t8)),
                r.headline());
    }
}
