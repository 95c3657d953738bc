package dev.straggler.replay;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;

import java.util.Arrays;
import java.util.List;

/**
 * The forward pass over one location's event stream: rebuilds its call stack and call tree, accumulates the
 * time/visit profile and extracts the communication records, batch by batch, so that nothing of the ENTER/LEAVE
 * stream is kept. Allocation-free per event (arrays grow geometrically).
 *
 * <p>The records carry what Scalasca's replay ships between processes (reference §1.1): a send's own timestamp,
 * the Enter of its call and the Enter/Leave of the call completing it; a receive's timestamp, the Enter/Leave of
 * its call and the Enter of its request call; a collective's Begin/End and byte counts. The Leave of a call is
 * not known when its record is read, so records wait on a stack of pending patches until that Leave.
 *
 * <p>Single-threaded; one instance per location.
 */
public final class LocationPass {
    private static final int PATCH_RECV_LEAVE = 0;
    private static final int PATCH_SEND_COMPLETION = 1;
    private static final int PATCH_MARK_LEAVE = 2;
    private static final int PATCH_BITS = 2;

    private final int location;
    private final int rank;
    private final int thread;
    private final boolean mpiLocation;
    private final RegionTable regions;
    private final int[] commSizes;

    private final LocationProfile profile = new LocationProfile();
    private final SendTable sends = new SendTable();
    private final RecvTable receives = new RecvTable();
    private final CollectiveTable collectives = new CollectiveTable();
    /** The OpenMP constructs of this location (forks, joins, parallel regions, barriers, locks). */
    private final ThreadRecords threads = new ThreadRecords();
    /** The program/THREADS node a created thread's outermost regions hang under (-1: the root). */
    private int threadRoot = -1;
    private int threadRootParent = -1;
    /**
     * The master thread's records, on a worker thread of a process whose master was replayed first: its k-th
     * parallel region hangs under the master's call stack at the k-th fork (docs/openmp.md §2). Null otherwise.
     */
    private ThreadRecords team;
    private int teamInstances;
    /** The worker's call-path nodes of the master's stack above the open parallel region (time pushed up). */
    private int[] prefixNodes = new int[16];
    private int prefixLength;
    /** Instance index of the parallel region open on this thread and its stack depth; -1 when none. */
    private int openParallel = -1;
    private int openParallelDepth = -1;
    /** Stack depth of the OpenMP barrier being executed, -1 outside one: tasks run inside it are its task time. */
    private int openBarrierDepth = -1;
    /**
     * Marks and call-path intervals for the root-cause analysis; null on locations whose MPI is not analysed and
     * that are no worker thread of a team.
     */
    private CallPathIntervals intervals;
    /** The intervals asked for, kept for a worker thread until it joins its team ({@link #joinTeamOf}). */
    private final CallPathIntervals askedIntervals;

    // Call stack, one entry per open region.
    private int depth;
    private int[] stackNode = new int[64];
    private int[] stackRegion = new int[64];
    private long[] stackEnter = new long[64];
    private int[] stackCall = new int[64];
    private int[] stackPending = new int[64];
    private int mpiCalls;

    // Records waiting for the Leave of the call that contains them: (index << 1) | kind.
    private long[] pending = new long[64];
    private int pendingSize;

    private final Long2IntOpenHashMap isendByRequest = new Long2IntOpenHashMap();
    private final Long2LongOpenHashMap irecvEnterByRequest = new Long2LongOpenHashMap();
    private final Long2IntOpenHashMap irecvMarkByRequest = new Long2IntOpenHashMap();
    private long collectiveBegin;
    private boolean hasCollectiveBegin;

    private long events;
    /** Position in the stream of the event being replayed (marks record it, see {@link CallPathIntervals}). */
    private long position;
    private long firstTime;
    private long lastTime = Long.MIN_VALUE;
    private final long[] anomalies = new long[Anomaly.values().length];

    private long initEnter;
    private long initLeave;
    private int initPath = -1;
    private long finalizeEnter;
    private long finalizeLeave;
    private int finalizePath = -1;

    /**
     * @param mpiLocation whether this location is its rank's master thread, the only one whose MPI records are
     *                    analysed (MPI records elsewhere are counted as {@link Anomaly#MPI_OFF_MASTER_THREAD})
     */
    public LocationPass(TraceDefinitions defs, RegionTable regions, int location, boolean mpiLocation) {
        this(defs, regions, location, mpiLocation, false);
    }

