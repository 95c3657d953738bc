package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.MessageMatching;
import dev.straggler.replay.RecvTable;
import dev.straggler.replay.Replay;
import dev.straggler.replay.SendTable;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

import java.util.Arrays;

/**
 * Point-to-point patterns of one location: first the receiver side in stream order (Late Sender, its wrong-order
 * refinement, receive statistics, receive-before-send violations), as Scalasca's forward replay does with the
 * send data shipped to the receiver; then the sender side (Late Receiver), which needs the receive data and the
 * multi-waits already found waiting for a late sender. One instance per location, used by one thread; it reads
 * the partner locations' tables, which are immutable.
 */
final class PointToPointReplay {
    private final Replay replay;
    private final LocationData loc;
    private final LocationSeverities sev;
    private final InstanceCollector instances;
    private final long[] violations;
    /** Multi-wait calls (ordinals) where some receive waited for a late sender. */
    private final java.util.BitSet lateSenderMultiWaits = new java.util.BitSet();
    private long unmatchedReceives;
    private long unmatchedSends;
    /** Per receive row, its Late Sender wait (ticks) where it is a synchronisation point; null when not wanted. */
    private long[] lateSenderWaits;
    /** Per send row, the Late Receiver wait (ticks) of its completion where that is a synchronisation point. */
    private long[] lateReceiverWaits;

    PointToPointReplay(Replay replay, LocationData loc, LocationSeverities sev, InstanceCollector instances,
                       long[] violations) {
        this.replay = replay;
        this.loc = loc;
        this.sev = sev;
        this.instances = instances;
        this.violations = violations;
    }

    /** Records, per receive and send row, the wait states found (the root-cause analysis needs them). */
    void recordWaits() {
        lateSenderWaits = new long[loc.receives().size()];
        lateReceiverWaits = new long[loc.sends().size()];
    }

    long[] lateSenderWaits() {
        return lateSenderWaits;
    }

    long[] lateReceiverWaits() {
        return lateReceiverWaits;
    }

    long unmatchedReceives() {
        return unmatchedReceives;
    }

    long unmatchedSends() {
        return unmatchedSends;
    }

    void run() {
        receiverSide();
        senderSide();
    }

    // --- receiver side -------------------------------------------------------------------------------------

    // The multi-wait whose largest Late Sender wait is pending until its Leave.
    private int pendingCall = -1;
    private long pendingWait;
    private int pendingRecv;
    private int pendingSendLoc;
    private int pendingSend;

    private void receiverSide() {
        RecvTable r = loc.receives();
        MessageMatching.ReceiveCursor cursor = replay.messages().receiveCursor(loc.location());
        LateSenderWrongOrder wrongOrder = new LateSenderWrongOrder();
        LateSenderWrongOrder.Sink woSink = this::wrongOrder;
        for (int i = 0; i < r.size(); i++) {
            int j = cursor.partner(i);
            int sl = cursor.partnerLocation();
            if (pendingCall >= 0 && r.call(i) != pendingCall) {
                // the multi-wait has been left before this receive: its Late Sender is final
                flushMultiWait(wrongOrder);
            }
            if (j < 0) {
                if (r.inMpi(i)) {
                    unmatchedReceives++;
                }
                continue;
            }
            SendTable s = replay.location(sl).sends();
            int path = r.callPath(i);
            if (s.time(j) > r.time(i)) {
                violations[ViolationKind.RECEIVE_BEFORE_SEND.ordinal()]++;
            }
            long length = s.bytes(j);
            if (length == 0) {
                sev.add(MetricTree.SYNCS_RECV, path, 1);
            } else {
                sev.add(MetricTree.COMMS_RECV, path, 1);
                sev.add(MetricTree.BYTES_RCVD, path, length);
            }
            byte kind = r.kind(i);
            if (LateSender.applies(kind)) {
                long wait = LateSender.waitingTime(s.enter(j), r.enter(i), r.leave(i));
                if (wait > 0) {
                    if (kind == RecvTable.CALL_WAIT_MULTI) {
                        lateSenderMultiWaits.set(r.call(i));
                        if (pendingCall != r.call(i)) {
                            pendingCall = r.call(i);
                            pendingWait = 0;
                        }
                        // strictly greater: the first of equal maxima is kept, as in Scalasca
                        if (wait > pendingWait) {
                            pendingWait = wait;
                            pendingRecv = i;
                            pendingSendLoc = sl;
                            pendingSend = j;
                        }
                    } else {
                        lateSender(wrongOrder, i, sl, j, wait);
                    }
                }
            }
            wrongOrder.scan(s.time(j), r.peer(i), woSink);
        }
        if (pendingCall >= 0) {
            flushMultiWait(wrongOrder);
        }
    }

    private void flushMultiWait(LateSenderWrongOrder wrongOrder) {
        lateSender(wrongOrder, pendingRecv, pendingSendLoc, pendingSend, pendingWait);
        pendingCall = -1;
    }

    private void lateSender(LateSenderWrongOrder wrongOrder, int i, int sl, int j, long wait) {
        RecvTable r = loc.receives();
        SendTable s = replay.location(sl).sends();
        int path = r.callPath(i);
        if (lateSenderWaits != null) {
            lateSenderWaits[i] = wait;
        }
        sev.add(MetricTree.MPI_LATESENDER, path, wait);
        sev.addComm(r.comm(i), MetricTree.MPI_LATESENDER, wait);
        sev.add(s.bytes(j) == 0 ? MetricTree.MPI_SLS_COUNT : MetricTree.MPI_CLS_COUNT, path, 1);
        instances.count(MetricTree.MPI_LATESENDER);
        instances.offer(MetricTree.MPI_LATESENDER, wait, loc.globalCallPath(path),
                loc.rank(), loc.thread(), replay.location(sl).rank(), 1, r.enter(i), r.leave(i));
        wrongOrder.remember(s.time(j), wait, s.bytes(j), i, path, r.peer(i));
    }

