package dev.straggler.cli.report;

import dev.straggler.patterns.cube.PathNames;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How call paths and locations are named on the page. A short label leaves out the trunk every call path shares
 * (the program and main, "mg.S.x/mg_mpi"), C++ signatures ({@link #shortName}) and, when still too long, the
 * outermost callers: the callee names the call path, the full path is kept for tooltips. Names are joined as
 * everywhere else ({@link PathNames}), and a label that leaves callers out starts with "…/".
 */
final class PathLabels {

    private final SeverityCube cube;
    /** Number of call-tree levels with a single node: a sole root, its sole child, ... */
    private final int trunk;

    PathLabels(SeverityCube cube) {
        this.cube = cube;
        int depth = 0;
        List<Integer> level = cube.childCallPaths(-1);
        while (level.size() == 1) {
            depth++;
            level = cube.childCallPaths(level.get(0));
        }
        this.trunk = depth;
    }

    /** The whole path from its root: "main/solve/MPI_Recv". */
    String full(int path) {
        return PathNames.join(cube.pathNames(path));
    }

    /**
     * The path below the shared trunk (a path within the trunk: its last region), shortened from the outside to at
     * most {@code maxChars} (with "…/" for callers left out, the trunk included); always at least the last region.
     */
    String label(int path, int maxChars) {
        List<String> names = cube.pathNames(path).stream().map(PathLabels::shortName).toList();
        int first = Math.min(trunk, names.size() - 1);
        for (int from = first; from < names.size() - 1; from++) {
            String s = PathNames.from(names, from);
            if (s.length() <= maxChars) {
                return s;
            }
        }
        return PathNames.from(names, names.size() - 1);
    }

    /**
     * Labels for call paths shown together (the rows of a table), each {@link #label} unless two would read the
     * same: those name the innermost caller in which they differ, "…/transpose_x_yz/…/MPI_Alltoall" beside
     * "…/transpose_xy_z/…/MPI_Alltoall".
     */
    Map<Integer, String> distinct(Collection<Integer> paths, int maxChars) {
        Map<Integer, String> out = new LinkedHashMap<>();
        Map<String, List<Integer>> byLabel = new HashMap<>();
        for (int p : paths) {
            String l = label(p, maxChars);
            out.put(p, l);
            byLabel.computeIfAbsent(l, k -> new ArrayList<>()).add(p);
        }
        for (List<Integer> same : byLabel.values()) {
            if (same.size() < 2) {
                continue;
            }
            for (int p : same) {
                List<String> names = cube.pathNames(p).stream().map(PathLabels::shortName).toList();
                int back = 0;
                for (int q : same) {
                    if (q != p) {
                        back = Math.max(back, firstDifferenceFromTheEnd(names, cube.pathNames(q)));
                    }
                }
                int caller = names.size() - 1 - back;
                out.put(p, back >= names.size() ? label(p, Integer.MAX_VALUE)
                        : back <= 1 ? PathNames.from(names, caller)
                        : PathNames.from(names.subList(0, caller + 1), caller) + PathNames.SEPARATOR + PathNames.OMITTED
                        + PathNames.SEPARATOR + names.get(names.size() - 1));
            }
        }
        return out;
    }

    /** Steps from the callee outwards to the first caller that differs (a path that runs out differs there). */
    private static int firstDifferenceFromTheEnd(List<String> shortNames, List<String> other) {
        int j = 0;
        while (j < shortNames.size() && j < other.size()
                && shortNames.get(shortNames.size() - 1 - j).equals(shortName(other.get(other.size() - 1 - j)))) {
            j++;
        }
        return j;
    }

    /**
     * A region name without a C++ signature's return type, parameters and template note ("void
     * Release(T**) [with T = double]" is "Release"); other names, and operators, as they are.
     */
    static String shortName(String region) {
        int open = region.indexOf('(');
        if (open <= 0 || region.contains("operator")) {
            return region;
        }
        String head = region.substring(0, open).strip();
        int space = head.lastIndexOf(' ');
        String name = head.substring(space + 1);
        while (name.startsWith("*") || name.startsWith("&")) {
            name = name.substring(1);
        }
        return name.isEmpty() ? region : name;
    }

    /** True when some location is not a process's first thread: locations are then named rank.thread. */
    static boolean threaded(SeverityCube cube) {
        return cube.hasThreads();
    }

    static String location(SystemLocation l, boolean threaded) {
        return threaded ? l.rank() + "." + l.thread() : Integer.toString(l.rank());
    }
}
