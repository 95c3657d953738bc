package dev.straggler.patterns.algebra;

import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OperandsTest {

    @Test
    void cubexAndTraceOperandsAreNamedAfterTheirExperimentAndAgree() throws Exception {
        java.nio.file.Path dir = ScalascaMgSeries.dir(4);
        SeverityCube scout = Operands.load(dir.resolve("scout.cubex"), AnalysisOptions.defaults());
        assertEquals("npb-mg.S-4/scout.cubex", scout.attributes().get("name"));
        SeverityCube analysed = Operands.load(dir.resolve("traces.otf2"), AnalysisOptions.defaults());
        assertEquals("npb-mg.S-4/traces.otf2", analysed.attributes().get("name"));
        // Straggler's analysis of the trace against Scalasca's: total time and visits agree (6 digits printed by Scalasca).
        double t = ScalascaMgSeries.totals(4).get("time");
        assertEquals(t, analysed.total("time"), 1e-5 * t);
        assertEquals(ScalascaMgSeries.totals(4).get("visits"), analysed.total("visits"));
        // ... so the algebra can compare them directly: their difference in total time is within the rounding.
        assertEquals(0, ProfileAlgebra.diff(analysed, scout).total("time"), 1e-5 * t);
    }

    @Test
    void analysisDocumentsAreOperands(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path dir = ScalascaMgSeries.dir(2);
        dev.straggler.patterns.AnalysisResult r;
        try (dev.straggler.trace.TraceSource t = dev.straggler.trace.Traces.open(dir.resolve("traces.otf2"))) {
            r = dev.straggler.patterns.Analysis.run(t, AnalysisOptions.defaults());
        }
        java.nio.file.Path json = tmp.resolve("mg2.json");
        dev.straggler.patterns.report.AnalysisJson.write(r, json);
        SeverityCube c = Operands.load(json, AnalysisOptions.defaults());
        assertEquals("mg2", c.attributes().get("name"));
        assertEquals(r.cube().total("time"), c.total("time"), 1e-9 * r.cube().total("time"));
    }
}