    /** @param keepIntervals record marks (root causes) on an MPI location */
    public LocationPass(TraceDefinitions defs, RegionTable regions, int location, boolean mpiLocation,
                        boolean keepIntervals) {
        this(defs, regions, location, mpiLocation, keepIntervals ? new CallPathIntervals(defs.clock()) : null);
    }

    /** @param intervals where to record marks and interval times on an MPI location; null for none */
    LocationPass(TraceDefinitions defs, RegionTable regions, int location, boolean mpiLocation,
                 CallPathIntervals intervals) {
        this.location = location;
        this.rank = defs.location(location).rank();
        this.thread = defs.location(location).thread();
        this.mpiLocation = mpiLocation;
        this.regions = regions;
        List<Communicator> comms = defs.communicators();
        this.commSizes = new int[comms.size()];
        for (int i = 0; i < commSizes.length; i++) {
            commSizes[i] = comms.get(i).size();
        }
        isendByRequest.defaultReturnValue(-1);
        irecvEnterByRequest.defaultReturnValue(Long.MIN_VALUE);
        irecvMarkByRequest.defaultReturnValue(-1);
        this.intervals = mpiLocation ? intervals : null;
        this.askedIntervals = intervals;
    }

    /**
     * Makes this (worker) location's parallel regions hang under its master's call stack at the matching fork, as
     * Scalasca's reader builds the call paths of a team ({@code master} was replayed before).
     */
    public void joinTeamOf(ThreadRecords master) {
        this.team = master;
        // a worker has no MPI records, but its OpenMP synchronisation points take part in the root causes
        this.intervals = askedIntervals;
    }

    /** Replays events {@code [0, b.size)} of the next batch of the stream. */
    public void accept(EventBatch b) {
        final long[] time = b.time;
        final byte[] kind = b.kind;
        final int n = b.size;
        if (n > 0 && events == 0) {
            firstTime = time[0];
        }
        final long base = events;
        for (int i = 0; i < n; i++) {
            position = base + i;
            long t = time[i];
            if (t < lastTime) {
                anomalies[Anomaly.TIME_REVERSAL.ordinal()]++;
            }
            lastTime = t;
            // Dispatch on the kind byte (EventKind codes): a tableswitch, the cheapest per-event dispatch table.
            switch (kind[i]) {
                case EventKind.ENTER_CODE -> enter(t, b.ref[i]);
                case EventKind.LEAVE_CODE -> leave(t, b.ref[i]);
                case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE -> send(b, i);
                case EventKind.MPI_RECV_CODE, EventKind.MPI_IRECV_CODE -> receive(b, i);
                case EventKind.MPI_ISEND_COMPLETE_CODE -> sendComplete(b.aux[i]);
                case EventKind.MPI_IRECV_REQUEST_CODE -> receiveRequest(b.aux[i]);
                case EventKind.MPI_REQUEST_CANCELLED_CODE -> cancelled(b.aux[i]);
                case EventKind.MPI_REQUEST_TEST_CODE -> {
                    // A failed test carries no analysis semantics in Scalasca's patterns (reference §1.5).
                }
                case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> {
                    collectiveBegin = t;
                    hasCollectiveBegin = true;
                }
                case EventKind.MPI_COLLECTIVE_END_CODE -> collectiveEnd(b, i);
                case EventKind.MEASUREMENT_ON_OFF_CODE -> measurementOnOff(t, b.ref[i]);
                case EventKind.PROGRAM_BEGIN_CODE -> enter(t, regions.programRegion());
                case EventKind.PROGRAM_END_CODE -> leave(t, regions.programRegion());
                case EventKind.BUFFER_FLUSH_CODE -> {
                    // PEARL turns a flush into a visit of TRACE BUFFER FLUSH lasting until its stop time.
                    long stop = b.aux[i];
                    enter(t, regions.flushRegion());
                    leave(stop, regions.flushRegion());
                    lastTime = Math.max(t, stop);
                }
                case EventKind.THREAD_FORK_CODE -> threads.fork(t, stackRegion, depth);
                case EventKind.THREAD_JOIN_CODE -> join(t);
                case EventKind.THREAD_BEGIN_CODE -> threadBegin();
                case EventKind.THREAD_ACQUIRE_LOCK_CODE -> lock(b, i, true);
                case EventKind.THREAD_RELEASE_LOCK_CODE -> lock(b, i, false);
                default -> {
                    // every EventKind code is handled above; TraceSource guarantees valid codes
                }
            }
        }
        events += n;
    }

