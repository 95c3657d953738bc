package dev.straggler.patterns.scaling;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.TreeSet;

/**
 * Writes measurements in Extra-P's text input format so that users can continue in Extra-P: a {@code PARAMETER}
 * line, a {@code POINTS} line, then per metric a {@code METRIC} line and per call path a {@code REGION} line
 * followed by one {@code DATA} line per point, in the order of {@code POINTS}, holding that point's repetitions
 * (Extra-P's docs/file-formats.md).
 *
 * <p>Numbers are written in plain decimal notation because the format's grammar has no exponent. Call paths are
 * region names joined by {@code ->}, Extra-P's separator; a name containing {@code ->} gets it broken up.
 * A series without a value at some point gets 0 there: a call path absent from a run took no time in it.
 */
public final class ExtraPText {
    private ExtraPText() {
    }

    /**
     * The series as Extra-P's call tree should show them. Extra-P builds one tree from every REGION of every metric,
     * so three kinds are kept apart: per-process totals (no call path) become metric {@code NAME_per_process} in
     * region {@code all}; callsites (an MPI operation and its callers, not a path from the program's root) become
     * metric {@code callsite_time} in one flat region each, {@code Allreduce<zran3} (innermost caller first), so
     * that their callers do not appear as roots beside the analysed call tree; everything else keeps its call
     * path from the root.
     */
    public static List<MeasurementSeries> forExtraP(List<MeasurementSeries> series, List<MeasurementSeries> callsites) {
        java.util.Set<MeasurementSeries> sites = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        sites.addAll(callsites);
        List<MeasurementSeries> out = new java.util.ArrayList<>();
        for (MeasurementSeries s : series) {
            if (sites.contains(s)) {
                List<String> path = s.callPath();
                StringBuilder flat = new StringBuilder(path.isEmpty() ? "" : path.get(path.size() - 1));
                for (int i = path.size() - 2; i >= 0; i--) {
                    flat.append('<').append(path.get(i));
                }
                out.add(new MeasurementSeries("callsite_time", List.of(flat.toString()), s.p(), s.values()));
            } else if (s.callPath().isEmpty()) {
                out.add(new MeasurementSeries(s.metric() + "_per_process", List.of(), s.p(), s.values()));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    /** Writes the series, grouped by metric (each METRIC block once, in order of first appearance). */
    public static void write(Appendable out, String parameter, List<MeasurementSeries> series) throws IOException {
        if (parameter.isBlank() || parameter.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("parameter name must be one word: '" + parameter + "'");
        }
        TreeSet<Double> points = new TreeSet<>();
        for (MeasurementSeries s : series) {
            for (double p : s.p()) {
                points.add(p);
            }
        }
        out.append("# written by straggler\n");
        out.append("PARAMETER ").append(parameter).append('\n');
        out.append("POINTS");
        for (double p : points) {
            out.append(' ').append(number(p));
        }
        out.append('\n');
        java.util.Map<String, List<MeasurementSeries>> byMetric = new java.util.LinkedHashMap<>();
        for (MeasurementSeries s : series) {
            byMetric.computeIfAbsent(s.metric(), k -> new java.util.ArrayList<>()).add(s);
        }
        String metric = null;
        for (MeasurementSeries s : byMetric.values().stream().flatMap(List::stream).toList()) {
            if (!s.metric().equals(metric)) {
                metric = s.metric();
                out.append('\n').append("METRIC ").append(clean(metric)).append('\n');
            }
            out.append("REGION ").append(callPath(s.callPath())).append('\n');
            for (double p : points) {
                out.append("DATA");
                boolean any = false;
                for (int i = 0; i < s.p().length; i++) {
                    if (s.p()[i] == p) {
                        out.append(' ').append(number(s.values()[i]));
                        any = true;
                    }
                }
                if (!any) {
                    out.append(" 0");
                }
                out.append('\n');
            }
        }
    }

    static String callPath(List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String n : names) {
            if (sb.length() > 0) {
                sb.append("->");
            }
            sb.append(clean(n).replace("->", "-_>"));
        }
        return sb.length() == 0 ? "all" : sb.toString();
    }

    private static String clean(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }

    /** Plain decimal, no exponent, no trailing zeros. @throws IllegalArgumentException for NaN or infinity */
    static String number(double v) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException("Extra-P text cannot hold " + v);
        }
        String s = BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
    }
}
