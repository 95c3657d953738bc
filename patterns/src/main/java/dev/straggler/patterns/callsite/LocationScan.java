package dev.straggler.patterns.callsite;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;

import java.io.IOException;
import java.util.Arrays;

/**
 * One pass over one location's events: an ENTER/LEAVE stack that builds the location's call tree, and per
 * outermost MPI call the callsite statistics (mpiP's accumulators, reference §5), the communication-profile keys
 * and the collective instances the cross-rank wait computation needs.
 *
 * <p>Works on primitive arrays and open-addressing maps; nothing is allocated per event. Not thread-safe; one
 * instance per location.
 */
final class LocationScan {
    final int location;
    final int rank;
    /** Per region: {@link #USER}, {@link #MPI}, {@link #MPI_INIT} or {@link #MPI_FINALIZE}. */
    private final byte[] regionClass;
    private final int[] commSize;
    private final int[][] commMembers;

    static final byte USER = 0;
    static final byte MPI = 1;
    static final byte MPI_INIT = 2;
    static final byte MPI_FINALIZE = 3;

    // Call tree: node 0 is a virtual root above the trace's root regions.
    final Long2IntOpenHashMap children = new Long2IntOpenHashMap();
    final IntArrayList nodeParent = new IntArrayList();
    final IntArrayList nodeRegion = new IntArrayList();
    long[] inclusive = new long[64];
    long[] visits = new long[64];
    // Per MPI-call node: mpiP's accumulators (times in ticks).
    long[] calls = new long[64];
    long[] callTicks = new long[64];
    long[] callMax = new long[64];
    long[] callMin = new long[64];
    long[] sent = new long[64];
    long[] sentMax = new long[64];
    long[] sentMin = new long[64];
    /** Per node: every outermost MPI call's time, Init and Finalize included (for phase breakdowns). */
    long[] allMpiTicks = new long[64];

    // Communication profile: (node, size bucket, partner) -> slot.
    final Long2IntOpenHashMap ipmIndex = new Long2IntOpenHashMap();
    final LongArrayList ipmKey = new LongArrayList();
    final LongArrayList ipmCount = new LongArrayList();
    final LongArrayList ipmTicks = new LongArrayList();
    final LongArrayList ipmBytes = new LongArrayList();

    // Collective instances, in this location's order.
    final IntArrayList collComm = new IntArrayList();
    final IntArrayList collOp = new IntArrayList();
    final IntArrayList collRoot = new IntArrayList();
    final IntArrayList collNode = new IntArrayList();
    final LongArrayList collBegin = new LongArrayList();
    final LongArrayList collEnd = new LongArrayList();
    final LongArrayList collSent = new LongArrayList();
    final LongArrayList collReceived = new LongArrayList();

    private int[] stackNode = new int[64];
    private long[] stackTime = new long[64];
    private int depth;
    private int mpiDepth;

    // The open outermost MPI call.
    private int callNode;
    private long callStart;
    private long callSent;
    private long callMessageBytes;
    private int callPeer;
    private boolean callManyPeers;
    private long collBeginTime;
    private boolean collOpen;

    long firstTime = Long.MAX_VALUE;
    long lastTime = Long.MIN_VALUE;
    long appStart = Long.MIN_VALUE;
    long appEnd = Long.MAX_VALUE;
    boolean sawInit;
    boolean sawFinalize;
    long mpiTicks;
    long unmatchedLeaves;
    long callsOutsideWindow;
    long unclosed;

    LocationScan(TraceDefinitions defs, int location, byte[] regionClass) {
        this.location = location;
        this.rank = defs.location(location).rank();
        this.regionClass = regionClass;
        int nc = defs.communicators().size();
        commSize = new int[nc];
        commMembers = new int[nc][];
        for (int c = 0; c < nc; c++) {
            commMembers[c] = defs.communicator(c).members();
            commSize[c] = commMembers[c].length;
        }
        children.defaultReturnValue(-1);
        ipmIndex.defaultReturnValue(-1);
        nodeParent.add(-1);
        nodeRegion.add(-1);
    }

