package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.waitstate.CollectiveOutcomes;
import dev.straggler.patterns.waitstate.InitFinalize;
import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.CollectiveMatching;
import dev.straggler.replay.Parallel;
import dev.straggler.replay.Replay;
import dev.straggler.trace.Clock;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;

/**
 * Finds every location's synchronisation points as Scalasca's three earlier replays do (SynchpointHandler):
 * the forward replay registers Late Sender receives, synchronising collective members and MPI_Init/MPI_Finalize;
 * the backward replay the sends of Late Sender receives and the Late Receiver send completions; the forward
 * exchange the receive requests of Late Receiver sends. Registration order decides which entry an event keeps.
 */
final class SyncPointDetection {
    private final Replay replay;
    private final LocationState[] states;
    private final Matches matches;
    private final Clock clock;
    private final long[][] lateSender;
    private final long[][] lateReceiver;
    private final CollectiveOutcomes outcomes;

    SyncPointDetection(Replay replay, CollectiveOutcomes outcomes, LocationState[] states, Matches matches,
                       long[][] lateSenderWaits, long[][] lateReceiverWaits) {
        this.replay = replay;
        this.outcomes = outcomes;
        this.states = states;
        this.matches = matches;
        this.clock = replay.definitions().clock();
        this.lateSender = lateSenderWaits;
        this.lateReceiver = lateReceiverWaits;
    }


    /**
     * Registers all synchronisation points. Only point-to-point registrations can meet at one event: a blocking
     * receive is a Late Sender receive or a Late Receiver request, a blocking send the send of a Late Sender or a
     * Late Receiver completion; in both cases Scalasca registers the Late Sender side first, and so does this.
     * Every location registers its own points, so the point-to-point part runs in parallel over locations; the
     * collectives register all members of an instance at once (one pass, before). Each location's points are
     * final afterwards ({@link LocationState#prepare}).
     */
    void run(InitFinalize.Reference init, InitFinalize.Reference fin, ExecutorService pool) throws IOException {
        collectives();
        if (pool == null) {
            for (LocationState st : states) {
                registerOwn(st, init, fin);
            }
        } else {
            Parallel.map(pool, states.length, l -> {
                registerOwn(states[l], init, fin);
                return null;
            });
        }
    }

    private void registerOwn(LocationState st, InitFinalize.Reference init, InitFinalize.Reference fin)
            throws IOException {
        if (st != null) {
            lateSenderReceives(st);
            lateSenderSends(st);
            initFinalize(st, init, fin);
            lateReceiverCompletions(st);
            lateReceiverRequests(st);
            st.prepare();
            // the second pass over the location's events: interval times between its synchronisation points
            st.times = replay.intervalTimes(st.location, st.syncMarks());
        }
    }

    /** Late Sender receives (forward replay). */
    private void lateSenderReceives(LocationState st) {
        long[] w = lateSender[st.location];
        if (w == null) {
            return;
        }
        CallPathIntervals iv = st.intervals;
        for (int i = 0; i < w.length; i++) {
            int sl = matches.recvPartnerLocation(st.location, i);
            if (w[i] <= 0 || sl < 0 || states[sl] == null) {
                continue;
            }
            LocationState sender = states[sl];
            int m = st.links.recvMark[i];
            int sm = sender.links.sendMark[matches.recvPartner(st.location, i)];
            st.sp.add(m, after(iv.enter(m), w[i]), between(iv.leave(m), iv.enter(m)),
                    positive(iv.leave(m), sender.intervals.leave(sm)), new int[] {sender.rank});
        }
    }

