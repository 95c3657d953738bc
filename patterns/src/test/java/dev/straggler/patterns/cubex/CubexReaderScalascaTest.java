package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ground truth: {@code scalasca_dump.csv} is CubeLib's {@code cube_dump -m all -c all -x incl -z excl -s csv2}
 * of each scout.cubex (every metric per cnode id and location, call-path exclusive, 6 significant digits),
 * and {@code scalasca_totals.txt} its column sums.
 */
class CubexReaderScalascaTest {

    @Test
    void scoutCubexReproducesEveryValueOfCubeDump() throws IOException {
        List<String> mismatches = new ArrayList<>();
        long compared = 0;
        for (Path dir : RealCubes.experiments()) {
            CubexReadResult r = CubexReader.readDetailed(dir.resolve("scout.cubex"));
            SeverityCube cube = r.cube();
            assertTrue(r.skipped().isEmpty(), dir + ": scout.cubex stores every metric, skipped " + r.skipped());
            try (BufferedReader in = Files.newBufferedReader(dir.resolve("scalasca_dump.csv"))) {
                String[] header = in.readLine().split(",");
                assertEquals(cube.metrics().size(), header.length - 2, dir + ": metric count");
                int[] metricOfColumn = new int[header.length];
                for (int col = 2; col < header.length; col++) {
                    metricOfColumn[col] = cube.metricIndex(header[col].trim());
                    assertTrue(metricOfColumn[col] >= 0, dir + ": dump metric " + header[col] + " not read");
                }
                int rows = 0;
                for (String line; (line = in.readLine()) != null; ) {
                    String[] f = line.split(",");
                    int callPath = r.callPathOfCnodeId(Integer.parseInt(f[0].trim()));
                    int location = Integer.parseInt(f[1].trim());
                    assertTrue(callPath >= 0, dir + ": cnode " + f[0] + " missing");
                    for (int col = 2; col < header.length; col++) {
                        double expected = Double.parseDouble(f[col]);
                        double actual = cube.get(metricOfColumn[col], callPath, location);
                        compared++;
                        if (!RealCubes.sameAtSixDigits(actual, expected)) {
                            mismatches.add(dir.getFileName() + " cnode " + f[0] + " loc " + location + " "
                                    + header[col] + ": read " + actual + ", cube_dump " + expected);
                        }
                    }
                    rows++;
                }
                // the dump lists every (cnode, location) pair, so every value of the cube was compared
                assertEquals(cube.callPaths().size() * cube.locations().size(), rows, dir + ": dump rows");
            }
        }
        assertTrue(mismatches.isEmpty(), mismatches.size() + " of " + compared + " values differ, e.g. "
                + mismatches.subList(0, Math.min(10, mismatches.size())));
    }

    @Test
    void scoutCubexTotalsMatchScalascaTotals() throws IOException {
        for (Path dir : RealCubes.experiments()) {
            SeverityCube cube = CubexReader.read(dir.resolve("scout.cubex"));
            Map<String, Double> totals = totals(dir.resolve("scalasca_totals.txt"));
            assertEquals(cube.metrics().size(), totals.size(), dir + ": metric count");
            for (Map.Entry<String, Double> e : totals.entrySet()) {
                double actual = cube.total(e.getKey());
                double expected = e.getValue();
                // the totals are sums of 6-digit dump values, so they carry the dump's rounding
                assertEquals(expected, actual, 1e-5 * Math.abs(expected) + 1e-9, dir + " " + e.getKey());
            }
        }
    }

    static Map<String, Double> totals(Path file) throws IOException {
        Map<String, Double> totals = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            totals.put(f[0], Double.parseDouble(f[1]));
        }
        return totals;
    }
}
