package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.Instance;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.Parallel;
import dev.straggler.replay.ProgressListener;
import dev.straggler.replay.Replay;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The wait-state stage ("where" time is lost): the collective instances first (they need all members), then every
 * location in parallel — time profile by Scalasca's call-path masks, statistics, point-to-point patterns, the
 * outcome of its collectives and of MPI_Init/MPI_Finalize — booked into the cube in location order, so the result
 * does not depend on the thread count. The root-cause stage ({@code rootcause}) reads what this stage leaves.
 */
public final class WaitStates {
    private WaitStates() {
    }

    /**
     * What the stage found besides the severities it booked.
     *
     * @param violations        clock-condition violations per {@link ViolationKind} ordinal
     * @param unmatchedSends    sends no receive matched (ignored, as Scalasca ignores them)
     * @param unmatchedReceives receives no send matched (skipped)
     * @param instances         the most severe occurrences per pattern, most severe first
     * @param instanceCounts    occurrences per metric index
     * @param collectives       per collective record: waits, completions, synchronisation points
     * @param init              the MPI_Init reference (last enter) over all ranks
     * @param fin               the MPI_Finalize reference over all ranks
     * @param lateSenderWaits   per location and receive row, the Late Sender wait in ticks; null rows unless
     *                          recorded
     * @param lateReceiverWaits per location and send row, the Late Receiver wait in ticks; null rows unless
     *                          recorded
     * @param communicators     per communicator, the wait-state ticks per metric index summed over its
     *                          operations; null rows for communicators without waiting
     */
    public record Result(long[] violations, long unmatchedSends, long unmatchedReceives, List<Instance> instances,
                         long[] instanceCounts, CollectiveOutcomes collectives, InitFinalize.Reference init,
                         InitFinalize.Reference fin, long[][] lateSenderWaits, long[][] lateReceiverWaits,
                         long[][] communicators) {
    }

    /**
     * Runs the stage and adds its severities to {@code cube} (seconds for time metrics).
     *
     * @param recordWaits keep the point-to-point waits per record, for the root-cause stage
     */
    public static Result run(Replay replay, SeverityCube cube, ExecutorService pool, int threads,
                             int topInstances, boolean recordWaits, ProgressListener progress) throws IOException {
        long[] timeMasks = TimeMasks.of(replay.regions());
        CollectiveOutcomes coll = new CollectiveOutcomes(replay);
        InstanceCollector instances = CollectiveReplay.run(replay, coll, pool, topInstances);
        InitFinalize.Reference init = InitFinalize.init(replay);
        InitFinalize.Reference fin = InitFinalize.finalizeReference(replay);

        long[] violations = new long[ViolationKind.values().length];
        long[] unmatched = new long[2];
        double tps = replay.definitions().clock().ticksPerSecond();
        int n = replay.locations().size();
        AtomicLong done = new AtomicLong();
        long[][] lateSender = new long[n][];
        long[][] lateReceiver = new long[n][];
        long[][] byComm = new long[replay.definitions().communicators().size()][];
        Parallel.forEachOrdered(pool, n, 2 * threads, l -> {
            LocationAnalysis a = LocationAnalysis.run(replay, l, timeMasks, coll, init, fin, topInstances,
                    recordWaits);
            progress.update("patterns", done.incrementAndGet(), n);
            return a;
        }, (l, a) -> {
            copyInto(cube, a, tps);
            instances.addAll(a.instances);
            for (int k = 0; k < violations.length; k++) {
                violations[k] += a.violations[k];
            }
            unmatched[0] += a.unmatchedSends;
            unmatched[1] += a.unmatchedReceives;
            lateSender[l] = a.lateSenderWaits;
            lateReceiver[l] = a.lateReceiverWaits;
            long[][] rows = a.sev.byCommunicator();
            for (int c = 0; c < rows.length && c < byComm.length; c++) {
                if (rows[c] != null) {
                    if (byComm[c] == null) {
                        byComm[c] = new long[MetricTree.COUNT];
                    }
                    for (int m = 0; m < MetricTree.COUNT; m++) {
                        byComm[c][m] += rows[c][m];
                    }
                }
            }
        });
        VisitMasks.addTo(cube, timeMasks);
        List<Instance> top = instances.instances(tps, replay.definitions().clock().globalOffset());
        return new Result(violations, unmatched[0], unmatched[1], top, instances.counts(), coll, init, fin,
                lateSender, lateReceiver, byComm);
    }

    private static void copyInto(SeverityCube cube, LocationAnalysis a, double tps) {
        LocationData loc = a.loc;
        for (int m = 0; m < MetricTree.COUNT; m++) {
            long[] row = a.sev.row(m);
            if (row == null) {
                continue;
            }
            boolean time = MetricTree.isTime(m);
            for (int p = 0; p < row.length; p++) {
                if (row[p] != 0) {
                    cube.add(m, loc.globalCallPath(p), loc.location(), time ? row[p] / tps : row[p]);
                }
            }
        }
    }
}
