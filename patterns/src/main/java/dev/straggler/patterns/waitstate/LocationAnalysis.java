package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.replay.CollectiveTable;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.LocationProfile;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.TraceDefinitions;

/**
 * All severities of one location: the time profile split by Scalasca's call-path masks, visits, message and
 * collective statistics, point-to-point patterns, the outcome of its collectives and of MPI_Init/MPI_Finalize.
 * Runs on one thread; locations run in parallel.
 */
final class LocationAnalysis {
    final LocationData loc;
    final LocationSeverities sev;
    final InstanceCollector instances;
    final long[] violations = new long[ViolationKind.values().length];
    long unmatchedReceives;
    long unmatchedSends;
    /** Wait states per receive / send row for the root-cause stage; null when it does not run. */
    long[] lateSenderWaits;
    long[] lateReceiverWaits;

    /** What the driver keeps of this analysis (the location's records are left behind). */
    LocationOutcome outcome() {
        int[] global = new int[sev.paths()];
        for (int p = 0; p < global.length; p++) {
            global[p] = loc.globalCallPath(p);
        }
        return new LocationOutcome(loc.location(), global, sev, instances, violations, unmatchedSends,
                unmatchedReceives, lateSenderWaits, lateReceiverWaits);
    }

    private LocationAnalysis(LocationData loc, int topInstances) {
        this.loc = loc;
        this.sev = new LocationSeverities(loc.profile().size());
        this.instances = new InstanceCollector(topInstances);
    }

    static LocationAnalysis run(TraceDefinitions defs, LocationData loc, MessagePartners partners, long[] timeMasks,
                                CollectiveOutcomes coll, InitFinalize.Reference init, InitFinalize.Reference fin,
                                int topInstances, boolean recordWaits) {
        LocationAnalysis a = new LocationAnalysis(loc, topInstances);
        a.profile(timeMasks);
        PointToPointReplay p2p = new PointToPointReplay(defs, partners, a.loc, a.sev, a.instances, a.violations);
        if (recordWaits) {
            p2p.recordWaits();
        }
        p2p.run();
        a.lateSenderWaits = p2p.lateSenderWaits();
        a.lateReceiverWaits = p2p.lateReceiverWaits();
        a.unmatchedReceives = p2p.unmatchedReceives();
        a.unmatchedSends = p2p.unmatchedSends();
        a.collectives(coll);
        a.initFinalize(init, fin);
        a.sums();
        return a;
    }

    private void profile(long[] timeMasks) {
        LocationProfile p = loc.profile();
        long[] excl = p.exclusiveTimes();
        for (int n = 0; n < p.size(); n++) {
            long mask = timeMasks[p.region(n)];
            long t = excl[n];
            for (long bits = mask; bits != 0; bits &= bits - 1) {
                sev.add(TimeMasks.lowest(bits), n, t);
            }
            sev.add(MetricTree.VISITS, n, p.visits(n));
            sev.add(MetricTree.SYNCS_SEND, n, p.zeroByteSends(n));
            sev.add(MetricTree.COMMS_SEND, n, p.sends(n));
            sev.add(MetricTree.BYTES_SENT, n, p.bytesSent(n));
        }
    }

    private void collectives(CollectiveOutcomes coll) {
        CollectiveTable t = loc.collectives();
        int l = loc.location();
        for (int i = 0; i < t.size(); i++) {
            int path = t.callPath(i);
            long s = t.sent(i);
            long r = t.received(i);
            // Message.pattern: every collective end is counted by its payload direction
            if (s == 0 && r == 0) {
                sev.add(MetricTree.SYNCS_COLL, path, 1);
            } else if (s != 0 && r != 0) {
                sev.add(MetricTree.COMMS_CXCH, path, 1);
            } else if (s != 0) {
                sev.add(MetricTree.COMMS_CSRC, path, 1);
            } else {
                sev.add(MetricTree.COMMS_CDST, path, 1);
            }
            sev.add(MetricTree.BYTES_COUT, path, s);
            sev.add(MetricTree.BYTES_CIN, path, r);
            CollectivePattern p = CollectivePattern.forOp(CollectiveOp.isValidCode(t.op(i)) ? CollectiveOp.of(t.op(i)) : null);
            if (p == null) {
                continue;
            }
            long w = coll.waitAt(l, i);
            if (w > 0) {
                sev.add(p.waitMetric(), path, w);
                sev.addComm(t.comm(i), p.waitMetric(), w);
                instances.count(p.waitMetric());
            }
            long c = coll.completionAt(l, i);
            if (c > 0 && p.completionMetric() >= 0) {
                sev.add(p.completionMetric(), path, c);
                sev.addComm(t.comm(i), p.completionMetric(), c);
                instances.count(p.completionMetric());
            }
            byte v = coll.violationAt(l, i);
            if (v != 0) {
                violations[v - 1]++;
            }
        }
    }

    private void initFinalize(InitFinalize.Reference init, InitFinalize.Reference fin) {
        if (init.complete() && loc.hasInit()) {
            long c = InitFinalize.completion(init, loc.initLeave());
            sev.add(MetricTree.MPI_INIT_COMPLETION, loc.initCallPath(), c);
            if (InitFinalize.violated(init, loc.initLeave())) {
                violations[ViolationKind.INIT_FINALIZE_LEAVE_BEFORE_LAST_ENTER.ordinal()]++;
            }
        }
        if (fin.complete() && loc.hasFinalize()) {
            long w = InitFinalize.finalizeWait(fin, loc.finalizeEnter(), loc.finalizeLeave());
            sev.add(MetricTree.MPI_FINALIZE_WAIT, loc.finalizeCallPath(), w);
            if (InitFinalize.violated(fin, loc.finalizeLeave())) {
                violations[ViolationKind.INIT_FINALIZE_LEAVE_BEFORE_LAST_ENTER.ordinal()]++;
            }
        }
    }

    /** Parents whose value is their children's sum (metric-inclusive values, Cube's convention). */
    private void sums() {
        sev.sum(MetricTree.SYNCS_P2P, MetricTree.SYNCS_SEND, MetricTree.SYNCS_RECV);
        sev.sum(MetricTree.SYNCS, MetricTree.SYNCS_P2P, MetricTree.SYNCS_COLL);
        sev.sum(MetricTree.COMMS_P2P, MetricTree.COMMS_SEND, MetricTree.COMMS_RECV);
        sev.sum(MetricTree.COMMS_COLL, MetricTree.COMMS_CXCH, MetricTree.COMMS_CSRC, MetricTree.COMMS_CDST);
        sev.sum(MetricTree.COMMS, MetricTree.COMMS_P2P, MetricTree.COMMS_COLL);
        sev.sum(MetricTree.BYTES_P2P, MetricTree.BYTES_SENT, MetricTree.BYTES_RCVD);
        sev.sum(MetricTree.BYTES_COLL, MetricTree.BYTES_COUT, MetricTree.BYTES_CIN);
        sev.sum(MetricTree.BYTES, MetricTree.BYTES_P2P, MetricTree.BYTES_COLL);
    }
}
