package dev.straggler.trace.filter;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;

/**
 * Decides which regions a reduced trace keeps. Implementations: Score-P filter files ({@link ScorepFilter}) and
 * TAU selective instrumentation files ({@link TauSelectFile}).
 */
public interface RegionFilter {

    /** True when the region's ENTER/LEAVE events are to be dropped. */
    boolean excludes(Region region);

    /**
     * Regions no filter may remove: MPI calls carry the communication the analysis needs (Score-P likewise never
     * filters its MPI wrapper regions).
     */
    static boolean protectedRegion(Region r) {
        return r.paradigm() == Paradigm.MPI || "MPI".equals(r.sourceFile()) || r.name().startsWith("MPI_");
    }
}
