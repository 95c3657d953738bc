package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares our analysis of a trace with Scalasca's, value by value: every (metric, call path, location) of
 * Scalasca's dump whose call path maps onto one of ours by its path of region names, with a tolerance consistent
 * with the dump's 6 significant digits.
 */
public final class ScalascaComparison {
    /** Relative tolerance of a value printed with 6 significant digits (half a unit in the 6th digit). */
    public static final double RELATIVE = 5.0e-6;
    /** Absolute slack for values near zero (far below the 1 ns timer resolution of the traces). */
    public static final double ABSOLUTE = 1.0e-11;

    /** Outcome for one metric. */
    public record MetricOutcome(String metric, int compared, int mismatches, double maxRelativeError,
                                double ours, double theirs, List<String> examples) {
    }

    private final Map<String, MetricOutcome> outcomes = new LinkedHashMap<>();
    private final List<String> unmappedCallPaths = new ArrayList<>();

    public static boolean close(double ours, double theirs) {
        return Math.abs(ours - theirs) <= RELATIVE * Math.max(Math.abs(ours), Math.abs(theirs)) + ABSOLUTE;
    }

    public static ScalascaComparison compare(AnalysisResult result, ScalascaReference ref, List<String> metrics) {
        return compare(result, ref, metrics, (m, k) -> false);
    }

    /** As above, leaving out the (metric, Scalasca cnode) pairs {@code skip} names. */
    public static ScalascaComparison compare(AnalysisResult result, ScalascaReference ref, List<String> metrics,
                                             java.util.function.BiPredicate<String, Integer> skip) {
        ScalascaComparison out = new ScalascaComparison();
        SeverityCube cube = result.cube();
        Map<String, Integer> ourPaths = new HashMap<>();
        for (int c = 0; c < cube.callPaths().size(); c++) {
            ourPaths.put(String.join("/", cube.pathNames(c)), c);
        }
        int[] ourPathOf = new int[ref.cnodeCount()];
        for (int k = 0; k < ref.cnodeCount(); k++) {
            Integer p = ourPaths.get(String.join("/", ref.path(k)));
            ourPathOf[k] = p == null ? -1 : p;
            if (p == null) {
                out.unmappedCallPaths.add(k + ":" + String.join("/", ref.path(k)));
            }
        }
        Map<Integer, Integer> ourLocation = new HashMap<>();
        for (Map.Entry<Integer, int[]> e : ref.locations().entrySet()) {
            for (SystemLocation l : cube.locations()) {
                if (l.rank() == e.getValue()[0] && l.thread() == e.getValue()[1]) {
                    ourLocation.put(e.getKey(), l.index());
                }
            }
        }
        for (String m : metrics) {
            int mi = cube.metricIndex(m);
            int compared = 0;
            int bad = 0;
            double maxRel = 0;
            List<String> examples = new ArrayList<>();
            for (int k = 0; k < ref.cnodeCount(); k++) {
                if (skip.test(m, k)) {
                    continue;
                }
                for (Map.Entry<Integer, Integer> loc : ourLocation.entrySet()) {
                    double theirs = ref.value(m, k, loc.getKey());
                    double ours = ourPathOf[k] < 0 ? 0 : cube.get(mi, ourPathOf[k], loc.getValue());
                    if (ourPathOf[k] < 0 && theirs == 0) {
                        continue;
                    }
                    compared++;
                    double scale = Math.max(Math.abs(ours), Math.abs(theirs));
                    double rel = scale == 0 ? 0 : Math.abs(ours - theirs) / scale;
                    maxRel = Math.max(maxRel, rel);
                    if (!close(ours, theirs)) {
                        bad++;
                        if (examples.size() < 8) {
                            examples.add("cnode " + k + " " + String.join("/", ref.path(k)) + " loc " + loc.getKey()
                                    + ": ours " + ours + " theirs " + theirs);
                        }
                    }
                }
            }
            out.outcomes.put(m, new MetricOutcome(m, compared, bad, maxRel, cube.total(m), ref.total(m), examples));
        }
        return out;
    }

    public Map<String, MetricOutcome> outcomes() {
        return outcomes;
    }

    public List<String> unmappedCallPaths() {
        return unmappedCallPaths;
    }

    public String report() {
        StringBuilder sb = new StringBuilder();
        for (MetricOutcome o : outcomes.values()) {
            sb.append(String.format("%-24s compared %6d mismatches %5d maxRel %.2e  ours %.6g theirs %.6g%n",
                    o.metric(), o.compared(), o.mismatches(), o.maxRelativeError(), o.ours(), o.theirs()));
            for (String e : o.examples()) {
                sb.append("    ").append(e).append('\n');
            }
        }
        if (!unmappedCallPaths.isEmpty()) {
            sb.append("unmapped Scalasca call paths: ").append(unmappedCallPaths.size()).append(' ')
                    .append(unmappedCallPaths.subList(0, Math.min(5, unmappedCallPaths.size()))).append('\n');
        }
        return sb.toString();
    }
}