    /** The marks kept so far (0 when none are kept). */
    int marks() {
        return intervals == null ? 0 : intervals.size();
    }

    /** Of {@link #marks()}, the OpenMP ones. */
    int openMpMarks() {
        return intervals == null ? 0 : intervals.openMpMarks();
    }

    /** Closes what is still open and returns the location's data; the pass is unusable afterwards. */
    public LocationData finish() {
        if (depth > 0) {
            position = events;
            anomalies[Anomaly.UNCLOSED_REGION.ordinal()] += depth;
            while (depth > 0) {
                leave(lastTime, stackRegion[depth - 1]);
            }
        }
        if (intervals != null) {
            intervals.finish();
        }
        return new LocationData(location, rank, thread, profile, sends, receives, collectives, intervals, threads,
                events, anomalies,
                events == 0 ? 0 : firstTime, events == 0 ? 0 : lastTime,
                initEnter, initLeave, initPath, finalizeEnter, finalizeLeave, finalizePath);
    }

    /**
     * A created thread's first record: its outermost regions hang under program/THREADS from here on, as PEARL's
     * call-path builder sets the THREADS call path current at THREAD_BEGIN (pearl_base.cpp). The node is created
     * now, in event order, as PEARL creates it; it is never entered, so it has no visits and no time.
     */
    private void threadBegin() {
        int threadsRegion = regions.threadsRegion();
        if (threadsRegion >= 0 && depth == 0) {
            threadRootParent = profile.child(-1, regions.programRegion());
            threadRoot = profile.child(threadRootParent, threadsRegion);
        }
    }

    private void enter(long t, int region) {
        byte construct = regions.construct(region);
        boolean forkPoint = construct == RegionTable.PARALLEL && openParallel < 0;
        int parent = depth == 0 ? threadRoot : stackNode[depth - 1];
        if (construct == RegionTable.PARALLEL && depth == 0 && team != null) {
            parent = hangUnderFork();
        }
        int node = profile.child(parent, region);
        profile.addVisit(node);
        if (construct != RegionTable.NO_CONSTRUCT) {
            openMpEnter(construct, node, t);
        }
        if (intervals != null) {
            intervals.enter(t, depth == 0 ? -1 : stackNode[depth - 1]);
        }
        if (depth == stackNode.length) {
            growStack();
        }
        stackNode[depth] = node;
        stackRegion[depth] = region;
        stackEnter[depth] = t;
        stackCall[depth] = RegionClass.isMpi(regions.classOf(region)) ? mpiCalls++ : -1;
        stackPending[depth] = pendingSize;
        depth++;
        if (forkPoint && intervals != null) {
            // marked after the Enter's time is booked: Scalasca saves the fork's interval in a post-Enter handler
            int m = intervals.mark(CallPathIntervals.OMP_FORK, openParallel, node, t, position);
            intervals.setLeave(m, t);
        }
    }

    private void join(long t) {
        threads.join(t);
        if (intervals != null) {
            int m = intervals.mark(CallPathIntervals.OMP_JOIN, threads.joins() - 1, depth > 0 ? stackNode[depth - 1] : -1,
                    t, position);
            intervals.setLeave(m, t);
        }
    }

