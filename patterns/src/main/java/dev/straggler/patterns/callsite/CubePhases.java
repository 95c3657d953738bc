package dev.straggler.patterns.callsite;

import dev.straggler.patterns.algebra.WaitStatePatterns;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The phase breakdown of an analysed run, from its severity cube: phases are the call paths at the phase depth (and
 * shallower leaves); a phase's total is the {@code time} metric over its subtree, MPI is the time of MPI regions in
 * it, and load imbalance is every wait state of Scalasca's catalogue in it (point-to-point waits included), counted
 * once per pattern family ({@link WaitStatePatterns#topLevel}).
 */
public final class CubePhases {
    private CubePhases() {
    }

    /** @throws IllegalArgumentException when the cube has no {@code time} metric */
    public static PhaseBreakdown of(SeverityCube cube, int phaseDepth) {
        int time = cube.metricIndex("time");
        if (time < 0) {
            throw new IllegalArgumentException("the cube has no time metric; no phase breakdown");
        }
        int ranks = cube.locations().stream().mapToInt(SystemLocation::rank).max().orElse(-1) + 1;
        int n = cube.callPaths().size();
        int[] depth = new int[n];
        boolean[] hasChild = new boolean[n];
        for (CallPath c : cube.callPaths()) {
            depth[c.id()] = c.parent() < 0 ? 0 : depth[c.parent()] + 1;
            if (c.parent() >= 0) {
                hasChild[c.parent()] = true;
            }
        }
        int[] phaseOf = new int[n];
        for (CallPath c : cube.callPaths()) {
            int p = c.id();
            while (depth[p] > phaseDepth) {
                p = cube.callPaths().get(p).parent();
            }
            phaseOf[c.id()] = depth[p] == phaseDepth || !hasChild[p] ? p : -1;
        }
        List<Integer> waits = WaitStatePatterns.topLevel(cube.metrics());
        double[][][] v = new double[n][][];
        for (CallPath c : cube.callPaths()) {
            int ph = phaseOf[c.id()];
            if (ph < 0) {
                continue;
            }
            if (v[ph] == null) {
                v[ph] = new double[3][ranks];
            }
            boolean mpi = MpiCallKind.isMpi(cube.regions().get(c.region()));
            for (SystemLocation l : cube.locations()) {
                double t = cube.get(time, c.id(), l.index());
                v[ph][0][l.rank()] += t;
                if (mpi) {
                    v[ph][1][l.rank()] += t;
                }
                for (int w : waits) {
                    v[ph][2][l.rank()] += cube.get(w, c.id(), l.index());
                }
            }
        }
        List<PhaseBreakdown.Phase> phases = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            if (v[c] != null) {
                phases.add(new PhaseBreakdown.Phase(cube.pathNames(c), v[c][0], v[c][1], v[c][2]));
            }
        }
        phases.sort(Comparator.comparingDouble(PhaseBreakdown.Phase::totalSum).reversed());
        return new PhaseBreakdown(phaseDepth, "wait states of the analysis (Scalasca's catalogue, every pattern family)", phases);
    }
}
