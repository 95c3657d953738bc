package dev.straggler.replay;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The second pass of the root-cause analysis over one location: only the call stack and the booking of
 * {@link CallPathIntervals}, nothing of the records, the profile or the requests, which the first pass
 * ({@link LocationPass}) already holds. The first pass's marks say where each mark's event is in the stream, so
 * this pass closes an interval at exactly the events where the first pass marked, and books exactly as it books:
 * the stack follows the same Enter/Leave rules (program begin/end, measurement pauses, buffer flushes, a Leave
 * without Enter ignored, regions left open closed at the last time), and the call-path ids are the first pass's,
 * looked up in its profile. Allocation-free per event. Single-threaded; one instance per location and pass.
 */
final class IntervalPass {
    private final CallPathIntervals marks;
    private final CallPathIntervals out;
    private final BitSet closing;
    private final LocationProfile profile;
    private final RegionTable regions;

    private int depth;
    private int[] stackNode = new int[64];
    private int[] stackRegion = new int[64];
    private long lastTime = Long.MIN_VALUE;
    private long events;

    /**
     * The OpenMP team: this location's own records (forks and joins on a master) and, on a worker thread, its
     * master's (null on a master), whose k-th fork opened the worker's k-th parallel region.
     */
    private final ThreadRecords own;
    private final ThreadRecords team;
    private int teamInstances;
    /** The worker's node of the master's call path above its open parallel region (-1 when none). */
    private int hangNode = -1;
    /** Depth of the open outermost parallel region and its instance on this thread; -1 when none. */
    private int parallelDepth = -1;
    private int parallelInstance = -1;
    private int parallels;

    /** The next mark of the first pass and the stream position of its event (MAX_VALUE after the last). */
    private int next;
    private long nextPosition;

    /**
     * The child of every (parent + 1, region) as one dense table when it is small (the location's call tree times
     * the regions, up to {@link #DENSE_LIMIT} cells); otherwise, and for region ids outside the table, a
     * direct-mapped cache in front of the profile's index, as the first pass has (a loop enters the same pairs).
     */
    private final int[] dense;
    private final int regionCount;
    private static final int DENSE_LIMIT = 1 << 18;
    private static final int CACHE = 1 << 10;
    private final long[] cacheKey;
    private final int[] cacheNode;

    /**
     * @param d          the location as the first pass left it (marks kept)
     * @param closing    the marks at which an interval closes besides receive requests (synchronisation points)
     * @param cnodeOf    Scalasca's call-path id of each local call path (what a full interval map keeps)
     * @param team       on a worker thread, its master's records (see {@link LocationPass#joinTeamOf}); else null
     * @param spill      where a large location's interval entries go ({@link IntervalEntries}); null: the heap
     * @param entryPaths the call path an entry is written as, of its local one; null: the local one
     */
    IntervalPass(LocationData d, BitSet closing, dev.straggler.trace.Clock clock, RegionTable regions,
                 java.util.function.IntUnaryOperator cnodeOf, ThreadRecords team, SpillFile spill,
                 java.util.function.IntUnaryOperator entryPaths) {
        this.own = d.threads();
        this.team = team;
        this.marks = d.intervals();
        this.out = CallPathIntervals.timesOnly(clock, cnodeOf, spill, entryPaths);
        this.closing = closing;
        this.profile = d.profile();
        this.regions = regions;
        this.regionCount = regions.size();
        long cells = (long) (profile.size() + 1) * regionCount;
        if (cells <= DENSE_LIMIT) {
            dense = new int[(int) cells];
            Arrays.fill(dense, -1);
            for (int node = 0; node < profile.size(); node++) {
                int r = profile.region(node);
                if (r >= 0 && r < regionCount) {
                    dense[(profile.parent(node) + 1) * regionCount + r] = node;
                }
            }
        } else {
            dense = null;
        }
        cacheKey = new long[CACHE];
        cacheNode = new int[CACHE];
        Arrays.fill(cacheKey, -1L);
        nextPosition = marks.size() > 0 ? marks.positionStep(0) : Long.MAX_VALUE;
    }

