package dev.straggler.trace.otf2;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;

import java.util.List;

/**
 * The name PROGRAM_BEGIN records give and the region it stands for. Score-P defines for the program an artificial
 * region of the measurement system whose name is the executable's file name and whose canonical name is the full
 * name (the shared traces' region "omp_kernels", canonical "/opt/app/apps/omp-kernels/omp_kernels"); Scalasca's
 * reader looks the PROGRAM_BEGIN name up among such regions by exactly these two names and stops when none matches
 * (PEARL {@code Otf2EvtCallbacks.cpp}, ProgramBegin callback; the arguments, which Straggler does not keep, would
 * follow the canonical name).
 *
 * @param name  the program name for string 1
 * @param added the program region to define after the trace's own regions, when the trace has none
 */
record ProgramRegion(String name, List<Region> added) {

    /**
     * The trace's own program region (one read from a Score-P archive) when it has one for its application; else,
     * when some location has a PROGRAM_BEGIN, a new one named after the application. A trace without an application
     * name gets no region: it would be an unnamed region in every call tree.
     */
    static ProgramRegion of(TraceDefinitions d, boolean programBegin) {
        String app = d.experiment().application();
        String base = baseName(app);
        for (Region r : d.regions()) {
            if (r.role() == RegionRole.ARTIFICIAL && r.paradigm() == Paradigm.MEASUREMENT_SYSTEM && !base.isEmpty()
                    && r.name().equals(base) && baseName(r.canonicalName()).equals(base)) {
                return new ProgramRegion(r.canonicalName(), List.of());
            }
        }
        if (!programBegin || base.isEmpty()) {
            return new ProgramRegion(app, List.of());
        }
        return new ProgramRegion(app, List.of(new Region(d.regions().size(), base, app, "", 0, 0,
                Paradigm.MEASUREMENT_SYSTEM, RegionRole.ARTIFICIAL)));
    }

    private static String baseName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
