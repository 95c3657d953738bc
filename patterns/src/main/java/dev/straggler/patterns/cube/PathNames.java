package dev.straggler.patterns.cube;

import java.util.List;

/**
 * How every report writes a call path: its region names from the root, joined by {@value #SEPARATOR}
 * ("mg.S.x/mg_mpi/zran3/MPI_Allreduce"), the way {@code analyze} has always printed call paths and the way a path is
 * given on the command line. One separator for terminal text, HTML, CSV and JSON labels, so that the same call path
 * reads the same everywhere. A path that does not start at its root says so with a leading "…/".
 */
public final class PathNames {
    /** Between the region names of a call path. */
    public static final String SEPARATOR = "/";
    /** Stands for the callers left out of a shortened path: "…/comm3/give3/MPI_Send". */
    public static final String OMITTED = "\u2026";

    private PathNames() {
    }

    /** The names joined: "main/solve/MPI_Recv". */
    public static String join(List<String> names) {
        return String.join(SEPARATOR, names);
    }

    /**
     * The names from index {@code from} on, marked as shortened when callers were left out: {@code from} 0 is the
     * whole path, otherwise "…/" and the rest.
     */
    public static String from(List<String> names, int from) {
        String rest = join(names.subList(from, names.size()));
        return from > 0 ? OMITTED + SEPARATOR + rest : rest;
    }
}