    /** The program/THREADS node after a THREAD_BEGIN (-1: the root), as in the first pass. */
    private int threadRoot = -1;

    void accept(EventBatch b) {
        final long[] time = b.time;
        final byte[] kind = b.kind;
        final int[] ref = b.ref;
        final int n = b.size;
        final long base = events;
        for (int i = 0; i < n; i++) {
            long t = time[i];
            lastTime = t;
            byte deferred = -1;
            if (base + i == nextPosition) {
                byte k = marks.kind(next);
                if (k == CallPathIntervals.OMP_FORK || k == CallPathIntervals.OMP_JOIN) {
                    // Scalasca saves these intervals after the event's own time is booked
                    deferred = k;
                } else {
                    // the first pass marked here: a communication record, or the Leave of MPI_Init/MPI_Finalize or
                    // of an OpenMP barrier, whose mark comes before the Leave's time is booked
                    advanceMark();
                }
            }
            switch (kind[i]) {
                case EventKind.ENTER_CODE -> enter(t, ref[i]);
                case EventKind.LEAVE_CODE -> leave(t, ref[i]);
                case EventKind.MEASUREMENT_ON_OFF_CODE -> {
                    if (ref[i] == 2) {
                        enter(t, regions.pauseRegion());
                    } else if (depth > 0 && stackRegion[depth - 1] == regions.pauseRegion()) {
                        leave(t, regions.pauseRegion());
                    }
                }
                case EventKind.PROGRAM_BEGIN_CODE -> enter(t, regions.programRegion());
                case EventKind.PROGRAM_END_CODE -> leave(t, regions.programRegion());
                case EventKind.THREAD_BEGIN_CODE -> {
                    // as the first pass: a created thread's outermost regions hang under program/THREADS
                    if (regions.threadsRegion() >= 0 && depth == 0) {
                        threadRoot = node(node(-1, regions.programRegion()), regions.threadsRegion());
                    }
                }
                case EventKind.BUFFER_FLUSH_CODE -> {
                    long stop = b.aux[i];
                    enter(t, regions.flushRegion());
                    leave(stop, regions.flushRegion());
                    lastTime = Math.max(t, stop);
                }
                default -> {
                    // communication records: only their marks matter here
                }
            }
            if (deferred == CallPathIntervals.OMP_FORK) {
                fork(t);
            } else if (deferred == CallPathIntervals.OMP_JOIN) {
                // the master's join books the time since the parallel region's Leave on the forking call path
                out.bookUntil(depth > 0 ? stackNode[depth - 1] : -1, t);
                advanceMark();
            }
        }
        events += n;
    }

    /**
     * The fork synchronisation point at the Enter of a parallel region (its time already booked): Scalasca's
     * time-map cache moves the fork time ({@code max(0, enter − fork)}) from the forking call path into the
     * region's next interval; a worker's map is cleared first (docs/openmp.md §6).
     */
    private void fork(long t) {
        int k = marks.ref(next);
        ThreadRecords forks = team != null ? team : own;
        double forkTime = k >= 0 && k < forks.forks()
                ? Math.max(0.0, out.secondsOf(t) - out.secondsOf(forks.forkTime(k))) : 0.0;
        int node = stackNode[depth - 1];
        int parent = depth >= 2 ? stackNode[depth - 2] : hangNode;
        if (team != null) {
            out.discardOpen();
        } else {
            out.adjust(parent, -forkTime);
        }
        advanceMark();
        out.adjust(node, forkTime);
    }