    private void wrongOrder(int recvIndex, int path, long wait, long bytes, boolean sameSource) {
        RecvTable r = loc.receives();
        sev.add(MetricTree.MPI_LATESENDER_WO, path, wait);
        sev.add(sameSource ? MetricTree.MPI_LSWO_SAME : MetricTree.MPI_LSWO_DIFFERENT, path, wait);
        sev.addComm(r.comm(recvIndex), MetricTree.MPI_LATESENDER_WO, wait);
        sev.addComm(r.comm(recvIndex), sameSource ? MetricTree.MPI_LSWO_SAME : MetricTree.MPI_LSWO_DIFFERENT, wait);
        sev.add(bytes == 0 ? MetricTree.MPI_SLSWO_COUNT : MetricTree.MPI_CLSWO_COUNT, path, 1);
        instances.count(MetricTree.MPI_LATESENDER_WO);
        int sourceRank = replay.definitions().communicator(r.comm(recvIndex)).members()[r.peer(recvIndex)];
        instances.offer(MetricTree.MPI_LATESENDER_WO, wait, loc.globalCallPath(path),
                loc.rank(), loc.thread(), sourceRank, 1, r.enter(recvIndex), r.leave(recvIndex));
    }

    // --- sender side ---------------------------------------------------------------------------------------

    private void senderSide() {
        SendTable s = loc.sends();
        if (s.size() == 0) {
            return;
        }
        MessageMatching.SendCursor cursor = replay.messages().sendCursor(loc.location());
        // Multi-waits completing sends: slot per call ordinal.
        Int2IntOpenHashMap slotOfCall = new Int2IntOpenHashMap();
        slotOfCall.defaultReturnValue(-1);
        int[] completions = new int[8];
        int[] evaluated = new int[8];
        long[] maxWait = new long[8];
        int[] maxSend = new int[8];
        int[] maxPartner = new int[8];
        int slots = 0;
        // multi-wait slot of each send, -1 for none (looked up once)
        int[] slotOfSend = new int[s.size()];
        for (int j = 0; j < s.size(); j++) {
            slotOfSend[j] = -1;
            if (s.completion(j) == SendTable.CMP_WAIT_MULTI && !lateSenderMultiWaits.get(s.cmpCall(j))) {
                int slot = slotOfCall.get(s.cmpCall(j));
                if (slot < 0) {
                    if (slots == completions.length) {
                        int cap = slots * 2;
                        completions = Arrays.copyOf(completions, cap);
                        evaluated = Arrays.copyOf(evaluated, cap);
                        maxWait = Arrays.copyOf(maxWait, cap);
                        maxSend = Arrays.copyOf(maxSend, cap);
                        maxPartner = Arrays.copyOf(maxPartner, cap);
                    }
                    slot = slots++;
                    slotOfCall.put(s.cmpCall(j), slot);
                    maxSend[slot] = -1;
                }
                completions[slot]++;
                slotOfSend[j] = slot;
            }
        }
        for (int j = 0; j < s.size(); j++) {
            int ri = cursor.partner(j);
            int rl = cursor.partnerLocation();
            if (ri < 0) {
                if (s.shipped(j)) {
                    unmatchedSends++;
                }
                continue;
            }
            byte cmp = s.completion(j);
            long reqEnter = replay.location(rl).receives().reqEnter(ri);
            long wait = LateReceiver.waitingTime(s.cmpEnter(j), s.cmpLeave(j), reqEnter);
            if (LateReceiver.appliesSingly(cmp)) {
                if (wait > 0) {
                    lateReceiver(j, wait, replay.location(rl).rank());
                }
            } else if (cmp == SendTable.CMP_WAIT_MULTI) {
                int slot = slotOfSend[j];
                if (slot >= 0) {
                    evaluated[slot]++;
                    // Scalasca replays backwards with a strict '>': of equal maxima the last send is kept
                    if (wait > 0 && wait >= maxWait[slot]) {
                        maxWait[slot] = wait;
                        maxSend[slot] = j;
                        maxPartner[slot] = replay.location(rl).rank();
                    }
                }
            }
        }
        // A multi-wait is evaluated once all the sends it completes have been matched (Scalasca's send count).
        for (int j = 0; j < s.size(); j++) {
            int slot = slotOfSend[j];
            if (slot >= 0 && maxSend[slot] == j && evaluated[slot] == completions[slot]) {
                lateReceiver(j, maxWait[slot], maxPartner[slot]);
            }
        }
    }

    private void lateReceiver(int j, long wait, int partnerRank) {
        SendTable s = loc.sends();
        int path = s.cmpCallPath(j);
        if (lateReceiverWaits != null) {
            lateReceiverWaits[j] = wait;
        }
        sev.add(MetricTree.MPI_LATERECEIVER, path, wait);
        sev.addComm(s.comm(j), MetricTree.MPI_LATERECEIVER, wait);
        sev.add(s.bytes(j) == 0 ? MetricTree.MPI_SLR_COUNT : MetricTree.MPI_CLR_COUNT, path, 1);
        instances.count(MetricTree.MPI_LATERECEIVER);
        instances.offer(MetricTree.MPI_LATERECEIVER, wait, loc.globalCallPath(path),
                loc.rank(), loc.thread(), partnerRank, 1, s.cmpEnter(j), s.cmpLeave(j));
    }
}