    void run(LocationReader reader) throws IOException {
        EventBatch e = new EventBatch(8192);
        while (reader.next(e)) {
            for (int i = 0; i < e.size; i++) {
                event(e.time[i], e.kind[i], e.ref[i], e.comm[i], e.tag[i], e.bytes[i], e.aux[i]);
            }
        }
        unclosed = depth;
    }

    private void event(long t, byte kind, int ref, int comm, int tag, long bytes, long aux) {
        if (t < firstTime) {
            firstTime = t;
        }
        if (t > lastTime) {
            lastTime = t;
        }
        switch (kind) {
            case EventKind.ENTER_CODE -> enter(t, ref);
            case EventKind.LEAVE_CODE -> leave(t, ref);
            case EventKind.MPI_SEND_CODE, EventKind.MPI_ISEND_CODE -> message(ref, comm, bytes, true);
            case EventKind.MPI_RECV_CODE, EventKind.MPI_IRECV_CODE -> message(ref, comm, bytes, false);
            case EventKind.MPI_COLLECTIVE_BEGIN_CODE -> {
                collBeginTime = t;
                collOpen = true;
            }
            case EventKind.MPI_COLLECTIVE_END_CODE -> collectiveEnd(t, ref, comm, tag, bytes, aux);
            default -> {
                // Request bookkeeping, measurement on/off, program begin/end: nothing for callsite statistics.
            }
        }
    }

    private void enter(long t, int region) {
        int parent = depth == 0 ? 0 : stackNode[depth - 1];
        long key = ((long) parent << 32) | (region & 0xFFFFFFFFL);
        int node = children.get(key);
        if (node < 0) {
            node = nodeParent.size();
            nodeParent.add(parent);
            nodeRegion.add(region);
            children.put(key, node);
            grow(node + 1);
        }
        if (depth == stackNode.length) {
            stackNode = Arrays.copyOf(stackNode, depth * 2);
            stackTime = Arrays.copyOf(stackTime, depth * 2);
        }
        stackNode[depth] = node;
        stackTime[depth] = t;
        depth++;
        visits[node]++;
        byte cls = region >= 0 && region < regionClass.length ? regionClass[region] : USER;
        if (cls == MPI_FINALIZE && !sawFinalize) {
            // mpiP's AppTime ends where MPI_Finalize starts.
            sawFinalize = true;
            appEnd = t;
        }
        if (cls != USER) {
            if (mpiDepth == 0) {
                callNode = node;
                callStart = t;
                callSent = 0;
                callMessageBytes = 0;
                callPeer = -1;
                callManyPeers = false;
                collOpen = false;
            }
            mpiDepth++;
        }
    }

    private void leave(long t, int region) {
        if (depth == 0 || nodeRegion.getInt(stackNode[depth - 1]) != region) {
            unmatchedLeaves++;
            return;
        }
        depth--;
        int node = stackNode[depth];
        long dur = t - stackTime[depth];
        inclusive[node] += dur;
        byte cls = region >= 0 && region < regionClass.length ? regionClass[region] : USER;
        if (cls == MPI_INIT && !sawInit) {
            // mpiP's AppTime starts where MPI_Init returns.
            sawInit = true;
            appStart = t;
        }
        if (cls != USER) {
            mpiDepth--;
            if (mpiDepth == 0) {
                closeCall(node, cls, dur);
            }
        }
    }

