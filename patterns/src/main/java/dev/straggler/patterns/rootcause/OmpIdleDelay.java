package dev.straggler.patterns.rootcause;

import dev.straggler.replay.CallPathIntervals;

/**
 * Delay costs of idle worker threads (Scalasca's DELAY_OMPIDLE and DELAY_OMPIDLE_LONGTERM, Delay.OMP.pattern;
 * docs/openmp.md §6): while the master runs serially, outside parallel regions, its {@code T − 1} workers idle. At
 * each fork, and at the end of the trace for the serial tail, the master's time per call path since the previous
 * join (the end of the previous parallel region) minus the waiting of its synchronisation points in that serial
 * part is its short-term delay, times {@code T − 1}. The waiting itself was caused elsewhere: the wait states of
 * the serial part get {@code T − 1} times their waiting as long-term costs of this type, which the backward replay
 * carries to their causes.
 */
final class OmpIdleDelay {
    private OmpIdleDelay() {
    }

    /** At the fork synchronisation point {@code s} of the master {@code st}. */
    static void atFork(LocationState st, int s, IntervalTimes t) {
        book(st, CostReplay.previousTeamPoint(st, s), s, st.sp.mark(s), t);
    }

    /** For the serial part after the master's last OpenMP point (the backward replay's PREPARE). */
    static void atEnd(LocationState st, IntervalTimes t) {
        book(st, CostReplay.previousTeamPoint(st, st.sp.size()), st.sp.size(), st.intervals.size(), t);
    }

    /**
     * @param prev   the previous OpenMP point (the implicit barrier ending the previous parallel region), -1 none
     * @param toSp   the fork's point (or the number of points, for the end)
     * @param toMark the fork's mark (or the number of marks)
     */
    private static void book(LocationState st, int prev, int toSp, int toMark, IntervalTimes t) {
        TimeMap waits = t.waitMap(st, prev, toSp);
        TimeMap serial = t.runtimes(st, joinAfter(st, prev, toMark), toMark).minusPositive(waits);
        double scale = 0.0;
        if (serial.sum() + waits.sum() > 0) {
            scale = st.teamSize - 1;
        }
        if (serial.sum() > 0) {
            for (int i = 0; i < serial.size(); i++) {
                st.add(RootCauseMetric.DELAY_OMPIDLE, serial.paths()[i], scale * serial.seconds()[i]);
            }
        }
        if (waits.sum() > 0.0) {
            CostReplay.addCosts(st, WaitType.OMP_IDLE, prev, toSp, scale);
        }
    }

    /**
     * Where the serial part starts: the first join after the previous OpenMP point (Scalasca walks forward from that
     * point to the next THREAD_JOIN), the start of the trace when there is no previous point, and an empty part when
     * no join lies before {@code toMark}.
     */
    private static int joinAfter(LocationState st, int prev, int toMark) {
        if (prev < 0) {
            return -1;
        }
        CallPathIntervals iv = st.intervals;
        for (int m = st.sp.mark(prev) + 1; m < toMark; m++) {
            if (iv.kind(m) == CallPathIntervals.OMP_JOIN) {
                return m;
            }
        }
        return toMark;
    }
}
