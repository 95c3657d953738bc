package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.SeverityCube;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * profile.cubex is Score-P's own call-path profile (visits as UINT64 EXCLUSIVE, time as DOUBLE INCLUSIVE,
 * min/max time as MINDOUBLE/MAXDOUBLE). Ground truth: {@code scorep_score.txt}, {@code scorep-score -r} of
 * the same file: per region, visits and exclusive time per visit (µs, 2 decimals) over all call paths and
 * locations.
 */
class CubexReaderScorepProfileTest {
    private static final Pattern REGION_LINE = Pattern.compile(
            "^\\s*(?:[-+*]\\s+)?(\\S+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(.+)$");

    @Test
    void profileCubexVisitsAndExclusiveTimePerRegionMatchScorepScore() throws IOException {
        List<String> mismatches = new ArrayList<>();
        int regionsChecked = 0;
        for (Path dir : RealCubes.experiments()) {
            Path profile = dir.resolve("profile.cubex");
            Path score = dir.resolve("scorep_score.txt");
            if (!Files.exists(profile) || !Files.exists(score)) {
                continue;
            }
            CubexReadResult r = CubexReader.readDetailed(profile);
            SeverityCube cube = r.cube();
            assertTrue(r.skipped().stream().anyMatch(s -> s.uniqueName().equals("min_time")),
                    "MINDOUBLE metric min_time must be reported as skipped: " + r.skipped());
            Map<String, double[]> byRegion = perRegion(cube);
            // the table header, then the per-type summary, a blank line, then one line per region
            int block = 0;
            for (String line : Files.readAllLines(score)) {
                if (block == 0 && line.contains("time/visit")) {
                    block = 1;
                    continue;
                }
                if (block == 1 && line.isBlank()) {
                    block = 2;
                    continue;
                }
                Matcher mt = REGION_LINE.matcher(line);
                if (block != 2 || !mt.matches()) {
                    continue;
                }
                String region = mt.group(7).trim();
                long visits = Long.parseLong(mt.group(3).replace(",", ""));
                double perVisitUs = Double.parseDouble(mt.group(6));
                double[] v = byRegion.get(region);
                if (v == null) {
                    mismatches.add(dir.getFileName() + " " + region + ": no such region read");
                    continue;
                }
                regionsChecked++;
                if (v[0] != visits) {
                    mismatches.add(dir.getFileName() + " " + region + ": visits " + v[0] + ", scorep-score " + visits);
                }
                double us = v[1] * 1e6 / v[0];
                if (Math.abs(us - perVisitUs) > 0.005 + 1e-6 * perVisitUs) {
                    mismatches.add(dir.getFileName() + " " + region + ": " + us + " us/visit, scorep-score " + perVisitUs);
                }
            }
        }
        assertTrue(regionsChecked > 100, "only " + regionsChecked + " regions compared");
        assertTrue(mismatches.isEmpty(), mismatches.toString());
    }

    /** Per region name: visits and exclusive time summed over all call paths and locations. */
    private static Map<String, double[]> perRegion(SeverityCube cube) {
        int visits = cube.metricIndex("visits");
        int time = cube.metricIndex("time");
        assertTrue(visits >= 0 && time >= 0, "profile must hold visits and time");
        assertEquals("occ", cube.metrics().get(visits).unit());
        Map<String, double[]> out = new HashMap<>();
        for (int c = 0; c < cube.callPaths().size(); c++) {
            String name = cube.regions().get(cube.callPaths().get(c).region()).name();
            double[] v = out.computeIfAbsent(name, k -> new double[2]);
            v[0] += cube.sumOverLocations(visits, c);
            v[1] += cube.sumOverLocations(time, c);
        }
        return out;
    }
}
