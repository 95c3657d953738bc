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
    public record Reference(boolean complete, long lastEnter, long firstLeave, int lastRank) {
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
        int ranks = replay.definitions().masterLocationByRank().length;
        long lastEnter = Long.MIN_VALUE;
        long firstLeave = Long.MAX_VALUE;
        int lastRank = -1;
        int have = 0;
        for (int rank = 0; rank < ranks; rank++) {
            int l = replay.locationOfRank(rank);
            if (l < 0) {
                continue;
            }
            LocationData d = replay.location(l);
            if (init ? !d.hasInit() : !d.hasFinalize()) {
                return new Reference(false, 0, 0, -1);
            }
            long enter = init ? d.initEnter() : d.finalizeEnter();
            long leave = init ? d.initLeave() : d.finalizeLeave();
            if (lastRank < 0 || enter > lastEnter) {
                lastEnter = enter;
                lastRank = rank;
            }
            firstLeave = Math.min(firstLeave, leave);
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
