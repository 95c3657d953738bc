package dev.straggler.patterns.reduce;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The functions a reduced trace must keep so that it still explains why processes wait: those whose delay costs
 * (Scalasca's metric {@code delay}, short- and long-term, every wait-state kind; reference §1.6) reach a share of all
 * delay costs.
 */
public final class CauseFunctions {
    private CauseFunctions() {
    }

    /**
     * By region name, the reason each is kept ("12.5 % of all delay costs"), in name order; empty when the cube
     * carries no delay costs.
     *
     * @param percent the share of all delay costs, within 0..100
     */
    public static Map<String, String> of(SeverityCube c, double percent) {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("a share of delay costs is a percentage within 0..100, not " + percent);
        }
        Map<String, String> out = new LinkedHashMap<>();
        int delay = c.metricIndex("delay");
        double total = delay < 0 ? 0 : c.total(delay);
        if (total <= 0) {
            return out;
        }
        Map<String, Double> byName = new TreeMap<>();
        for (int p = 0; p < c.callPaths().size(); p++) {
            double v = c.sumOverLocations(delay, p);
            if (v > 0) {
                byName.merge(c.regions().get(c.callPaths().get(p).region()).name(), v, Double::sum);
            }
        }
        byName.forEach((name, v) -> {
            double share = 100 * v / total;
            if (share >= percent) {
                out.put(name, String.format(Locale.ROOT, "%.1f %% of all delay costs", Math.min(100, share)));
            }
        });
        return out;
    }
}