    private void leave(long t, int region) {
        if (depth == 0) {
            anomalies[Anomaly.LEAVE_WITHOUT_ENTER.ordinal()]++;
            return;
        }
        int d = depth - 1;
        if (stackRegion[d] != region) {
            anomalies[Anomaly.LEAVE_REGION_MISMATCH.ordinal()]++;
        }
        int node = stackNode[d];
        profile.addTime(node, t - stackEnter[d]);
        if (openBarrierDepth >= 0) {
            if (d == openBarrierDepth) {
                openBarrierDepth = -1;
            } else if (d == openBarrierDepth + 1 && regions.isTask(region)) {
                // a task run to its end inside the barrier: not waiting (Scalasca's TASK_CORRECTION)
                threads.barrierTask(t - stackEnter[d]);
            }
        }
        if (d == openParallelDepth) {
            threads.parallelLeave(openParallel, t);
            openParallel = -1;
            openParallelDepth = -1;
        }
        if (d == 0 && prefixLength > 0) {
            // Scalasca adds a worker's parallel region to the master's call paths above it: they hold no time of
            // their own on the worker (exclusive 0), only the region's
            for (int i = 0; i < prefixLength; i++) {
                profile.addTime(prefixNodes[i], t - stackEnter[d]);
            }
            prefixLength = 0;
        }
        if (d == 0 && threadRoot >= 0) {
            // likewise program/THREADS above a created thread's outermost region: no time of their own
            profile.addTime(threadRoot, t - stackEnter[d]);
            profile.addTime(threadRootParent, t - stackEnter[d]);
        }
        for (int p = stackPending[d]; p < pendingSize; p++) {
            long e = pending[p];
            int idx = (int) (e >>> PATCH_BITS);
            switch ((int) (e & ((1 << PATCH_BITS) - 1))) {
                case PATCH_RECV_LEAVE -> receives.setLeave(idx, t);
                case PATCH_SEND_COMPLETION -> sends.setCompletionLeave(idx, t);
                default -> intervals.setLeave(idx, t);
            }
        }
        pendingSize = stackPending[d];
        int cls = regions.classOf(stackRegion[d]);
        // Init/Finalize patterns use the first MPI_Init and MPI_Finalize of a location (MpiCommunicationHandler).
        if (initPath < 0 && RegionClass.isInit(cls)) {
            initEnter = stackEnter[d];
            initLeave = t;
            initPath = node;
            markInitFinalize(CallPathIntervals.INIT, node, t, d);
        } else if (finalizePath < 0 && RegionClass.isFinalize(cls)) {
            finalizeEnter = stackEnter[d];
            finalizeLeave = t;
            finalizePath = node;
            markInitFinalize(CallPathIntervals.FINALIZE, node, t, d);
        }
        if (intervals != null) {
            byte construct = regions.construct(stackRegion[d]);
            if ((construct == RegionTable.BARRIER || construct == RegionTable.IMPLICIT_BARRIER) && openParallel >= 0) {
                // a team barrier's Leave: a synchronisation point, saved before the Leave's time is booked
                int m = intervals.mark(CallPathIntervals.OMP_BARRIER, threads.barriers() - 1, node, stackEnter[d],
                        position);
                intervals.setLeave(m, t);
            }
            intervals.leave(t, node);
        }
        depth = d;
    }

    /** The worker's node of the master's call path at the fork that opened its next parallel region. */
    private int hangUnderFork() {
        int k = teamInstances++;
        if (k >= team.forks()) {
            anomalies[Anomaly.PARALLEL_WITHOUT_FORK.ordinal()]++;
            return -1;
        }
        // every parallel region of every worker comes here: the master's stack is read in place, not copied
        int depth = team.forkStackDepth(k);
        if (depth > prefixNodes.length) {
            prefixNodes = Arrays.copyOf(prefixNodes, depth);
        }
        int p = -1;
        for (int i = 0; i < depth; i++) {
            p = profile.child(p, team.forkStackRegion(k, i));
            prefixNodes[i] = p;
        }
        prefixLength = depth;
        return p;
    }

    private void openMpEnter(byte construct, int node, long t) {
        switch (construct) {
            case RegionTable.PARALLEL -> {
                if (openParallel >= 0) {
                    threads.nestedParallel();
                } else {
                    openParallel = threads.parallelEnter(node, t);
                    openParallelDepth = depth;
                }
            }
            case RegionTable.BARRIER, RegionTable.IMPLICIT_BARRIER -> {
                // a barrier outside any parallel region (an orphaned barrier called from serial code) binds to a team
                // of one: no instance of the team's, as Scalasca skips barriers at nest level 0 (docs/openmp.md §7)
                if (openParallel >= 0) {
                    threads.barrier(node, t, construct);
                    openBarrierDepth = depth;
                }
            }
            default -> {
            }
        }
    }

    private void lock(EventBatch b, int i, boolean acquire) {
        // the record's threading model (OTF2 paradigm): Scalasca tracks the locks of OpenMP and of POSIX threads,
        // each model apart (Thread.pattern), and no other's (docs/openmp.md §8)
        Paradigm model = Paradigm.of(b.comm[i]);
        byte m;
        if (model == Paradigm.OPENMP) {
            m = ThreadRecords.OPENMP_LOCK;
        } else if (model == Paradigm.PTHREAD) {
            m = ThreadRecords.PTHREAD_LOCK;
        } else {
            if (acquire) {
                anomalies[Anomaly.OTHER_MODEL_LOCK.ordinal()]++;
            }
            return;
        }
        if (!acquire) {
            threads.release(m, b.ref[i], b.aux[i], b.time[i]);
        } else if (depth == 0) {
            anomalies[Anomaly.LOCK_OUTSIDE_REGION.ordinal()]++;
        } else {
            int top = depth - 1;
            threads.acquire(m, b.ref[i], b.aux[i], stackNode[top], stackEnter[top],
                    regions.construct(stackRegion[top]));
        }
    }

