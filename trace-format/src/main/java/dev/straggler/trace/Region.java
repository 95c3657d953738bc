package dev.straggler.trace;

import java.util.Objects;

/**
 * A code region (function, MPI call, loop, ...). {@code id} is its index in
 * {@link TraceDefinitions#regions()}; ENTER/LEAVE events refer to it by that id.
 *
 * @param sourceFile source file name; Score-P writes the string {@code "MPI"} for MPI calls, which is what
 *                   Scalasca uses to classify a region as MPI (reference, real traces README)
 * @param beginLine  first source line, 0 when unknown
 * @param endLine    last source line, 0 when unknown
 */
public record Region(int id, String name, String canonicalName, String sourceFile, int beginLine, int endLine,
                     Paradigm paradigm, RegionRole role) {

    public Region {
        Objects.requireNonNull(name, "name");
        canonicalName = canonicalName == null || canonicalName.isEmpty() ? name : canonicalName;
        sourceFile = sourceFile == null ? "" : sourceFile;
        Objects.requireNonNull(paradigm, "paradigm");
        Objects.requireNonNull(role, "role");
        if (id < 0) {
            throw new IllegalArgumentException("region id must be >= 0: " + id);
        }
    }

    /** A user function without source information. */
    public static Region function(int id, String name) {
        return new Region(id, name, name, "", 0, 0, Paradigm.USER, RegionRole.FUNCTION);
    }
}
