package dev.straggler.patterns.reduce;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.TraceFormatException;

import java.util.List;

/**
 * Call-path profiles from cubes: a Score-P profile ({@code profile.cubex}), a Scalasca result or Straggler's own
 * analysis, read through {@code CubexReader} or taken from an analysis result. The cube must have the metrics
 * {@code visits} and {@code time} (call-path exclusive, as Cube stores them); locations of one rank are summed.
 * Such a profile knows no event records, so sizes come from the scorep-score estimator.
 */
public final class CubeProfiles {
    public static final String VISITS = "visits";
    public static final String TIME = "time";

    private CubeProfiles() {
    }

    /** @throws TraceFormatException naming the cube when {@code visits} or {@code time} is missing */
    public static CallTreeProfile fromCube(SeverityCube cube, String origin) throws TraceFormatException {
        int visits = cube.metricIndex(VISITS);
        int time = cube.metricIndex(TIME);
        if (visits < 0 || time < 0) {
            throw new TraceFormatException(origin + ": the cube has no '" + (visits < 0 ? VISITS : TIME)
                    + "' metric, so it is not a call-path profile (metrics: "
                    + cube.metrics().stream().map(m -> m.uniqueName()).toList() + ")");
        }
        List<SystemLocation> locs = cube.locations();
        int ranks = locs.stream().mapToInt(SystemLocation::rank).max().orElse(-1) + 1;
        int program = -1;
        for (CallPath c : cube.callPaths()) {
            if (c.parent() < 0 && cube.regions().get(c.region()).paradigm() == Paradigm.MEASUREMENT_SYSTEM) {
                program = c.region();
            }
        }
        CallTreeProfile.Builder b = CallTreeProfile.builder(cube.regions(), ranks, program, false, origin);
        int[] node = new int[cube.callPaths().size()];
        for (CallPath c : cube.callPaths()) {
            // cube ids list parents first; nodes that differ only by call site stay apart
            node[c.id()] = b.appendNode(c.parent() < 0 ? -1 : node[c.parent()], c.region());
            double[] v = cube.rowOrNull(visits, c.id());
            double[] t = cube.rowOrNull(time, c.id());
            for (SystemLocation l : locs) {
                long vis = v == null ? 0 : Math.round(v[l.index()]);
                double sec = t == null ? 0 : t[l.index()];
                if (vis != 0 || sec != 0) {
                    b.add(node[c.id()], l.rank(), vis, sec, 0, 0);
                }
            }
        }
        return b.build(List.of(), 0);
    }
}
