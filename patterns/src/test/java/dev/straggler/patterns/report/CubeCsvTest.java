package dev.straggler.patterns.report;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.DeterminismTest;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CubeCsvTest {
    /**
     * Each value is the shortest text that reads back to the cube's double: never the 17 significant digits padded
     * with zeros, never E notation. Every written value is found again in the cube, and every non-zero cube value is
     * written.
     */
    @Test
    void valuesAreTheShortestTextThatReadsBackToTheCube() throws IOException {
        SeverityCube c = Analysis.run(DeterminismTest.randomTrace(4, 6, 7).build(),
                AnalysisOptions.defaults().withThreads(2)).cube();
        StringWriter w = new StringWriter();
        CubeCsv.write(c, w);
        List<String> rows = w.toString().lines().skip(1).toList();
        long nonZero = 0;
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                for (int l = 0; l < c.locations().size(); l++) {
                    nonZero += c.get(m, p, l) != 0 ? 1 : 0;
                }
            }
        }
        assertEquals(nonZero, rows.size());
        int row = 0;
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                for (int l = 0; l < c.locations().size(); l++) {
                    if (c.get(m, p, l) == 0) {
                        continue;
                    }
                    String line = rows.get(row++);
                    String text = line.substring(line.lastIndexOf(',') + 1);
                    assertFalse(text.contains("E") || text.matches(".*\\.[0-9]*0"), line);
                    assertEquals(c.get(m, p, l), Double.parseDouble(text), line);
                }
            }
        }
        assertTrue(rows.stream().anyMatch(r -> r.matches(".*,0\\.0[0-9]*[1-9]")), "no value below 0.1");
    }
}
