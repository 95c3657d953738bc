package dev.straggler.patterns.rootcause;

import it.unimi.dsi.fastutil.ints.Int2DoubleMap;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;

import java.util.Arrays;

/**
 * What Scalasca derives from the critical path once it is complete (CriticalPath.pattern, CRITICALPATH_FINISHED):
 * per location and call path, the critical-path activities (the call path's own non-waiting time, up to its time
 * on the critical path), the critical-path imbalance impact (waiting mapped onto call paths that take more time on
 * the critical path than here), the inter-partition imbalance (headroom of call paths a location never executes)
 * and the non-critical-path activities. IEEE arithmetic is kept as Scalasca has it: a location without excess
 * time makes its scaling factor non-finite, which then turns every sum it enters into NaN, and a NaN severity is
 * never recorded.
 */
final class CriticalPathImpact {
    private CriticalPathImpact() {
    }

    /**
     * A location's local non-waiting time per call path (dense over the unified call tree): its run time minus the
     * waiting of its synchronisation points, only on call paths with waiting, as Scalasca's lookup does.
     */
    static double[] localTimes(LocationState st, IntervalTimes times, int callPaths) {
        double[] lt = new double[callPaths];
        TimeMap all = times.runtimes(st, -1, st.intervals.size());
        TimeMap waits = times.waitMap(st, -1, st.sp.size());
        for (int i = 0; i < all.size(); i++) {
            int c = all.paths()[i];
            double t = all.seconds()[i];
            lt[c] += t;
            int wi = Arrays.binarySearch(waits.paths(), c);
            if (wi >= 0) {
                lt[c] -= Math.min(t, waits.seconds()[wi]);
            }
        }
        return lt;
    }

    /**
     * Books the impact metrics of every location into its severities ({@code severity[l]}, null for locations
     * without the stage), from the critical path found in them and each location's {@link #localTimes}
     * ({@code ltimes[l]}). Locations are summed in location order.
     */
    static void compute(Int2DoubleOpenHashMap[][] severity, double[][] ltimes, int callPaths) {
        int n = severity.length;
        double[] gcpath = new double[callPaths];
        for (int l = 0; l < n; l++) {
            if (severity[l] != null) {
                for (Int2DoubleMap.Entry e : severity[l][RootCauseMetric.CRITICAL_PATH.ordinal()].int2DoubleEntrySet()) {
                    gcpath[e.getIntKey()] += e.getDoubleValue();
                }
            }
        }
        double gcplen = 0;
        for (double v : gcpath) {
            gcplen += v;
        }
        double[] globalImbalance = new double[callPaths];
        double[] phr = new double[callPaths];
        for (int l = 0; l < n; l++) {
            if (severity[l] == null) {
                continue;
            }
            double[] lt = ltimes[l];
            // critical-path imbalance impact (Boehme's thesis, p. 83 f.)
            double lplen = 0;
            for (double v : lt) {
                lplen += v;
            }
            double aggrWaitT = gcplen - lplen;
            double aggrExcessT = 0;
            double[] localImbalance = new double[callPaths];
            for (int c = 0; c < callPaths; c++) {
                localImbalance[c] = Math.max(gcpath[c] - lt[c], 0.0);
                aggrExcessT += localImbalance[c];
            }
            double scaling = aggrWaitT / aggrExcessT;
            for (int c = 0; c < callPaths; c++) {
                globalImbalance[c] += localImbalance[c] * scaling;
            }
            // inter-partition headroom
            double lp = 0;
            double[] hr = gcpath.clone();
            for (int c = 0; c < callPaths; c++) {
                if (lt[c] > 0.0) {
                    lp += lt[c] + (hr[c] - Math.min(lt[c], hr[c]));
                    hr[c] = 0.0;
                }
            }
            double lhrlen = 0;
            for (double v : hr) {
                lhrlen += v;
            }
            double hrf = (gcplen - lp) / lhrlen;
            for (int c = 0; c < callPaths; c++) {
                phr[c] += hr[c] * hrf;
            }
        }
        for (int l = 0; l < n; l++) {
            Int2DoubleOpenHashMap[] sev = severity[l];
            if (sev != null) {
                bookLocation(sev, ltimes[l], callPaths, gcpath, globalImbalance, phr);
            }
        }
    }

    /**
     * One location's impact metrics from the sums over all locations ({@code gcpath}: the critical path per call
     * path, {@code globalImbalance}, {@code phr}: the inter-partition headroom), given its severities ({@code sev},
     * written) and local times ({@code lt}). An engine that forms the sums elsewhere books each location with this.
     */
    static void bookLocation(Int2DoubleOpenHashMap[] sev, double[] lt, int callPaths, double[] gcpath,
                             double[] globalImbalance, double[] phr) {
        var lcpath = sev[RootCauseMetric.CRITICAL_PATH.ordinal()];
        for (int c = 0; c < callPaths; c++) {
            if (gcpath[c] > 0) {
                sev[RootCauseMetric.CRITICAL_PATH_ACTIVITIES.ordinal()].put(c, Math.min(gcpath[c], lt[c]));
            }
            double lc = lcpath.get(c);
            if (lc > 0) {
                double costs = (lc / gcpath[c]) * globalImbalance[c];
                if (costs > 0) {
                    sev[RootCauseMetric.CRITICAL_IMBALANCE_IMPACT.ordinal()].put(c, costs);
                }
                double sev2 = (lc / gcpath[c]) * phr[c];
                if (sev2 > 0.0) {
                    sev[RootCauseMetric.INTER_PARTITION_IMBALANCE.ordinal()].addTo(c, sev2);
                }
            }
            double impact = lt[c] - gcpath[c];
            if (impact > 0) {
                sev[RootCauseMetric.NON_CRITICAL_PATH_ACTIVITIES.ordinal()].put(c, impact);
            }
        }
    }
}
