package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.ThreadRecords;
import dev.straggler.trace.Clock;

/**
 * The OpenMP synchronisation points of one thread of a team (Scalasca's {@code SynchpointHandler} with OpenMP,
 * docs/openmp.md §6): the Enter of each parallel region (a fork point: no waiting, its total time the fork time
 * {@code max(0, enter − fork)}, its completion time {@code max(0, enter − earliest enter of the team)}) and the
 * Leave of each barrier inside a parallel region (its waiting time the barrier wait of §5.1, its total time the
 * barrier's duration, no completion time). Seconds are computed from the timestamps as Scalasca's reader gives them.
 */
final class TeamSyncPoints {
    private TeamSyncPoints() {
    }

    /**
     * What the threads of a team share: per parallel-region instance the earliest Enter, per barrier instance the
     * latest Enter (ticks), formed once per team.
     */
    record Instances(long[] earliestParallelEnter, long[] latestBarrierEnter) {
        static Instances of(LocationData[] team) {
            int parallels = 0;
            int barriers = 0;
            for (LocationData d : team) {
                parallels = Math.max(parallels, d.threads().parallels());
                barriers = Math.max(barriers, d.threads().barriers());
            }
            long[] earliest = new long[parallels];
            long[] latest = new long[barriers];
            java.util.Arrays.fill(earliest, Long.MAX_VALUE);
            java.util.Arrays.fill(latest, Long.MIN_VALUE);
            for (LocationData d : team) {
                ThreadRecords t = d.threads();
                for (int k = 0; k < t.parallels(); k++) {
                    earliest[k] = Math.min(earliest[k], t.parallelEnter(k));
                }
                for (int k = 0; k < t.barriers(); k++) {
                    latest[k] = Math.max(latest[k], t.barrierEnter(k));
                }
            }
            return new Instances(earliest, latest);
        }
    }

    /**
     * Registers the OpenMP points of thread {@code thread} of {@code team} (master first) into its state, before
     * the MPI points and the freeze ({@link SyncPointDetection#register}).
     */
    static void register(LocationState st, LocationData[] team, Instances shared, int thread, Clock clock) {
        ThreadRecords master = team[0].threads();
        ThreadRecords own = team[thread].threads();
        CallPathIntervals iv = st.intervals;
        for (int m = 0; m < iv.size(); m++) {
            byte kind = iv.kind(m);
            int k = iv.ref(m);
            if (kind == CallPathIntervals.OMP_FORK) {
                long enter = own.parallelEnter(k);
                long earliest = Math.min(enter, shared.earliestParallelEnter()[k]);
                double total = k < master.forks()
                        ? Math.max(0.0, seconds(clock, enter) - seconds(clock, master.forkTime(k))) : 0.0;
                double completion = Math.max(0.0, seconds(clock, enter) - seconds(clock, earliest));
                st.sp.addTeam(m, 0, total, completion);
            } else if (kind == CallPathIntervals.OMP_BARRIER) {
                long enter = own.barrierEnter(k);
                long latest = Math.max(enter, shared.latestBarrierEnter()[k]);
                // Scalasca records the wait only where it is positive, less the tasks run inside the barrier (as the
                // barrier wait of §5.1; 0 without tasks, which leaves the difference as it is)
                double wait = seconds(clock, latest) - seconds(clock, enter)
                        - (double) own.barrierTaskTicks(k) / clock.ticksPerSecond();
                double total = seconds(clock, iv.leave(m)) - seconds(clock, iv.enter(m));
                st.sp.addTeam(m, wait > 0 ? wait : 0, total, 0);
            }
        }
    }

    /** True when every thread of the team marked the same fork and barrier instances (the replay can meet). */
    static boolean consistent(LocationData[] team) {
        long[] first = instances(team[0].intervals());
        for (int i = 1; i < team.length; i++) {
            if (team[i].intervals() == null || !java.util.Arrays.equals(first, instances(team[i].intervals()))) {
                return false;
            }
        }
        return true;
    }

    /** The marked OpenMP instances of a thread in stream order: (kind << 32 | instance). */
    private static long[] instances(CallPathIntervals iv) {
        it.unimi.dsi.fastutil.longs.LongArrayList out = new it.unimi.dsi.fastutil.longs.LongArrayList();
        for (int m = 0; m < iv.size(); m++) {
            byte kind = iv.kind(m);
            if (kind == CallPathIntervals.OMP_FORK || kind == CallPathIntervals.OMP_BARRIER) {
                out.add(((long) kind << 32) | (iv.ref(m) & 0xffffffffL));
            }
        }
        return out.toLongArray();
    }

    private static double seconds(Clock clock, long t) {
        return clock.secondsSinceStart(t);
    }
}
