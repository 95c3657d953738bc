package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.ViolationKind;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.RecvTable;
import dev.straggler.replay.SendTable;
import dev.straggler.trace.TraceDefinitions;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;

import java.util.Arrays;

/**
 * Point-to-point patterns of one location: first the receiver side in stream order (Late Sender, its wrong-order
 * refinement, receive statistics, receive-before-send violations), as Scalasca's forward replay does with the
 * send data shipped to the receiver; then the sender side (Late Receiver), which needs the receive data and the
 * multi-waits already found waiting for a late sender. One instance per location, used by one thread; what it
 * knows of the partner records comes from {@link MessagePartners}, whichever engine matched them.
 */
final class PointToPointReplay {
    private final TraceDefinitions defs;
    private final MessagePartners partners;
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

    PointToPointReplay(TraceDefinitions defs, MessagePartners partners, LocationData loc, LocationSeverities sev,
                       InstanceCollector instances, long[] violations) {
        this.defs = defs;
        this.partners = partners;
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
    private long pendingSendTime;
    private long pendingBytes;
    private int pendingSendRank;

    private void receiverSide() {
        RecvTable r = loc.receives();
        LateSenderWrongOrder wrongOrder = new LateSenderWrongOrder();
        LateSenderWrongOrder.Sink woSink = this::wrongOrder;
        for (int i = 0; i < r.size(); i++) {
            boolean matched = partners.matchReceive(i);
            if (pendingCall >= 0 && r.call(i) != pendingCall) {
                // the multi-wait has been left before this receive: its Late Sender is final
                flushMultiWait(wrongOrder);
            }
            if (!matched) {
                if (r.inMpi(i)) {
                    unmatchedReceives++;
                }
                continue;
            }
            int path = r.callPath(i);
            long sendTime = partners.sendTime();
            if (sendTime > r.time(i)) {
                violations[ViolationKind.RECEIVE_BEFORE_SEND.ordinal()]++;
            }
            long length = partners.sendBytes();
            if (length == 0) {
                sev.add(MetricTree.SYNCS_RECV, path, 1);
            } else {
                sev.add(MetricTree.COMMS_RECV, path, 1);
                sev.add(MetricTree.BYTES_RCVD, path, length);
            }
            byte kind = r.kind(i);
            if (LateSender.applies(kind)) {
                long wait = LateSender.waitingTime(partners.sendEnter(), r.enter(i), r.leave(i));
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
                            pendingSendTime = sendTime;
                            pendingBytes = length;
                            pendingSendRank = partners.sendRank();
                        }
                    } else {
                        lateSender(wrongOrder, i, sendTime, length, partners.sendRank(), wait);
                    }
                }
            }
            wrongOrder.scan(sendTime, r.peer(i), woSink);
        }
        if (pendingCall >= 0) {
            flushMultiWait(wrongOrder);
        }
    }

    private void flushMultiWait(LateSenderWrongOrder wrongOrder) {
        lateSender(wrongOrder, pendingRecv, pendingSendTime, pendingBytes, pendingSendRank, pendingWait);
        pendingCall = -1;
    }

    private void lateSender(LateSenderWrongOrder wrongOrder, int i, long sendTime, long bytes, int sendRank,
                            long wait) {
        RecvTable r = loc.receives();
        int path = r.callPath(i);
        if (lateSenderWaits != null) {
            lateSenderWaits[i] = wait;
        }
        sev.add(MetricTree.MPI_LATESENDER, path, wait);
        sev.addComm(r.comm(i), MetricTree.MPI_LATESENDER, wait);
        sev.add(bytes == 0 ? MetricTree.MPI_SLS_COUNT : MetricTree.MPI_CLS_COUNT, path, 1);
        instances.count(MetricTree.MPI_LATESENDER);
        instances.offer(MetricTree.MPI_LATESENDER, wait, loc.globalCallPath(path),
                loc.rank(), loc.thread(), sendRank, 1, r.enter(i), r.leave(i));
        wrongOrder.remember(sendTime, wait, bytes, i, path, r.peer(i));
    }

    private void wrongOrder(int recvIndex, int path, long wait, long bytes, boolean sameSource) {
        RecvTable r = loc.receives();
        sev.add(MetricTree.MPI_LATESENDER_WO, path, wait);
        sev.add(sameSource ? MetricTree.MPI_LSWO_SAME : MetricTree.MPI_LSWO_DIFFERENT, path, wait);
        sev.addComm(r.comm(recvIndex), MetricTree.MPI_LATESENDER_WO, wait);
        sev.addComm(r.comm(recvIndex), sameSource ? MetricTree.MPI_LSWO_SAME : MetricTree.MPI_LSWO_DIFFERENT, wait);
        sev.add(bytes == 0 ? MetricTree.MPI_SLSWO_COUNT : MetricTree.MPI_CLSWO_COUNT, path, 1);
        instances.count(MetricTree.MPI_LATESENDER_WO);
        int sourceRank = defs.communicator(r.comm(recvIndex)).members()[r.peer(recvIndex)];
        instances.offer(MetricTree.MPI_LATESENDER_WO, wait, loc.globalCallPath(path),
                loc.rank(), loc.thread(), sourceRank, 1, r.enter(recvIndex), r.leave(recvIndex));
    }

    // --- sender side ---------------------------------------------------------------------------------------

    private void senderSide() {
        SendTable s = loc.sends();
        if (s.size() == 0) {
            return;
        }
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
            if (!partners.matchSend(j)) {
                if (s.shipped(j)) {
                    unmatchedSends++;
                }
                continue;
            }
            byte cmp = s.completion(j);
            long reqEnter = partners.receiveRequestEnter();
            long wait = LateReceiver.waitingTime(s.cmpEnter(j), s.cmpLeave(j), reqEnter);
            if (LateReceiver.appliesSingly(cmp)) {
                if (wait > 0) {
                    lateReceiver(j, wait, partners.receiveRank());
                }
            } else if (cmp == SendTable.CMP_WAIT_MULTI) {
                int slot = slotOfSend[j];
                if (slot >= 0) {
                    evaluated[slot]++;
                    // Scalasca replays backwards with a strict '>': of equal maxima the last send is kept
                    if (wait > 0 && wait >= maxWait[slot]) {
                        maxWait[slot] = wait;
                        maxSend[slot] = j;
                        maxPartner[slot] = partners.receiveRank();
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
