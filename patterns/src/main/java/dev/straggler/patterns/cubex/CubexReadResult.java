package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.SeverityCube;

import java.util.List;

/**
 * What {@link CubexReader} made of a {@code .cubex} file.
 *
 * @param cube            the stored metrics, call-path exclusive and metric-tree inclusive (the
 *                        {@link SeverityCube} convention), frozen
 * @param cnodeIds        for each call path of the cube, the cnode id it has in the file (CubeLib's
 *                        {@code cube_dump} prints these ids)
 * @param metricIds       for each metric of the cube, its id in the file
 * @param skipped         metrics of the file that are not in the cube, with the reason
 */
public record CubexReadResult(SeverityCube cube, int[] cnodeIds, int[] metricIds, List<SkippedMetric> skipped) {
    public CubexReadResult {
        skipped = List.copyOf(skipped);
    }

    /** A metric the file defines but the cube does not hold. */
    public record SkippedMetric(String uniqueName, String reason) {
    }

    /** The cube's call path that has the given cnode id in the file, -1 if none. */
    public int callPathOfCnodeId(int cnodeId) {
        for (int i = 0; i < cnodeIds.length; i++) {
            if (cnodeIds[i] == cnodeId) {
                return i;
            }
        }
        return -1;
    }
}