    /** Scalasca's INIT/FINALIZE synchronisation point is the Leave itself, marked before its time is booked. */
    private void markInitFinalize(byte k, int node, long t, int d) {
        if (intervals != null) {
            int m = intervals.mark(k, -1, node, stackEnter[d], position);
            intervals.setLeave(m, t);
        }
    }

    /**
     * Marks a communication event held by the call on top of the stack; its Leave is patched later. -1 when no
     * intervals are kept.
     */
    private int mark(byte k, int ref) {
        if (intervals == null) {
            return -1;
        }
        int top = depth - 1;
        int m = intervals.mark(k, ref, stackNode[top], stackEnter[top], position);
        addPending(m, PATCH_MARK_LEAVE);
        return m;
    }

    private void measurementOnOff(long t, int mode) {
        if (mode == 2) {
            enter(t, regions.pauseRegion());
        } else if (depth > 0 && stackRegion[depth - 1] == regions.pauseRegion()) {
            leave(t, regions.pauseRegion());
        } else {
            anomalies[Anomaly.MEASUREMENT_ON_WITHOUT_OFF.ordinal()]++;
        }
    }

    /** True when the record may be analysed: master thread, defined communicator, peer inside it. */
    private boolean validMessage(int comm, int peer) {
        if (!mpiLocation) {
            anomalies[Anomaly.MPI_OFF_MASTER_THREAD.ordinal()]++;
            return false;
        }
        if (comm < 0 || comm >= commSizes.length || peer < 0 || peer >= commSizes[comm] || depth == 0) {
            anomalies[Anomaly.BAD_COMMUNICATOR.ordinal()]++;
            return false;
        }
        return true;
    }

    private boolean topIsMpi() {
        return RegionClass.isMpi(regions.classOf(stackRegion[depth - 1]));
    }

    private void send(EventBatch b, int i) {
        int comm = b.comm[i];
        int peer = b.ref[i];
        if (!validMessage(comm, peer)) {
            return;
        }
        int top = depth - 1;
        long length = b.bytes[i];
        // Message.pattern counts every send record on its call path, shipped or not.
        profile.addSend(stackNode[top], length);
        int idx = sends.add(b.time[i], stackEnter[top], comm, peer, b.tag[i], length, topIsMpi());
        mark(CallPathIntervals.SEND, idx);
        if (b.kind[i] == EventKind.MPI_SEND_CODE) {
            // A blocking send is its own completion.
            int cls = regions.classOf(stackRegion[top]);
            byte k = RegionClass.isBlockingSend(cls) ? SendTable.CMP_BLOCKING_SEND : SendTable.CMP_OTHER;
            sends.complete(idx, k, stackEnter[top], stackNode[top], stackCall[top]);
            addPending(idx, PATCH_SEND_COMPLETION);
        } else {
            isendByRequest.put(b.aux[i], idx);
        }
    }

    private void sendComplete(long request) {
        if (!mpiLocation) {
            anomalies[Anomaly.MPI_OFF_MASTER_THREAD.ordinal()]++;
            return;
        }
        int idx = isendByRequest.remove(request);
        if (idx < 0 || depth == 0) {
            anomalies[Anomaly.UNKNOWN_REQUEST.ordinal()]++;
            return;
        }
        int top = depth - 1;
        int cls = regions.classOf(stackRegion[top]);
        byte k = RegionClass.isWaitSingle(cls) ? SendTable.CMP_WAIT_SINGLE
                : RegionClass.isWaitMulti(cls) ? SendTable.CMP_WAIT_MULTI
                : RegionClass.isBlockingSend(cls) ? SendTable.CMP_BLOCKING_SEND : SendTable.CMP_OTHER;
        sends.complete(idx, k, stackEnter[top], stackNode[top], stackCall[top]);
        addPending(idx, PATCH_SEND_COMPLETION);
        mark(CallPathIntervals.SEND_COMPLETE, idx);
    }

    private void receiveRequest(long request) {
        if (!mpiLocation) {
            anomalies[Anomaly.MPI_OFF_MASTER_THREAD.ordinal()]++;
            return;
        }
        irecvEnterByRequest.put(request, depth == 0 ? lastTime : stackEnter[depth - 1]);
        if (depth > 0 && intervals != null) {
            irecvMarkByRequest.put(request, mark(CallPathIntervals.RECV_REQUEST, -1));
        }
    }

