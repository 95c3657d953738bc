package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.waitstate.InitFinalize;
import dev.straggler.replay.CallPathIntervals;
import dev.straggler.trace.Clock;

/**
 * Finds every location's synchronisation points as Scalasca's three earlier replays do (SynchpointHandler):
 * the forward replay registers Late Sender receives, synchronising collective members and MPI_Init/MPI_Finalize;
 * the backward replay the sends of Late Sender receives and the Late Receiver send completions; the forward
 * exchange the receive requests of Late Receiver sends. Registration order decides which entry an event keeps.
 */
final class SyncPointDetection {
    private final LocationState st;
    private final Clock clock;
    private final PartnerFacts partners;

    private SyncPointDetection(LocationState st, Clock clock, PartnerFacts partners) {
        this.st = st;
        this.clock = clock;
        this.partners = partners;
    }

    /**
     * Registers all synchronisation points of one location, in Scalasca's order: its collective members first (as
     * their instances decided, {@link CollectiveRoles}), then the point-to-point points, where only two
     * registrations can meet at one event: a blocking receive is a Late Sender receive or a Late Receiver request, a
     * blocking send the send of a Late Sender or a Late Receiver completion, and in both cases Scalasca registers the
     * Late Sender side first, and so does this. The location's points are final afterwards
     * ({@link LocationState#prepare}). Only the location's own marks and what its partners told it are read, so
     * locations register independently.
     */
    static void register(LocationState st, Clock clock, long[] lateSenderWaits, long[] lateReceiverWaits,
                         PartnerFacts partners, CollectiveRoles roles, InitFinalize.Reference init,
                         InitFinalize.Reference fin) {
        SyncPointDetection d = new SyncPointDetection(st, clock, partners);
        d.collectives(roles);
        d.lateSenderReceives(lateSenderWaits);
        d.lateSenderSends();
        d.initFinalize(init, fin);
        d.lateReceiverCompletions(lateReceiverWaits);
        d.lateReceiverRequests();
        st.prepare();
    }

    /** Late Sender receives (forward replay). */
    private void lateSenderReceives(long[] w) {
        if (w == null) {
            return;
        }
        CallPathIntervals iv = st.intervals;
        for (int i = 0; i < w.length; i++) {
            if (w[i] <= 0 || partners.sendLocation[i] < 0) {
                continue;
            }
            int m = st.links.recvMark[i];
            st.sp.add(m, after(iv.enter(m), w[i]), between(iv.leave(m), iv.enter(m)),
                    positive(iv.leave(m), partners.sendLeave[i]), partners.sendRank[i]);
        }
    }

    /** The sends of Late Sender receives (backward replay). */
    private void lateSenderSends() {
        CallPathIntervals iv = st.intervals;
        int sends = st.loc.sends().size();
        for (int j = 0; j < sends; j++) {
            if (partners.recvLocation[j] < 0 || !partners.recvLateSender[j]) {
                continue;
            }
            int sm = st.links.sendMark[j];
            st.sp.add(sm, 0, between(iv.leave(sm), iv.enter(sm)), positive(iv.leave(sm), partners.recvLeave[j]),
                    partners.recvRank[j]);
        }
    }

    /** Late Receiver send completions (backward replay). */
    private void lateReceiverCompletions(long[] w) {
        if (w == null) {
            return;
        }
        CallPathIntervals iv = st.intervals;
        for (int j = 0; j < w.length; j++) {
            if (w[j] <= 0 || partners.recvLocation[j] < 0) {
                continue;
            }
            int cm = st.links.sendCompleteMark[j];
            st.sp.add(cm, after(iv.enter(cm), w[j]), between(iv.leave(cm), iv.enter(cm)),
                    lateReceiverCompletion(iv.leave(cm), partners.requestLeave[j]),
                    partners.recvRank[j]);
        }
    }

    /** The receive requests of Late Receiver sends (forward exchange). */
    private void lateReceiverRequests() {
        CallPathIntervals iv = st.intervals;
        int receives = st.loc.receives().size();
        for (int i = 0; i < receives; i++) {
            if (partners.sendLocation[i] < 0 || !partners.sendLateReceiver[i]) {
                continue;
            }
            int q = st.links.requestMark[i];
            st.sp.add(q, 0, between(iv.leave(q), iv.enter(q)), positive(iv.leave(q), partners.sendCompleteLeave[i]),
                    partners.sendRank[i]);
        }
    }

    /** Scalasca 2.6 (MPI.pattern, bws POST_SEND) computes this "completion" as zero or negative. */
    private double lateReceiverCompletion(long sendLeave, long requestLeave) {
        return sendLeave > requestLeave ? 0 : between(sendLeave, requestLeave);
    }

    // Times of synchronisation points in seconds, computed as Scalasca computes them: the difference of two
    // timestamps each converted to seconds (PEARL's (ticks - offset) / resolution). A duration found in ticks is
    // turned back into the two timestamps that bound it, so that ties in ticks round as they do in Scalasca.

    /** {@code s(a) - s(b)}. */
    private double between(long a, long b) {
        return a == b ? 0 : clock.secondsSinceStart(a) - clock.secondsSinceStart(b);
    }

    /** A duration of {@code ticks} starting at {@code from}. */
    private double after(long from, long ticks) {
        return between(from + ticks, from);
    }

    /** A duration of {@code ticks} ending at {@code to}. */
    private double before(long to, long ticks) {
        return between(to, to - ticks);
    }

    /** {@code max(0, s(a) - s(b))}. */
    private double positive(long a, long b) {
        return a > b ? between(a, b) : 0;
    }

    /** The collective members that are synchronisation points (forward replay, {@code cb_pre_coll_*}). */
    private void collectives(CollectiveRoles roles) {
        if (roles == null) {
            return;
        }
        CallPathIntervals iv = st.intervals;
        for (int row = 0; row < roles.size(); row++) {
            if (!roles.syncPoint[row]) {
                continue;
            }
            int m = st.links.collectiveMark[row];
            st.sp.add(m, after(iv.enter(m), roles.wait[row]), between(iv.leave(m), iv.enter(m)),
                    before(iv.leave(m), roles.completion[row]), roles.registeredRanks(row));
        }
    }

    private void initFinalize(InitFinalize.Reference init, InitFinalize.Reference fin) {
        CallPathIntervals iv = st.intervals;
        int m = st.links.initMark;
        if (m >= 0 && init.complete()) {
            // MPI_Init gets a completion time but, on purpose, no waiting time (MPI.pattern)
            st.sp.add(m, 0, between(iv.leave(m), iv.enter(m)), before(iv.leave(m), InitFinalize.completion(init, iv.leave(m))),
                    SyncPoints.ALL_RANKS);
        }
        m = st.links.finalizeMark;
        if (m >= 0 && fin.complete()) {
            st.sp.add(m, after(iv.enter(m), InitFinalize.finalizeWait(fin, iv.enter(m), iv.leave(m))),
                    between(iv.leave(m), iv.enter(m)), before(iv.leave(m), InitFinalize.completion(fin, iv.leave(m))),
                    SyncPoints.ALL_RANKS);
        }
    }
}