    private void closeCall(int node, byte cls, long dur) {
        allMpiTicks[node] += dur;
        // mpiP profiles the calls between the end of MPI_Init and the start of MPI_Finalize (reference §5).
        boolean initOrFinalize = cls == MPI_INIT || cls == MPI_FINALIZE;
        if (initOrFinalize || (sawInit && callStart < appStart) || (sawFinalize && callStart >= appEnd)) {
            callsOutsideWindow += initOrFinalize ? 0 : 1;
            return;
        }
        mpiTicks += dur;
        if (calls[node] == 0) {
            callMax[node] = dur;
            callMin[node] = dur;
            sentMax[node] = callSent;
            sentMin[node] = callSent;
        } else {
            callMax[node] = Math.max(callMax[node], dur);
            callMin[node] = Math.min(callMin[node], dur);
            sentMax[node] = Math.max(sentMax[node], callSent);
            sentMin[node] = Math.min(sentMin[node], callSent);
        }
        calls[node]++;
        callTicks[node] += dur;
        sent[node] += callSent;
        int partner = callManyPeers ? -1 : callPeer;
        long key = ((long) node << 32) | ((long) sizeBucket(callMessageBytes) << 24) | ((partner + 1) & 0xFFFFFFL);
        int slot = ipmIndex.get(key);
        if (slot < 0) {
            slot = ipmKey.size();
            ipmIndex.put(key, slot);
            ipmKey.add(key);
            ipmCount.add(0);
            ipmTicks.add(0);
            ipmBytes.add(0);
        }
        ipmCount.set(slot, ipmCount.getLong(slot) + 1);
        ipmTicks.set(slot, ipmTicks.getLong(slot) + dur);
        ipmBytes.set(slot, ipmBytes.getLong(slot) + callMessageBytes);
    }

    private void message(int peer, int comm, long bytes, boolean send) {
        if (mpiDepth == 0) {
            return;
        }
        int global = comm >= 0 && comm < commMembers.length && peer >= 0 && peer < commSize[comm] ? commMembers[comm][peer] : -1;
        if (callPeer < 0 && !callManyPeers) {
            callPeer = global;
        } else if (callPeer != global) {
            callManyPeers = true;
        }
        callMessageBytes += bytes;
        if (send) {
            callSent += bytes;
        }
    }

    private void collectiveEnd(long t, int op, int comm, int root, long sentBytes, long receivedBytes) {
        if (mpiDepth == 0) {
            return;
        }
        callSent += sentBytes;
        callMessageBytes += Math.max(sentBytes, receivedBytes);
        int globalRoot = root >= 0 && comm >= 0 && comm < commMembers.length && root < commSize[comm] ? commMembers[comm][root] : -1;
        if (globalRoot >= 0) {
            callPeer = globalRoot;
        } else {
            callManyPeers = true;
        }
        collComm.add(comm);
        collOp.add(op);
        collRoot.add(root);
        collNode.add(callNode);
        collBegin.add(collOpen ? collBeginTime : callStart);
        collEnd.add(t);
        collSent.add(sentBytes);
        collReceived.add(receivedBytes);
        collOpen = false;
    }

    /** 0 for no bytes, else b with 2^(b-1) <= bytes < 2^b. */
    static int sizeBucket(long bytes) {
        return bytes <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(bytes);
    }

    private void grow(int n) {
        if (n <= inclusive.length) {
            return;
        }
        int cap = Math.max(n, inclusive.length * 2);
        inclusive = Arrays.copyOf(inclusive, cap);
        visits = Arrays.copyOf(visits, cap);
        calls = Arrays.copyOf(calls, cap);
        callTicks = Arrays.copyOf(callTicks, cap);
        callMax = Arrays.copyOf(callMax, cap);
        callMin = Arrays.copyOf(callMin, cap);
        sent = Arrays.copyOf(sent, cap);
        sentMax = Arrays.copyOf(sentMax, cap);
        sentMin = Arrays.copyOf(sentMin, cap);
        allMpiTicks = Arrays.copyOf(allMpiTicks, cap);
    }

    int nodes() {
        return nodeParent.size();
    }

    long appStartTicks() {
        return sawInit ? appStart : firstTime;
    }

    long appEndTicks() {
        return sawFinalize ? appEnd : lastTime;
    }
}
