package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexReader;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Scalasca 2.6's analyses of NPB MG class S on 2, 4, 8 and 16 ranks under {@code <shared>/traces/real}, with the
 * per-metric totals Scalasca's own tools printed ({@code scalasca_totals.txt}). Skips the calling test when the
 * shared folder is absent.
 */
public final class ScalascaMgSeries {
    public static final int[] RANKS = {2, 4, 8, 16};

    private ScalascaMgSeries() {
    }

    public static Path dir(int ranks) {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path d = Path.of(shared, "traces", "real", "npb-mg.S-" + ranks);
        Assumptions.assumeTrue(Files.isRegularFile(d.resolve("scout.cubex")), "no Scalasca result at " + d);
        return d;
    }

    /** scout.cubex of the run, with its folder name as the cube's name. */
    public static SeverityCube cube(int ranks) throws IOException {
        SeverityCube c = CubexReader.read(dir(ranks).resolve("scout.cubex"));
        Map<String, String> attrs = new LinkedHashMap<>(c.attributes());
        attrs.put("name", "npb-mg.S-" + ranks);
        SeverityCube named = new SeverityCube(c.metrics(), c.regions(), c.callPaths(), c.locations(), attrs);
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                double[] row = c.rowOrNull(m, p);
                if (row != null) {
                    for (int l = 0; l < row.length; l++) {
                        named.set(m, p, l, row[l]);
                    }
                }
            }
        }
        return named.freeze();
    }

    /** Scalasca's total of every metric over all call paths and locations (6 significant digits or more). */
    public static Map<String, Double> totals(int ranks) throws IOException {
        Map<String, Double> out = new HashMap<>();
        for (String line : Files.readAllLines(dir(ranks).resolve("scalasca_totals.txt"))) {
            String s = line.trim();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            String[] f = s.split("\\s+");
            out.put(f[0], Double.parseDouble(f[1]));
        }
        return out;
    }
}
