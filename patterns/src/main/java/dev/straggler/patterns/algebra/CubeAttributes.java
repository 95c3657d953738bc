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
    /**
     * In a collapsed result: the rank count of each operand, in operand order, separated by spaces ("?" when
     * unknown), so that a report of it can say what was compared.
     */
    public static final String SYSTEM_OPERAND_RANKS = "straggler.system.operand_ranks";
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

    /** {@link #SYSTEM_OPERAND_RANKS} of a collapsed result (−1 for an unknown count); null when absent or malformed. */
    public static int[] operandRanks(SeverityCube c) {
        String v = c.attributes().get(SYSTEM_OPERAND_RANKS);
        if (v == null || v.isBlank()) {
            return null;
        }
        String[] parts = v.trim().split("\\s+");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = "?".equals(parts[i]) ? -1 : Integer.parseInt(parts[i]);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return out;
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
