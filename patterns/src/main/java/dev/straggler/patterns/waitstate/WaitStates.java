package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.Instance;
import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.Parallel;
import dev.straggler.replay.RegionTable;
import dev.straggler.trace.TraceDefinitions;
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
        long[] timeMasks = timeMasks(replay.regions());
        CollectiveOutcomes coll = new CollectiveOutcomes(replay);
        InstanceCollector collectiveOccurrences = CollectiveReplay.run(replay, coll, pool, topInstances);
        InitFinalize.Reference init = InitFinalize.init(replay);
        InitFinalize.Reference fin = InitFinalize.finalizeReference(replay);
        TraceDefinitions defs = replay.definitions();
        Merge merge = new Merge(cube, defs, timeMasks, topInstances);
        merge.addCollectiveChunk(collectiveOccurrences);
        int n = replay.locations().size();
        AtomicLong done = new AtomicLong();
        Parallel.forEachOrdered(pool, n, 2 * threads, l -> {
            LocationAnalysis a = LocationAnalysis.run(defs, replay.location(l), new ReplayPartners(replay, l),
                    timeMasks, coll, init, fin, topInstances, recordWaits);
            progress.update("patterns", done.incrementAndGet(), n);
            return a.outcome();
        }, (l, o) -> merge.add(o));
        return merge.finish(coll, init, fin);
    }

    /** Scalasca's call-path time masks of the regions: which time metrics a region's exclusive time goes to. */
    public static long[] timeMasks(RegionTable regions) {
        return TimeMasks.of(regions);
    }

    /**
     * Analyses one location whose partners were matched elsewhere (a distributed engine): the same severities,
     * occurrences and counts as {@link #run} finds for it. The location's call paths must be mapped to the unified
     * tree ({@link LocationData#setLocalToGlobal}).
     */
    public static LocationOutcome analyse(TraceDefinitions defs, LocationData loc, MessagePartners partners,
                                          long[] timeMasks, CollectiveOutcomes collectives,
                                          InitFinalize.Reference init, InitFinalize.Reference fin,
                                          int topInstances) {
        return analyse(defs, loc, partners, timeMasks, collectives, init, fin, topInstances, false);
    }

    /** As above; {@code recordWaits} keeps each record's point-to-point wait for the root-cause stage. */
    public static LocationOutcome analyse(TraceDefinitions defs, LocationData loc, MessagePartners partners,
                                          long[] timeMasks, CollectiveOutcomes collectives,
                                          InitFinalize.Reference init, InitFinalize.Reference fin,
                                          int topInstances, boolean recordWaits) {
        return LocationAnalysis.run(defs, loc, partners, timeMasks, collectives, init, fin, topInstances, recordWaits)
                .outcome();
    }

    /**
     * Books the outcomes into the cube in a fixed order — every collective chunk's occurrences in (communicator,
     * chunk) order first, then the locations in location order — so that the result is the same whichever engine
     * produced them and however it divided the work. Single-threaded.
     */
    public static final class Merge {
        private final SeverityCube cube;
        private final TraceDefinitions defs;
        private final long[] timeMasks;
        private final double tps;
        private final InstanceCollector instances;
        private final long[] violations = new long[ViolationKind.values().length];
        private final long[] unmatched = new long[2];
        private final long[][] lateSender;
        private final long[][] lateReceiver;
        private final long[][] byComm;
        private boolean locationsStarted;

        /**
         * A merge that books the severities into {@code cube}; null for an engine that books each location's
         * severities elsewhere ({@link #bookLocation}) and merges only the occurrences, counts and waits here.
         */
        public Merge(SeverityCube cube, TraceDefinitions defs, long[] timeMasks, int topInstances) {
            this.cube = cube;
            this.defs = defs;
            this.timeMasks = timeMasks;
            this.tps = defs.clock().ticksPerSecond();
            this.instances = new InstanceCollector(topInstances);
            int n = defs.locations().size();
            this.lateSender = new long[n][];
            this.lateReceiver = new long[n][];
            this.byComm = new long[defs.communicators().size()][];
        }

        /** Adds a collective chunk's occurrences; all chunks come before the first location. */
        public void addCollectiveChunk(InstanceCollector chunk) {
            if (locationsStarted) {
                throw new IllegalStateException("collective chunks must be merged before the locations");
            }
            instances.addAll(chunk);
        }

        /** Books one location's outcome; locations come in location order. */
        public void add(LocationOutcome a) {
            locationsStarted = true;
            if (cube != null) {
                copyInto(cube, a, a.location, tps);
            }
            instances.addAll(a.instances);
            for (int k = 0; k < violations.length; k++) {
                violations[k] += a.violations[k];
            }
            unmatched[0] += a.unmatchedSends;
            unmatched[1] += a.unmatchedReceives;
            lateSender[a.location] = a.lateSenderWaits;
            lateReceiver[a.location] = a.lateReceiverWaits;
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
        }

        /** Completes the cube (visit masks) and returns what the stage found besides the severities. */
        public Result finish(CollectiveOutcomes collectives, InitFinalize.Reference init, InitFinalize.Reference fin) {
            if (cube != null) {
                VisitMasks.addTo(cube, timeMasks);
            }
            List<Instance> top = instances.instances(tps, defs.clock().globalOffset());
            return new Result(violations, unmatched[0], unmatched[1], top, instances.counts(), collectives, init, fin,
                    lateSender, lateReceiver, byComm);
        }
    }

    /**
     * Books one location's severities and the counts derived from its visits into {@code column}, a cube whose only
     * location is that one: the values {@link Merge} books into the location's column of the whole cube, by the
     * same operations in the same order (each touches only the location's own column), for an engine that never
     * holds the whole cube.
     */
    public static void bookLocation(SeverityCube column, LocationOutcome a, double tps, long[] timeMasks) {
        if (column.locations().size() != 1) {
            throw new IllegalArgumentException("a location's column has one location, not "
                    + column.locations().size());
        }
        copyInto(column, a, 0, tps);
        VisitMasks.addTo(column, timeMasks);
    }

    private static void copyInto(SeverityCube cube, LocationOutcome a, int column, double tps) {
        for (int m = 0; m < MetricTree.COUNT; m++) {
            long[] row = a.sev.row(m);
            if (row == null) {
                continue;
            }
            boolean time = MetricTree.isTime(m);
            for (int p = 0; p < row.length; p++) {
                if (row[p] != 0) {
                    cube.add(m, a.globalPath[p], column, time ? row[p] / tps : row[p]);
                }
            }
        }
    }
}
