package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.SeverityCube;
import it.unimi.dsi.fastutil.ints.Int2DoubleMap;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;

/**
 * Writes the root-cause severities into a cube in Scalasca's remapped hierarchy ({@code scout.spec.in}): the
 * computed metrics as they are, the aggregates and complements as the remapping defines them (aggregate = short
 * + long term; terminal = wait − propagating; direct = wait − indirect; intra = imbalance impact − inter), and the
 * critical-path imbalance with its CubePL definition: per call path,
 * {@code max(0, cp_incl − (time_incl − waiting_incl) / locations) / cp_incl × cp}, inclusive values summed over
 * the call subtree and all locations.
 */
public final class RootCauseMetrics {
    private RootCauseMetrics() {
    }

    public static void addTo(SeverityCube cube, RootCauses.Result rc) {
        Int2DoubleOpenHashMap[][] sev = rc.severities();
        for (int l = 0; l < sev.length; l++) {
            if (sev[l] == null) {
                continue;
            }
            for (RootCauseMetric m : RootCauseMetric.values()) {
                int metric = MetricTree.indexOf(m.uniqueName());
                for (Int2DoubleMap.Entry e : sev[l][m.ordinal()].int2DoubleEntrySet()) {
                    if (e.getDoubleValue() != 0) {
                        cube.add(metric, e.getIntKey(), l, e.getDoubleValue());
                    }
                }
            }
        }
        derive(cube);
    }