    /** Closes the regions still open as the first pass does and returns the interval times. */
    CallPathIntervals finish() {
        while (depth > 0) {
            // a mark made while closing (an unclosed MPI_Init/MPI_Finalize) has the stream's length as position
            if (nextPosition == events) {
                byte k = marks.kind(next);
                int cls = regions.classOf(stackRegion[depth - 1]);
                if ((k == CallPathIntervals.INIT && RegionClass.isInit(cls))
                        || (k == CallPathIntervals.FINALIZE && RegionClass.isFinalize(cls))) {
                    advanceMark();
                }
            }
            leave(lastTime, stackRegion[depth - 1]);
        }
        if (team != null) {
            // a worker's time after its last synchronisation point belongs to no interval (Scalasca clears it)
            out.discardOpen();
        }
        if (next != marks.size()) {
            throw new IllegalStateException("the second pass over location found " + next + " of "
                    + marks.size() + " marks: the trace changed between the passes");
        }
        out.finish();
        return out;
    }

    private void advanceMark() {
        int m = next++;
        out.closeMark(closing.get(m) || CallPathIntervals.alwaysCloses(marks.kind(m)));
        nextPosition = next < marks.size() ? nextPosition + marks.positionStep(next) : Long.MAX_VALUE;
    }

    private void enter(long t, int region) {
        int parent = depth == 0 ? -1 : stackNode[depth - 1];
        out.enter(t, parent);
        int lookupParent = depth == 0 ? threadRoot : parent;
        if (regions.construct(region) == RegionTable.PARALLEL && parallelDepth < 0) {
            parallelDepth = depth;
            parallelInstance = parallels++;
            if (depth == 0 && team != null) {
                lookupParent = hangUnderFork();
            }
        }
        if (depth == stackNode.length) {
            stackNode = Arrays.copyOf(stackNode, depth * 2);
            stackRegion = Arrays.copyOf(stackRegion, depth * 2);
        }
        stackNode[depth] = node(lookupParent, region);
        stackRegion[depth] = region;
        depth++;
    }

    private void leave(long t, int region) {
        if (depth == 0) {
            return; // as the first pass: a Leave without Enter is an anomaly and changes nothing
        }
        depth--;
        if (depth == parallelDepth) {
            join(t);
            parallelDepth = -1;
        }
        out.leave(t, stackNode[depth]);
    }

    /**
     * The Leave of the outermost parallel region (before its time is booked): Scalasca moves the join time
     * ({@code max(0, join − leave)}, the master's k-th THREAD_JOIN) from the forking call path to the region's.
     */
    private void join(long t) {
        ThreadRecords joins = team != null ? team : own;
        int k = parallelInstance;
        if (k < 0 || k >= joins.joins()) {
            return;
        }
        double joinTime = Math.max(0.0, out.secondsOf(joins.joinTime(k)) - out.secondsOf(t));
        out.adjust(depth >= 1 ? stackNode[depth - 1] : hangNode, -joinTime);
        out.adjust(stackNode[depth], joinTime);
    }

    /** The worker's node of the master's call path at the fork of its next parallel region, as the first pass. */
    private int hangUnderFork() {
        int k = teamInstances++;
        if (k >= team.forks()) {
            hangNode = -1;
            return -1;
        }
        int p = -1;
        for (int i = 0, depth = team.forkStackDepth(k); i < depth; i++) {
            p = node(p, team.forkStackRegion(k, i));
        }
        hangNode = p;
        return p;
    }

    private int node(int parent, int region) {
        if (dense != null && region >= 0 && region < regionCount) {
            int n = dense[(parent + 1) * regionCount + region];
            if (n < 0) {
                throw changed();
            }
            return n;
        }
        long key = ((long) (parent + 1) << 32) | (region & 0xffffffffL);
        int slot = (int) ((parent * 0x9E3779B1L + region) & (CACHE - 1));
        if (cacheKey[slot] == key) {
            return cacheNode[slot];
        }
        int n = profile.find(parent, region);
        if (n < 0) {
            throw changed();
        }
        cacheKey[slot] = key;
        cacheNode[slot] = n;
        return n;
    }

    private static IllegalStateException changed() {
        return new IllegalStateException("the second pass met a call path the first did not: the trace changed"
                + " between the passes");
    }
}
