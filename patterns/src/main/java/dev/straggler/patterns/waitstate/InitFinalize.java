package dev.straggler.patterns.waitstate;

import dev.straggler.replay.LocationData;
import dev.straggler.replay.Replay;

/**
 * Initialization Completion ({@code mpi_init_completion}) and Wait at Finalize ({@code mpi_finalize_wait}),
 * reference §1.4: all ranks synchronize in the first MPI_Init(_thread) and the first MPI_Finalize of their master
 * location, with Enter and Leave as Begin and End. A rank needs
 * {@code max(0, Leave − max(first Leave, min(last Enter, Leave)))} to complete MPI_Init (no waiting time is
 * computed there, on purpose) and waits {@code max(0, min(last Enter, Leave) − Enter)} in MPI_Finalize. A Leave
 * before the last Enter is a clock violation. Evaluated only when every rank has the call. The same reductions
 * give the root-cause stage the completion time of both calls and the rank where the critical path starts.
 */
public final class InitFinalize {
    /**
     * Reductions over all ranks; valid only when {@code complete}.
     *
     * @param lastRank the rank that entered last (ties: the lowest rank)
     */
    public record Reference(boolean complete, long lastEnter, long firstLeave, int lastRank)
            implements java.io.Serializable {
    }

    private InitFinalize() {
    }

    static Reference init(Replay replay) {
        return reference(replay, true);
    }

    static Reference finalizeReference(Replay replay) {
        return reference(replay, false);
    }

    private static Reference reference(Replay replay, boolean init) {
        int n = replay.locations().size();
        boolean[] has = new boolean[n];
        long[] enter = new long[n];
        long[] leave = new long[n];
        for (int l = 0; l < n; l++) {
            LocationData d = replay.location(l);
            has[l] = init ? d.hasInit() : d.hasFinalize();
            enter[l] = init ? d.initEnter() : d.finalizeEnter();
            leave[l] = init ? d.initLeave() : d.finalizeLeave();
        }
        return reference(replay.definitions().masterLocationByRank(), has, enter, leave);
    }

    /**
     * The reduction over all ranks from per-location facts (indexed by location): whether the location has the
     * call, and its Enter and Leave. Only each rank's master location counts.
     */
    public static Reference reference(int[] locationOfRank, boolean[] has, long[] enter, long[] leave) {
        long lastEnter = Long.MIN_VALUE;
        long firstLeave = Long.MAX_VALUE;
        int lastRank = -1;
        int have = 0;
        for (int rank = 0; rank < locationOfRank.length; rank++) {
            int l = locationOfRank[rank];
            if (l < 0) {
                continue;
            }
            if (!has[l]) {
                return new Reference(false, 0, 0, -1);
            }
            if (lastRank < 0 || enter[l] > lastEnter) {
                lastEnter = enter[l];
                lastRank = rank;
            }
            firstLeave = Math.min(firstLeave, leave[l]);
            have++;
        }
        return new Reference(have > 0, lastEnter, firstLeave, lastRank);
    }

    /** Completion time of MPI_Init or MPI_Finalize on one rank (Scalasca computes it for both). */
    public static long completion(Reference r, long leave) {
        long latestBegin = Math.min(r.lastEnter(), leave);
        long earliestEnd = Math.max(r.firstLeave(), latestBegin);
        return Math.max(0, leave - earliestEnd);
    }

    /** Waiting time in MPI_Finalize on one rank. */
    public static long finalizeWait(Reference r, long enter, long leave) {
        return Math.max(0, Math.min(r.lastEnter(), leave) - enter);
    }

    static boolean violated(Reference r, long leave) {
        return r.lastEnter() > leave;
    }
}
