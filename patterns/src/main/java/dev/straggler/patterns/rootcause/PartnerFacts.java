package dev.straggler.patterns.rootcause;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What the root-cause stage of one location knows of the partner of each of its point-to-point records, per row:
 * where the partner is (location and row, -1 when it has none or its location takes no part in the stage), its rank,
 * whether it was a Late Sender / Late Receiver wait state and when its MPI calls ended, and, once every location has
 * found its synchronisation points, whether the partner's record is a synchronisation point that ships or takes
 * delay costs. Scalasca's replay exchanges exactly these along each message; here each location sends them to its
 * partners ({@link #emitFacts}, {@link #emitFlags}), which takes one pass on one machine and a keyed exchange
 * between partitions.
 */
public final class PartnerFacts implements Serializable {
    private static final long serialVersionUID = 1L;

    // per receive row: its send
    final int[] sendLocation;
    final int[] sendRow;
    final int[] sendRank;
    // (the registration facts: read by SyncPointDetection only, see #dropRegistrationFacts)
    /** The send was a Late Receiver wait state (its completion waited). */
    boolean[] sendLateReceiver;
    long[] sendLeave;
    long[] sendCompleteLeave;
    /** The send's completion is a wait state (a Late Receiver synchronisation point). */
    final boolean[] sendCompleteIsWait;

    // per send row: its receive
    final int[] recvLocation;
    final int[] recvRow;
    final int[] recvRank;
    /** The receive was a Late Sender wait state. */
    boolean[] recvLateSender;
    long[] recvLeave;
    long[] requestLeave;
    /** The receive is a wait state (a Late Sender synchronisation point). */
    final boolean[] recvIsWait;
    /** The receive's request is a synchronisation point and no wait state: it takes Late Receiver costs. */
    final boolean[] requestTakes;

    public PartnerFacts(int receives, int sends) {
        sendLocation = minusOne(receives);
        sendRow = minusOne(receives);
        sendRank = minusOne(receives);
        sendLateReceiver = new boolean[receives];
        sendLeave = new long[receives];
        sendCompleteLeave = new long[receives];
        sendCompleteIsWait = new boolean[receives];
        recvLocation = minusOne(sends);
        recvRow = minusOne(sends);
        recvRank = minusOne(sends);
        recvLateSender = new boolean[sends];
        recvLeave = new long[sends];
        requestLeave = new long[sends];
        recvIsWait = new boolean[sends];
        requestTakes = new boolean[sends];
    }

    /**
     * Frees what only the registration of synchronisation points reads (wait-state flags and Leave times of the
     * partners, 18 bytes per record) once it is done, for the backward replay that follows.
     */
    void dropRegistrationFacts() {
        sendLateReceiver = null;
        sendLeave = null;
        sendCompleteLeave = null;
        recvLateSender = null;
        recvLeave = null;
        requestLeave = null;
    }

    private static int[] minusOne(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    /** Receive row {@code i}'s send, as its sender described it. */
    public void setSend(int i, int location, int row, int rank, boolean lateReceiver, long leave, long completeLeave) {
        sendLocation[i] = location;
        sendRow[i] = row;
        sendRank[i] = rank;
        sendLateReceiver[i] = lateReceiver;
        sendLeave[i] = leave;
        sendCompleteLeave[i] = completeLeave;
    }

    /** Send row {@code j}'s receive, as its receiver described it. */
    public void setReceive(int j, int location, int row, int rank, boolean lateSender, long leave,
                          long requestLeaveTime) {
        recvLocation[j] = location;
        recvRow[j] = row;
        recvRank[j] = rank;
        recvLateSender[j] = lateSender;
        recvLeave[j] = leave;
        requestLeave[j] = requestLeaveTime;
    }

    /** Receive row {@code i}'s send: whether its completion is a wait state. */
    public void setSendFlags(int i, boolean completeIsWait) {
        sendCompleteIsWait[i] = completeIsWait;
    }

    /** Send row {@code j}'s receive: whether it is a wait state, and whether its request takes costs. */
    public void setReceiveFlags(int j, boolean isWait, boolean takes) {
        recvIsWait[j] = isWait;
        requestTakes[j] = takes;
    }

    /** Receives what one location tells its partners, addressed by the partner's (location, row). */
    public interface Sink {
        /** To send row {@code sendRow} of {@code sendLocation}, from its receive. */
        void toSend(int sendLocation, int sendRow, int recvLocation, int recvRow, int rank, boolean lateSender,
                    long recvLeave, long requestLeave);

        /** To receive row {@code recvRow} of {@code recvLocation}, from its send. */
        void toReceive(int recvLocation, int recvRow, int sendLocation, int sendRow, int rank, boolean lateReceiver,
                       long sendLeave, long completeLeave);
    }

    /** Receives the flags one location tells its partners once its synchronisation points are known. */
    public interface FlagSink {
        void toSend(int sendLocation, int sendRow, boolean recvIsWait, boolean requestTakes);

        void toReceive(int recvLocation, int recvRow, boolean completeIsWait);
    }

    /** Where each record's partner is: per receive its send, per send its receive, as (location, row), -1 for none. */
    public interface Matching {
        int receivePartnerLocation(int i);

        int receivePartnerRow(int i);

        int sendPartnerLocation(int j);

        int sendPartnerRow(int j);
    }

    /**
     * What a location with a root-cause state tells its partners before synchronisation points are found: per
     * matched receive, whether it waited (Late Sender) and when it and its request ended; per matched send, whether
     * its completion waited (Late Receiver) and when it and its completion ended.
     */
    static void emitFacts(LocationState st, long[] lateSenderWaits, long[] lateReceiverWaits, Matching m, Sink sink) {
        var iv = st.intervals;
        int receives = st.loc.receives().size();
        for (int i = 0; i < receives; i++) {
            int sl = m.receivePartnerLocation(i);
            if (sl < 0) {
                continue;
            }
            boolean late = lateSenderWaits != null && lateSenderWaits[i] > 0;
            sink.toSend(sl, m.receivePartnerRow(i), st.location, i, st.rank, late,
                    leave(iv, st.links.recvMark[i]), leave(iv, st.links.requestMark[i]));
        }
        int sends = st.loc.sends().size();
        for (int j = 0; j < sends; j++) {
            int rl = m.sendPartnerLocation(j);
            if (rl < 0) {
                continue;
            }
            boolean late = lateReceiverWaits != null && lateReceiverWaits[j] > 0;
            sink.toReceive(rl, m.sendPartnerRow(j), st.location, j, st.rank, late,
                    leave(iv, st.links.sendMark[j]), leave(iv, st.links.sendCompleteMark[j]));
        }
    }

    private static long leave(dev.straggler.replay.CallPathIntervals iv, int mark) {
        return mark < 0 ? 0 : iv.leave(mark);
    }

    /** What a location tells its partners once its synchronisation points are final ({@link LocationState#prepare}). */
    static void emitFlags(LocationState st, PartnerFacts f, FlagSink sink) {
        for (int i = 0; i < f.sendLocation.length; i++) {
            if (f.sendLocation[i] < 0) {
                continue;
            }
            int q = st.spAt(st.links.requestMark[i]);
            sink.toSend(f.sendLocation[i], f.sendRow[i], st.sp.isWaitState(st.spAt(st.links.recvMark[i])),
                    q >= 0 && !st.sp.isWaitState(q));
        }
        for (int j = 0; j < f.recvLocation.length; j++) {
            if (f.recvLocation[j] < 0) {
                continue;
            }
            int cm = st.links.sendCompleteMark[j];
            sink.toReceive(f.recvLocation[j], f.recvRow[j], cm >= 0 && st.sp.isWaitState(st.spAt(cm)));
        }
    }
}
