package dev.straggler.patterns.rootcause;

import dev.straggler.patterns.waitstate.CollectiveOutcomes;
import dev.straggler.patterns.waitstate.InitFinalize;
import dev.straggler.replay.CollectiveMatching;
import dev.straggler.replay.Replay;
import it.unimi.dsi.fastutil.ints.Int2DoubleOpenHashMap;

import java.io.IOException;
import java.util.concurrent.ExecutorService;

/**
 * The root-cause stage (reference §1.6): why the wait states happened. From the wait states of the
 * where-stage it finds the synchronisation points, replays every rank backwards accounting delay costs and the
 * critical path, classifies point-to-point wait states as propagating/terminal and direct/indirect, and derives
 * the critical-path impact metrics, all with Scalasca 2.6's rules. Only the marks and call-path intervals of each
 * location are used, never its ENTER/LEAVE events.
 */
public final class RootCauses {
    private RootCauses() {
    }

    /** Thrown when the communication records admit no backward replay (a trace no MPI run can have written). */
    public static final class ImpossibleOrder extends RuntimeException {
        public ImpossibleOrder(String message) {
            super(message);
        }
    }

    /** Per location (null for locations without MPI analysis), per {@link RootCauseMetric}: call path → seconds. */
    public record Result(Int2DoubleOpenHashMap[][] severities) {
        public Int2DoubleOpenHashMap values(int location, RootCauseMetric m) {
            Int2DoubleOpenHashMap[] s = severities[location];
            return s == null ? null : s[m.ordinal()];
        }
    }

    /**
     * @param lateSenderWaits   per location and receive row, the Late Sender wait (ticks) where the receive is a
     *                          Late Sender synchronisation point (the largest of a multi-wait), else 0
     * @param lateReceiverWaits per location and send row, the Late Receiver wait of its completion likewise
     * @param collectives       what the collective patterns found, synchronisation points included
     * @param init              the all-rank reductions of MPI_Init, and of MPI_Finalize ({@code fin})
     * @param pool              threads for the backward replay (null or {@code threads} 1: the calling thread);
     *                          the result does not depend on them
     */
    public static Result run(Replay replay, CollectiveOutcomes collectives, InitFinalize.Reference init,
                             InitFinalize.Reference fin, long[][] lateSenderWaits, long[][] lateReceiverWaits,
                             ExecutorService pool, int threads) throws IOException {
        int n = replay.locations().size();
        LocationState[] states = new LocationState[n];
        int[] masters = replay.definitions().masterLocationByRank();
        for (int rank = 0; rank < masters.length; rank++) {
            int l = replay.locationOfRank(rank);
            if (l >= 0 && replay.location(l).intervals() != null) {
                states[l] = new LocationState(replay.location(l));
            }
        }
        IntervalTimes times = new IntervalTimes(replay.callTree().size());
        Matches matches = new Matches(replay);
        new SyncPointDetection(replay, collectives, states, matches, lateSenderWaits, lateReceiverWaits)
                .run(init, fin, threads > 1 ? pool : null);
        CostReplay cost = new CostReplay(replay, collectives, states, matches, instances(replay));
        cost.finalizeLatest = fin.complete() ? fin.lastRank() : -1;
        cost.run(pool, threads);
        CriticalPathImpact.compute(states, times, replay.callTree().size());
        Int2DoubleOpenHashMap[][] out = new Int2DoubleOpenHashMap[n][];
        for (LocationState st : states) {
            if (st != null) {
                out[st.location] = st.severity;
            }
        }
        return new Result(out);
    }

    /** Per location and collective row, its instance number on its communicator, -1 when unmatched. */
    private static int[][] instances(Replay replay) {
        CollectiveMatching cm = replay.collectives();
        int n = replay.locations().size();
        int comms = replay.definitions().communicators().size();
        int[][] out = new int[n][];
        for (int l = 0; l < n; l++) {
            var t = replay.location(l).collectives();
            out[l] = new int[t.size()];
            int[] seen = new int[comms];
            for (int i = 0; i < t.size(); i++) {
                int c = t.comm(i);
                int k = seen[c]++;
                out[l][i] = k < cm.instances(c) && cm.size(c) > 0 ? k : -1;
            }
        }
        return out;
    }
}
