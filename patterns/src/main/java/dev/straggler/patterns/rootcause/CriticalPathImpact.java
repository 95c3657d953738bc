package dev.straggler.patterns.rootcause;

import it.unimi.dsi.fastutil.ints.Int2DoubleMap;

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

    static void compute(LocationState[] states, IntervalTimes times, int callPaths) {
        double[] gcpath = new double[callPaths];
        for (LocationState st : states) {
            if (st != null) {
                for (Int2DoubleMap.Entry e : st.severity[RootCauseMetric.CRITICAL_PATH.ordinal()].int2DoubleEntrySet()) {
                    gcpath[e.getIntKey()] += e.getDoubleValue();
                }
            }
        }
        double gcplen = 0;
        for (double v : gcpath) {
            gcplen += v;
        }
        // local non-waiting time per location (dense, one location at a time)
        int n = states.length;
        double[][] ltimes = new double[n][];
        double[] globalImbalance = new double[callPaths];
        double[] phr = new double[callPaths];
        for (LocationState st : states) {
            if (st == null) {
                continue;
            }
            double[] lt = new double[callPaths];
            TimeMap all = times.runtimes(st, -1, st.intervals.size());
            TimeMap waits = IntervalTimes.waitMap(st, -1, st.sp.size());
            for (int i = 0; i < all.size(); i++) {
                int c = all.paths()[i];
                double t = all.seconds()[i];
                lt[c] += t;
                int wi = Arrays.binarySearch(waits.paths(), c);
                if (wi >= 0) {
                    // only call paths with waiting are reduced, as Scalasca's lookup does
                    lt[c] -= Math.min(t, waits.seconds()[wi]);
                }
            }
            ltimes[st.location] = lt;
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
        for (LocationState st : states) {
            if (st == null) {
                continue;
            }
            double[] lt = ltimes[st.location];
            var lcpath = st.severity[RootCauseMetric.CRITICAL_PATH.ordinal()];
            for (int c = 0; c < callPaths; c++) {
                if (gcpath[c] > 0) {
                    st.severity[RootCauseMetric.CRITICAL_PATH_ACTIVITIES.ordinal()].put(c, Math.min(gcpath[c], lt[c]));
                }
                double lc = lcpath.get(c);
                if (lc > 0) {
                    double costs = (lc / gcpath[c]) * globalImbalance[c];
                    if (costs > 0) {
                        st.severity[RootCauseMetric.CRITICAL_IMBALANCE_IMPACT.ordinal()].put(c, costs);
                    }
                    double sev = (lc / gcpath[c]) * phr[c];
                    if (sev > 0.0) {
                        st.severity[RootCauseMetric.INTER_PARTITION_IMBALANCE.ordinal()].addTo(c, sev);
                    }
                }
                double impact = lt[c] - gcpath[c];
                if (impact > 0) {
                    st.severity[RootCauseMetric.NON_CRITICAL_PATH_ACTIVITIES.ordinal()].put(c, impact);
                }
            }
        }
    }
}
