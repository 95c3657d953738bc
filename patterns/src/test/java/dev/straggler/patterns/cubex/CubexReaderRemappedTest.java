package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * trace.cubex is scout.cubex remapped by CubeLib into Scalasca's metric hierarchy, every metric stored as
 * INCLUSIVE rows; {@code scalasca_tree_totals.csv} is each metric's whole-run value printed by CubeLib.
 */
class CubexReaderRemappedTest {

    @Test
    void traceCubexHierarchyTotalsMatchCubeLib() throws IOException {
        List<String> mismatches = new ArrayList<>();
        for (Path dir : RealCubes.experiments()) {
            Path trace = dir.resolve("trace.cubex");
            Path totalsFile = dir.resolve("scalasca_tree_totals.csv");
            if (!Files.exists(trace) || !Files.exists(totalsFile)) {
                continue;
            }
            CubexReadResult r = CubexReader.readDetailed(trace);
            SeverityCube cube = r.cube();
            List<String> lines = Files.readAllLines(totalsFile);
            String[] names = lines.get(0).split(",");
            String[] values = lines.get(1).split(",");
            for (int col = 1; col < names.length; col++) {
                int m = cube.metricIndex(names[col]);
                if (m < 0) {
                    mismatches.add(dir.getFileName() + " " + names[col] + ": not read");
                    continue;
                }
                double expected = Double.parseDouble(values[col]);
                double actual = cube.total(m);
                if (!RealCubes.sameAtSixDigits(actual, expected)) {
                    mismatches.add(dir.getFileName() + " " + names[col] + ": read " + actual + ", CubeLib " + expected);
                }
            }
            assertEquals(names.length - 1, cube.metrics().size(), dir + ": metrics read " + r.skipped());
        }
        assertTrue(mismatches.isEmpty(), mismatches.toString());
    }

    @Test
    void traceCubeMetricTreeIsScalascaHierarchy() throws IOException {
        Path dir = RealCubes.experiments().get(0);
        SeverityCube cube = CubexReader.read(dir.resolve("trace.cubex"));
        assertEquals("mpi_point2point", cube.metric("mpi_latesender").parent());
        assertEquals("mpi_communication", cube.metric("mpi_point2point").parent());
        assertEquals("execution", cube.metric("mpi").parent());
        assertEquals("time", cube.metric("execution").parent());
        assertEquals(null, cube.metric("time").parent());
    }
}
