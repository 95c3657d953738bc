package dev.straggler.patterns;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.replay.TraceBuilder;

import java.io.IOException;
import java.util.List;

/** Test helper: analyses a hand-built trace and reads values by metric, rank and call path names. */
public final class Severities {
    public final AnalysisResult result;

    Severities(AnalysisResult result) {
        this.result = result;
    }

    public static Severities analyse(TraceBuilder b) throws IOException {
        return analyse(b, 2);
    }

    public static Severities analyse(TraceBuilder b, int threads) throws IOException {
        return new Severities(Analysis.run(b.build(), AnalysisOptions.defaults().withThreads(threads)));
    }

    /** Value of a metric at one call path (given by its region names from the root) on one rank's master thread. */
    public double at(String metric, int rank, String... path) {
        SeverityCube c = result.cube();
        int cp = callPath(path);
        return c.get(c.metricIndex(metric), cp, rank);
    }

    /** Value in nanosecond ticks (the builder's clock), rounded. */
    public long ns(String metric, int rank, String... path) {
        return Math.round(at(metric, rank, path) * 1e9);
    }

    public long totalNs(String metric) {
        return Math.round(result.cube().total(metric) * 1e9);
    }

    public double total(String metric) {
        return result.cube().total(metric);
    }

    public int callPath(String... path) {
        SeverityCube c = result.cube();
        for (int i = 0; i < c.callPaths().size(); i++) {
            if (c.pathNames(i).equals(List.of(path))) {
                return i;
            }
        }
        throw new AssertionError("no call path " + String.join("/", path));
    }
}
