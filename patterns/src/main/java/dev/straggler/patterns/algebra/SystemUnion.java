package dev.straggler.patterns.algebra;

import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The system dimension of an algebra result. Operands with the same locations keep per-location values (Cube's
 * rule: locations are equal when their ranks are, reference §3.7); otherwise, as with 128 against 192 processes,
 * the dimension collapses to one value per (metric, call path): the sum over ranks or the per-rank mean.
 *
 * <p>A collapsed operand (from an earlier operation) contributes through its recorded rank count, so a sum can be
 * turned into a mean and back; where that count is unknown the conversion is refused.
 */
final class SystemUnion {
    final SystemMode mode;
    final List<SystemLocation> locations;
    /** Per operand: its location index to the result's; only for {@link SystemMode#PER_LOCATION}. */
    final int[][] locationMap;
    /** Per operand: factor applied to the sum over its locations; only when collapsed (see {@link #factor(int, Metric)}). */
    final double[] factor;
    final Map<String, String> attributes = new HashMap<>();

    private record Key(int rank, int thread) {
    }

    SystemUnion(List<SeverityCube> cubes, SystemMode requested, List<String> names) {
        boolean same = sameLocations(cubes);
        SystemMode m = requested;
        if (m == SystemMode.AUTO) {
            m = same ? SystemMode.PER_LOCATION : SystemMode.SUM;
        }
        if (m == SystemMode.PER_LOCATION && !same) {
            throw new IllegalArgumentException("operands have different locations (" + rankSummary(cubes, names)
                    + "); use a collapsing system mode (sum or mean)");
        }
        mode = m;
        int n = cubes.size();
        locationMap = new int[n][];
        factor = new double[n];
        if (m == SystemMode.PER_LOCATION) {
            SeverityCube first = cubes.get(0);
            locations = first.locations();
            Map<Key, Integer> index = new HashMap<>();
            for (SystemLocation l : locations) {
                index.put(new Key(l.rank(), l.thread()), l.index());
            }
            for (int op = 0; op < n; op++) {
                List<SystemLocation> ls = cubes.get(op).locations();
                locationMap[op] = new int[ls.size()];
                for (SystemLocation l : ls) {
                    locationMap[op][l.index()] = index.get(new Key(l.rank(), l.thread()));
                }
            }
            String sys = CubeAttributes.system(first);
            if (!CubeAttributes.SYSTEM_LOCATIONS.equals(sys)) {
                attributes.put(CubeAttributes.SYSTEM, sys);
                copyRanks(cubes);
            }
            return;
        }
        String target = m == SystemMode.SUM ? CubeAttributes.SYSTEM_SUM : CubeAttributes.SYSTEM_MEAN;
        locations = List.of(new SystemLocation(0, 0, 0, target));
        for (int op = 0; op < n; op++) {
            SeverityCube c = cubes.get(op);
            String sys = CubeAttributes.system(c);
            int ranks = CubeAttributes.ranks(c);
            boolean needsRanks = (m == SystemMode.MEAN && !CubeAttributes.SYSTEM_MEAN.equals(sys))
                    || (m == SystemMode.SUM && CubeAttributes.SYSTEM_MEAN.equals(sys));
            if (needsRanks && ranks <= 0) {
                throw new IllegalArgumentException("operand " + names.get(op) + " is collapsed (" + sys
                        + ") without a known rank count; it cannot be converted to " + target);
            }
            if (m == SystemMode.SUM) {
                factor[op] = CubeAttributes.SYSTEM_MEAN.equals(sys) ? ranks : 1.0;
            } else {
                factor[op] = CubeAttributes.SYSTEM_MEAN.equals(sys) ? 1.0 : 1.0 / ranks;
            }
        }
        attributes.put(CubeAttributes.SYSTEM, target);
        copyRanks(cubes);
        StringBuilder operandRanks = new StringBuilder();
        for (SeverityCube c : cubes) {
            int r = CubeAttributes.ranks(c);
            operandRanks.append(operandRanks.length() == 0 ? "" : " ").append(r > 0 ? Integer.toString(r) : "?");
        }
        attributes.put(CubeAttributes.SYSTEM_OPERAND_RANKS, operandRanks.toString());
        String why = same ? "requested" : "the operands have different ranks (" + rankSummary(cubes, names) + ")";
        attributes.put(CubeAttributes.SYSTEM_NOTE, "system dimension collapsed to the " + target + ": " + why);
    }

    private void copyRanks(List<SeverityCube> cubes) {
        int r = CubeAttributes.ranks(cubes.get(0));
        for (SeverityCube c : cubes) {
            if (CubeAttributes.ranks(c) != r) {
                return;
            }
        }
        if (r > 0) {
            attributes.put(CubeAttributes.SYSTEM_RANKS, Integer.toString(r));
        }
    }

    /**
     * The factor for operand {@code op}'s sum over locations of {@code metric}: {@link #factor}, except for the
     * critical path, whose sum is its length in either collapsed form (it is not a cost every rank pays).
     */
    double factor(int op, Metric metric) {
        return CauseMetrics.isPath(metric) ? 1.0 : factor[op];
    }

    boolean collapsed() {
        return mode != SystemMode.PER_LOCATION;
    }

    /** Same system kind and the same (rank, thread) set in every operand. */
    static boolean sameLocations(List<SeverityCube> cubes) {
        SeverityCube first = cubes.get(0);
        List<Key> ref = keys(first);
        java.util.Set<Key> refSet = new java.util.HashSet<>(ref);
        for (SeverityCube c : cubes) {
            if (!CubeAttributes.system(c).equals(CubeAttributes.system(first))) {
                return false;
            }
            List<Key> k = keys(c);
            if (k.size() != ref.size() || !refSet.containsAll(k)) {
                return false;
            }
        }
        return true;
    }

    private static List<Key> keys(SeverityCube c) {
        List<Key> out = new ArrayList<>();
        for (SystemLocation l : c.locations()) {
            out.add(new Key(l.rank(), l.thread()));
        }
        return out;
    }

    static String rankSummary(List<SeverityCube> cubes, List<String> names) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cubes.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            int r = CubeAttributes.ranks(cubes.get(i));
            sb.append(names.get(i)).append(": ").append(r < 0 ? "?" : Integer.toString(r)).append(" ranks");
            String sys = CubeAttributes.system(cubes.get(i));
            if (!CubeAttributes.SYSTEM_LOCATIONS.equals(sys)) {
                sb.append(" (").append(sys).append(')');
            }
        }
        return sb.toString();
    }
}
