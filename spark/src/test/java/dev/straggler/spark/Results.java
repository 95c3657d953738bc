package dev.straggler.spark;

import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.report.AnalysisJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Exact comparison of two analyses: every cube value, and everything else the JSON result carries. */
final class Results {
    private Results() {
    }

    static void assertSame(AnalysisResult expected, AnalysisResult actual) throws IOException {
        SeverityCube e = expected.cube();
        SeverityCube a = actual.cube();
        assertEquals(e.callPaths(), a.callPaths(), "call tree");
        assertEquals(e.locations(), a.locations(), "system tree");
        assertEquals(e.metrics().size(), a.metrics().size(), "metrics");
        for (int cp = 0; cp < e.callPaths().size(); cp++) {
            assertEquals(e.cnodeId(cp), a.cnodeId(cp), "cnode id of call path " + cp);
        }
        for (int m = 0; m < e.metrics().size(); m++) {
            for (int cp = 0; cp < e.callPaths().size(); cp++) {
                double[] x = e.rowOrNull(m, cp);
                double[] y = a.rowOrNull(m, cp);
                String where = e.metrics().get(m).uniqueName() + " at " + String.join("/", e.pathNames(cp));
                if (x == null || y == null) {
                    assertEquals(0, sum(x), where);
                    assertEquals(0, sum(y), where);
                } else {
                    // exact: the same integer ticks converted the same way
                    assertArrayEquals(x, y, 0.0, where);
                }
            }
        }
        assertEquals(json(expected), json(actual), "analysis JSON (summary, instances, warnings, communicators)");
    }

    private static double sum(double[] row) {
        double s = 0;
        if (row != null) {
            for (double v : row) {
                s += Math.abs(v);
            }
        }
        return s;
    }

    static String json(AnalysisResult r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AnalysisJson.write(r, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