    /** The sends of Late Sender receives (backward replay). */
    private void lateSenderSends(LocationState st) {
        CallPathIntervals iv = st.intervals;
        int sends = st.loc.sends().size();
        for (int j = 0; j < sends; j++) {
            int rl = matches.sendPartnerLocation(st.location, j);
            if (rl < 0 || states[rl] == null || lateSender[rl] == null) {
                continue;
            }
            int i = matches.sendPartner(st.location, j);
            if (lateSender[rl][i] <= 0) {
                continue;
            }
            LocationState receiver = states[rl];
            int m = receiver.links.recvMark[i];
            int sm = st.links.sendMark[j];
            st.sp.add(sm, 0, between(iv.leave(sm), iv.enter(sm)),
                    positive(iv.leave(sm), receiver.intervals.leave(m)), new int[] {receiver.rank});
        }
    }

    /** Late Receiver send completions (backward replay). */
    private void lateReceiverCompletions(LocationState st) {
        long[] w = lateReceiver[st.location];
        if (w == null) {
            return;
        }
        CallPathIntervals iv = st.intervals;
        for (int j = 0; j < w.length; j++) {
            int rl = matches.sendPartnerLocation(st.location, j);
            if (w[j] <= 0 || rl < 0 || states[rl] == null) {
                continue;
            }
            LocationState receiver = states[rl];
            int cm = st.links.sendCompleteMark[j];
            int q = receiver.links.requestMark[matches.sendPartner(st.location, j)];
            st.sp.add(cm, after(iv.enter(cm), w[j]), between(iv.leave(cm), iv.enter(cm)),
                    lateReceiverCompletion(iv.leave(cm), receiver.intervals.leave(q)), new int[] {receiver.rank});
        }
    }

    /** The receive requests of Late Receiver sends (forward exchange). */
    private void lateReceiverRequests(LocationState st) {
        CallPathIntervals iv = st.intervals;
        int receives = st.loc.receives().size();
        for (int i = 0; i < receives; i++) {
            int sl = matches.recvPartnerLocation(st.location, i);
            if (sl < 0 || states[sl] == null || lateReceiver[sl] == null) {
                continue;
            }
            int j = matches.recvPartner(st.location, i);
            if (lateReceiver[sl][j] <= 0) {
                continue;
            }
            LocationState sender = states[sl];
            int cm = sender.links.sendCompleteMark[j];
            int q = st.links.requestMark[i];
            st.sp.add(q, 0, between(iv.leave(q), iv.enter(q)), positive(iv.leave(q), sender.intervals.leave(cm)),
                    new int[] {sender.rank});
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

    private void collectives() {
        CollectiveMatching cm = replay.collectives();
        CollectiveSync sync = new CollectiveSync();
        int comms = replay.definitions().communicators().size();
        int world = replay.definitions().masterLocationByRank().length;
        for (int c = 0; c < comms; c++) {
            int[] members = replay.definitions().communicator(c).members();
            for (int k = 0; k < cm.instances(c); k++) {
                if (!sync.load(replay, outcomes, c, k)) {
                    continue;
                }
                for (int j = 0; j < sync.size; j++) {
                    if (!sync.sync[j]) {
                        continue;
                    }
                    LocationState st = states[cm.memberLocation(c, j)];
                    int m = st.links.collectiveMark[cm.record(c, k, j)];
                    int[] partners = sync.syncPartners(j);
                    int[] ranks;
                    if (partners == null) {
                        ranks = members.length == world ? SyncPoints.ALL_RANKS : sortedCopy(members);
                    } else {
                        ranks = new int[partners.length];
                        for (int x = 0; x < partners.length; x++) {
                            ranks[x] = members[partners[x]];
                        }
                        Arrays.sort(ranks);
                    }
                    CallPathIntervals iv = st.intervals;
                    st.sp.add(m, after(iv.enter(m), sync.wait[j]), between(iv.leave(m), iv.enter(m)),
                            before(iv.leave(m), sync.completion[j]), ranks);
                }
            }
        }
    }

    private static int[] sortedCopy(int[] a) {
        int[] r = a.clone();
        Arrays.sort(r);
        return r;
    }

    private void initFinalize(LocationState st, InitFinalize.Reference init, InitFinalize.Reference fin) {
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
