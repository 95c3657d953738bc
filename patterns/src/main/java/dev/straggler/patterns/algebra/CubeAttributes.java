package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.Map;

/**
 * Attribute keys the algebra writes into its results, so that a result says how it was made and can be an
 * operand again (a collapsed cube remembers how many ranks it stands for).
 */
public final class CubeAttributes {
    /** "diff", "merge", "mean" or "collapse". */
    public static final String OPERATION = "straggler.algebra.operation";
    /** The operands, one per line, "A = ..." for diff and "1 = ..." otherwise. */
    public static final String OPERANDS = "straggler.algebra.operands";
    /** {@link #SYSTEM_LOCATIONS}, {@link #SYSTEM_SUM} or {@link #SYSTEM_MEAN}; absent means per location. */
    public static final String SYSTEM = "straggler.system";
    public static final String SYSTEM_LOCATIONS = "locations";
    public static final String SYSTEM_SUM = "sum over ranks";
    public static final String SYSTEM_MEAN = "mean per rank";
    /** Number of ranks a collapsed cube stands for; absent when its operands differed in that. */
    public static final String SYSTEM_RANKS = "straggler.system.ranks";
    /** A sentence explaining why and how the system dimension was collapsed. */
    public static final String SYSTEM_NOTE = "straggler.system.note";
    /** Attributes that name an experiment, tried in this order by {@link #describe}. */
    private static final String[] NAME_KEYS = {"name", "experiment", "trace", "origin", "file", "application"};

    private CubeAttributes() {
    }

    /** A short name for an operand, for reports: its name, trace or file attribute, else the fallback. */
    public static String describe(SeverityCube c, String fallback) {
        Map<String, String> a = c.attributes();
        for (String k : NAME_KEYS) {
            String v = a.get(k);
            if (v != null && !v.isBlank()) {
                return v;
            }
        }
        return fallback;
    }

    /** The system attribute of a cube, {@link #SYSTEM_LOCATIONS} when absent. */
    public static String system(SeverityCube c) {
        return c.attributes().getOrDefault(SYSTEM, SYSTEM_LOCATIONS);
    }

    /** Ranks a cube stands for: the recorded count for a collapsed cube, else its distinct ranks; -1 when unknown. */
    public static int ranks(SeverityCube c) {
        if (!SYSTEM_LOCATIONS.equals(system(c))) {
            String r = c.attributes().get(SYSTEM_RANKS);
            return r == null ? -1 : Integer.parseInt(r.trim());
        }
        return (int) c.locations().stream().mapToInt(l -> l.rank()).distinct().count();
    }
}
