package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CubexRoundTripTest {
    @TempDir
    Path tmp;

    @Test
    void writtenCubeReadsBackWithIdenticalDefinitionsAndValues() throws IOException {
        SeverityCube in = TestCubes.sample();
        Path f = tmp.resolve("sample.cubex");
        CubexWriter.write(in, f);
        CubexReadResult r = CubexReader.readDetailed(f);
        SeverityCube out = r.cube();

        assertTrue(r.skipped().isEmpty(), r.skipped().toString());
        assertEquals(in.metrics(), out.metrics());
        assertEquals(in.callPaths(), out.callPaths());
        assertEquals(in.regions(), out.regions());
        assertEquals(in.locations(), out.locations());
        assertEquals("ring & <pong>", out.attributes().get("Application"));
        for (int m = 0; m < in.metrics().size(); m++) {
            for (int p = 0; p < in.callPaths().size(); p++) {
                for (int l = 0; l < in.locations().size(); l++) {
                    // stored, not printed: counts are exact; times are written inclusive along the call tree and read
                    // back as own value minus callees, which may differ in the last bit of the sum (1e-15 s here)
                    double tolerance = in.metrics().get(m).integer() ? 0 : 1e-15;
                    assertEquals(in.get(m, p, l), out.get(m, p, l), tolerance,
                            in.metrics().get(m).uniqueName() + " path " + p + " loc " + l);
                }
            }
        }
        assertEquals(4_503_599_627_370_497.0, out.get(out.metricIndex("bytes_sent"), 3, 1), 0.0);
        assertNull(out.rowOrNull(out.metricIndex("mpi_latereceiver"), 0));
    }

    @Test
    void integerMetricWithFractionalValuesIsWrittenAsFloatWithoutRounding() throws IOException {
        SeverityCube in = new SeverityCube(List.of(Metric.count("visits", "Visits", null, "")),
                TestCubes.regions(), TestCubes.preOrderCallTree(), TestCubes.locations(), Map.of());
        in.set(0, 2, 1, 2.5); // e.g. a mean over experiments
        Path f = tmp.resolve("mean.cubex");
        CubexWriter.write(in.freeze(), f);
        SeverityCube out = CubexReader.read(f);
        assertEquals(2.5, out.get(0, 2, 1), 0.0);
        assertFalse(out.metrics().get(0).integer());
    }

    @Test
    void callPathsOutOfPreOrderAreRenumberedKeepingEachPathsValues() throws IOException {
        // breadth-first ids: 0 main, 1 MPI_Recv@12, 2 solve, 3 MPI_Recv@30, 4 solve/MPI_Send, 5 solve/MPI_Allreduce
        List<CallPath> bfs = List.of(
                new CallPath(0, -1, 0, 0), new CallPath(1, 0, 1, 12), new CallPath(2, 0, 3, 0),
                new CallPath(3, 0, 1, 30), new CallPath(4, 2, 2, 0), new CallPath(5, 2, 4, 0));
        SeverityCube in = new SeverityCube(TestCubes.metrics(), TestCubes.regions(), bfs, TestCubes.locations(), Map.of());
        for (int p = 0; p < 6; p++) {
            in.set(0, p, 0, p + 1);
        }
        Path f = tmp.resolve("bfs.cubex");
        CubexWriter.write(in.freeze(), f);
        SeverityCube out = CubexReader.read(f);

        Map<String, Double> expected = byPath(in);
        assertEquals(expected, byPath(out));
        // the file order is the depth-first one: solve's children come right after it
        assertEquals(List.of("main", "solve<double>", "MPI_Send"), out.pathNames(3));
    }

    @Test
    void locationsNotGroupedByRankAreReorderedWithTheirColumns() throws IOException {
        List<SystemLocation> mixed = List.of(
                new SystemLocation(0, 1, 0, "Master thread"), new SystemLocation(1, 0, 0, "Master thread"),
                new SystemLocation(2, 1, 1, "t1"), new SystemLocation(3, 0, 1, "t1"));
        SeverityCube in = new SeverityCube(TestCubes.metrics(), TestCubes.regions(), TestCubes.preOrderCallTree(), mixed, Map.of());
        for (int l = 0; l < 4; l++) {
            in.set(0, 0, l, 10 + l);
        }
        Path f = tmp.resolve("mixed.cubex");
        CubexWriter.write(in.freeze(), f);
        SeverityCube out = CubexReader.read(f);
        List<String> ranksThreads = new ArrayList<>();
        for (SystemLocation l : out.locations()) {
            ranksThreads.add(l.rank() + "." + l.thread());
        }
        assertEquals(List.of("0.0", "0.1", "1.0", "1.1"), ranksThreads);
        // rank 0 thread 0 was column 1 (value 11), rank 0 thread 1 column 3 (13), rank 1: 10 and 12
        assertArrayEquals(new double[]{11, 13, 10, 12}, out.rowOrNull(0, 0), 0.0);
    }

    @Test
    void scalascaReportRewrittenByUsReadsBackToTheSameValues() throws IOException {
        for (Path dir : RealCubes.experiments()) {
            SeverityCube first = CubexReader.read(dir.resolve("scout.cubex"));
            Path f = tmp.resolve(dir.getFileName() + ".cubex");
            CubexWriter.write(first, f);
            SeverityCube second = CubexReader.read(f);
            assertEquals(first.metrics(), second.metrics(), dir.toString());
            assertEquals(first.regions(), second.regions(), dir.toString());
            assertEquals(first.locations(), second.locations(), dir.toString());
            assertEquals("Straggler", second.attributes().get("Creator"), "this file is ours");
            assertEquals("Scalasca Trace Analyzer 2.6", second.attributes().get("Source creator"));
            Map<String, Double> a = new HashMap<>();
            Map<String, Double> b = new HashMap<>();
            for (int p = 0; p < first.callPaths().size(); p++) {
                String pathA = first.pathNames(p).toString();
                String pathB = second.pathNames(p).toString();
                for (int m = 0; m < first.metrics().size(); m++) {
                    for (int l = 0; l < first.locations().size(); l++) {
                        a.merge(m + " " + pathA + " " + l, first.get(m, p, l), Double::sum);
                        b.merge(m + " " + pathB + " " + l, second.get(m, p, l), Double::sum);
                    }
                }
            }
            assertEquals(a.keySet(), b.keySet(), dir.toString());
            for (Map.Entry<String, Double> e : a.entrySet()) {
                // written inclusive along the call tree, read back as own value minus callees: equal to the last bits
                double x = e.getValue();
                double y = b.get(e.getKey());
                assertEquals(x, y, 1e-12 * Math.abs(x) + 1e-15, dir + ": " + e.getKey());
            }
        }
    }

    private static Map<String, Double> byPath(SeverityCube c) {
        Map<String, Double> m = new HashMap<>();
        for (int p = 0; p < c.callPaths().size(); p++) {
            m.put(c.pathNames(p) + "@" + c.callPaths().get(p).callsite(), c.get(0, p, 0));
        }
        return m;
    }
}