    private void cancelled(long request) {
        if (!mpiLocation) {
            anomalies[Anomaly.MPI_OFF_MASTER_THREAD.ordinal()]++;
            return;
        }
        int idx = isendByRequest.remove(request);
        if (idx >= 0) {
            sends.cancel(idx);
        } else if (irecvEnterByRequest.remove(request) == Long.MIN_VALUE) {
            irecvMarkByRequest.remove(request);
            anomalies[Anomaly.UNKNOWN_REQUEST.ordinal()]++;
        }
    }

    private void receive(EventBatch b, int i) {
        int comm = b.comm[i];
        int peer = b.ref[i];
        if (!validMessage(comm, peer)) {
            return;
        }
        int top = depth - 1;
        long reqEnter = stackEnter[top];
        int reqMark = -1;
        if (b.kind[i] == EventKind.MPI_IRECV_CODE) {
            reqMark = irecvMarkByRequest.remove(b.aux[i]);
            long posted = irecvEnterByRequest.remove(b.aux[i]);
            if (posted != Long.MIN_VALUE) {
                reqEnter = posted;
            } else {
                // PEARL's request() of a receive without request record is the receive itself.
                anomalies[Anomaly.UNKNOWN_REQUEST.ordinal()]++;
            }
        }
        int cls = regions.classOf(stackRegion[top]);
        byte k = RegionClass.isTest(cls) ? RecvTable.CALL_TEST
                : RegionClass.isWaitMulti(cls) ? RecvTable.CALL_WAIT_MULTI : RecvTable.CALL_OTHER;
        // A call that completes several receives waits for them together, whatever its name: only its largest
        // Late Sender counts, as for MPI_Waitall. Real MPI calls other than Waitall/Waitsome/Testall/Testsome complete
        // at most one receive, so this only matters for unknown or damaged region names, where counting every
        // receive's wait would give more waiting than the call lasted.
        int last = receives.size() - 1;
        if (k == RecvTable.CALL_OTHER && last >= 0 && receives.call(last) == stackCall[top]
                && receives.kind(last) != RecvTable.CALL_TEST) {
            k = RecvTable.CALL_WAIT_MULTI;
            receives.setKind(last, k);
        }
        int idx = receives.add(b.time[i], stackEnter[top], reqEnter, comm, peer, b.tag[i], stackNode[top],
                stackCall[top], k, topIsMpi());
        addPending(idx, PATCH_RECV_LEAVE);
        mark(CallPathIntervals.RECV, idx);
        if (reqMark >= 0) {
            intervals.setRef(reqMark, idx);
        }
    }

    private void collectiveEnd(EventBatch b, int i) {
        int comm = b.comm[i];
        if (!mpiLocation) {
            anomalies[Anomaly.MPI_OFF_MASTER_THREAD.ordinal()]++;
            hasCollectiveBegin = false;
            return;
        }
        if (comm < 0 || comm >= commSizes.length || depth == 0) {
            anomalies[Anomaly.BAD_COMMUNICATOR.ordinal()]++;
            hasCollectiveBegin = false;
            return;
        }
        long begin = collectiveBegin;
        if (!hasCollectiveBegin) {
            anomalies[Anomaly.COLLECTIVE_END_WITHOUT_BEGIN.ordinal()]++;
            begin = stackEnter[depth - 1];
        }
        hasCollectiveBegin = false;
        int idx = collectives.add(begin, b.time[i], b.ref[i], comm, b.tag[i], b.bytes[i], b.aux[i],
                stackNode[depth - 1]);
        mark(CallPathIntervals.COLLECTIVE_END, idx);
    }

    private void addPending(int idx, int kind) {
        if (pendingSize == pending.length) {
            pending = Arrays.copyOf(pending, pending.length * 2);
        }
        pending[pendingSize++] = ((long) idx << PATCH_BITS) | kind;
    }

    private void growStack() {
        int cap = stackNode.length * 2;
        stackNode = Arrays.copyOf(stackNode, cap);
        stackRegion = Arrays.copyOf(stackRegion, cap);
        stackEnter = Arrays.copyOf(stackEnter, cap);
        stackCall = Arrays.copyOf(stackCall, cap);
        stackPending = Arrays.copyOf(stackPending, cap);
    }
}