    /** The derived members of the hierarchy, from the stored ones. */
    static void derive(SeverityCube cube) {
        boolean withOpenMp = !cube.isOmitted(MetricTree.DELAY_OMP);
        int paths = cube.callPaths().size();
        int locs = cube.locations().size();
        for (int c = 0; c < paths; c++) {
            for (int l = 0; l < locs; l++) {
                double ls = sum(cube, c, l, MetricTree.DELAY_LATESENDER, MetricTree.DELAY_LATESENDER_LONGTERM);
                double lr = sum(cube, c, l, MetricTree.DELAY_LATERECEIVER, MetricTree.DELAY_LATERECEIVER_LONGTERM);
                double bar = sum(cube, c, l, MetricTree.DELAY_BARRIER, MetricTree.DELAY_BARRIER_LONGTERM);
                double n21 = sum(cube, c, l, MetricTree.DELAY_N21, MetricTree.DELAY_N21_LONGTERM);
                double o2n = sum(cube, c, l, MetricTree.DELAY_12N, MetricTree.DELAY_12N_LONGTERM);
                double n2n = sum(cube, c, l, MetricTree.DELAY_N2N, MetricTree.DELAY_N2N_LONGTERM);
                set(cube, MetricTree.DELAY_LATESENDER_AGGREGATE, c, l, ls);
                set(cube, MetricTree.DELAY_LATERECEIVER_AGGREGATE, c, l, lr);
                set(cube, MetricTree.DELAY_P2P, c, l, ls + lr);
                set(cube, MetricTree.DELAY_BARRIER_AGGREGATE, c, l, bar);
                set(cube, MetricTree.DELAY_N21_AGGREGATE, c, l, n21);
                set(cube, MetricTree.DELAY_12N_AGGREGATE, c, l, o2n);
                set(cube, MetricTree.DELAY_N2N_AGGREGATE, c, l, n2n);
                set(cube, MetricTree.DELAY_COLLECTIVE, c, l, bar + n21 + o2n + n2n);
                set(cube, MetricTree.DELAY_MPI, c, l, ls + lr + bar + n21 + o2n + n2n);
                double ompBarrier = sum(cube, c, l, MetricTree.DELAY_OMPBARRIER, MetricTree.DELAY_OMPBARRIER_LONGTERM);
                double ompIdle = sum(cube, c, l, MetricTree.DELAY_OMPIDLE, MetricTree.DELAY_OMPIDLE_LONGTERM);
                set(cube, MetricTree.DELAY_OMPBARRIER_AGGREGATE, c, l, ompBarrier);
                set(cube, MetricTree.DELAY_OMPIDLE_AGGREGATE, c, l, ompIdle);
                set(cube, MetricTree.DELAY_OMP, c, l, ompBarrier + ompIdle);
                // without OpenMP the remapping voids delay_omp, and delay is delay_mpi alone (though scout computes
                // idleness delays for the threads of any process, docs/openmp.md §6)
                set(cube, MetricTree.DELAY, c, l, ls + lr + bar + n21 + o2n + n2n
                        + (withOpenMp ? ompBarrier + ompIdle : 0));

                double lsWait = cube.get(MetricTree.MPI_LATESENDER, c, l);
                double lrWait = cube.get(MetricTree.MPI_LATERECEIVER, c, l);
                double propLs = cube.get(MetricTree.MPI_WAIT_PROPAGATING_LS, c, l);
                double propLr = cube.get(MetricTree.MPI_WAIT_PROPAGATING_LR, c, l);
                double indLs = cube.get(MetricTree.MPI_WAIT_INDIRECT_LATESENDER, c, l);
                double indLr = cube.get(MetricTree.MPI_WAIT_INDIRECT_LATERECEIVER, c, l);
                set(cube, MetricTree.WAITSTATES_PROPAGATING_VS_TERMINAL, c, l, lsWait + lrWait);
                set(cube, MetricTree.MPI_WAIT_PROPAGATING, c, l, propLs + propLr);
                set(cube, MetricTree.MPI_WAIT_TERMINAL_LS, c, l, lsWait - propLs);
                set(cube, MetricTree.MPI_WAIT_TERMINAL_LR, c, l, lrWait - propLr);
                set(cube, MetricTree.MPI_WAIT_TERMINAL, c, l, lsWait - propLs + lrWait - propLr);
                set(cube, MetricTree.WAITSTATES_DIRECT_VS_INDIRECT, c, l, lsWait + lrWait);
                set(cube, MetricTree.MPI_WAIT_DIRECT_LATESENDER, c, l, lsWait - indLs);
                set(cube, MetricTree.MPI_WAIT_DIRECT_LATERECEIVER, c, l, lrWait - indLr);
                set(cube, MetricTree.MPI_WAIT_DIRECT, c, l, lsWait - indLs + lrWait - indLr);
                set(cube, MetricTree.MPI_WAIT_INDIRECT, c, l, indLs + indLr);

                double cpa = cube.get(MetricTree.CRITICAL_PATH_ACTIVITIES, c, l);
                double cii = cube.get(MetricTree.CRITICAL_IMBALANCE_IMPACT, c, l);
                double inter = cube.get(MetricTree.INTER_PARTITION_IMBALANCE, c, l);
                double ncpa = cube.get(MetricTree.NON_CRITICAL_PATH_ACTIVITIES, c, l);
                set(cube, MetricTree.INTRA_PARTITION_IMBALANCE, c, l, cii - inter);
                set(cube, MetricTree.PERFORMANCE_IMPACT_CRITICALPATH, c, l, cpa + cii);
                set(cube, MetricTree.PERFORMANCE_IMPACT, c, l, cpa + cii + ncpa);
            }
        }
        criticalPathImbalance(cube, locs);
    }

    private static void criticalPathImbalance(SeverityCube cube, int locs) {
        int paths = cube.callPaths().size();
        CriticalPathTimes times = CriticalPathTimes.of(cube);
        double[] cpIncl = times.onPath();
        double[] busyIncl = times.busy();
        for (int c = 0; c < paths; c++) {
            if (!(cpIncl[c] > 0)) {
                continue;
            }
            double factor = Math.max(0, cpIncl[c] - busyIncl[c] / locs) / cpIncl[c];
            if (factor == 0) {
                continue;
            }
            for (int l = 0; l < locs; l++) {
                double cp = cube.get(MetricTree.CRITICAL_PATH, c, l);
                if (cp != 0) {
                    cube.set(MetricTree.CRITICAL_PATH_IMBALANCE, c, l, factor * cp);
                }
            }
        }
    }

    private static double sum(SeverityCube cube, int c, int l, int a, int b) {
        return cube.get(a, c, l) + cube.get(b, c, l);
    }

    private static void set(SeverityCube cube, int metric, int c, int l, double v) {
        if (v != 0) {
            cube.set(metric, c, l, v);
        }
    }
}
