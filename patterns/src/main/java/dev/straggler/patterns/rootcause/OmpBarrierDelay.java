package dev.straggler.patterns.rootcause;

/**
 * Delay costs of waiting at an OpenMP barrier (Scalasca's {@code CalculateOmpBarrierDelay} and the
 * DELAY_OMP_BARRIER handlers of Delay.OMP.pattern and Delay.MPI.pattern; docs/openmp.md §6). The thread that
 * entered the barrier last caused the others' waiting: each waiting thread compares the last thread's time map
 * since its previous OpenMP synchronisation point with its own, and its inputs (its own waiting, and the long-term
 * costs of every wait-state type that reached it) are spread over the call paths where the last thread spent more
 * time, in proportion to that excess plus the waiting the last thread itself did in its interval. The last thread
 * books the short-term delay ({@code delay_ompbarrier}) and each type's long-term delay, and passes the sum of the
 * scales on to the wait states in its interval as their long-term costs.
 *
 * <p>Scalasca's long-term OpenMP barrier pattern registers no input at barriers, so costs that an OpenMP barrier wait
 * collected never travel through a further barrier; they travel only through MPI wait states. Where several threads
 * enter last at the same time Scalasca takes whichever its analysis threads happen to meet first; here it is the
 * lowest thread number.
 */
final class OmpBarrierDelay {
    private OmpBarrierDelay() {
    }

    /**
     * Per analysis thread, the arrays one evaluation works in (a barrier every few events: no allocation each); held
     * by the thread's {@link IntervalTimes}, which every evaluation gets.
     */
    static final class Scratch {
        double[] diff = new double[64];
        double[] diffSum = new double[8];
        double[] delay = new double[16];

        void ensure(int threads, int paths) {
            if (diff.length < threads * paths) {
                diff = new double[Math.max(threads * paths, 2 * diff.length)];
            }
            if (diffSum.length < threads) {
                diffSum = new double[threads];
            }
            if (delay.length < paths) {
                delay = new double[Math.max(paths, 2 * delay.length)];
            }
        }
    }

    /** Evaluates a barrier instance once every thread of the team has arrived (master first in {@code team}). */
    static void evaluate(CostReplay replay, CostReplay.TeamArrival[] team, IntervalTimes t) {
        CostReplay.TeamArrival latest = team[0];
        for (CostReplay.TeamArrival a : team) {
            if (a.enter() > latest.enter()) {
                latest = a;
            }
        }
        LocationState last = replay.state(latest.location());
        TimeMap latestMap = latest.times();
        int[] paths = latestMap.paths();
        int cpn = paths.length;
        double propWait = latest.propWait();
        // per thread: the positive part of the last thread's times minus its own (CalculateDiff), in path order;
        // thread j's part is diff[j·cpn, (j+1)·cpn)
        Scratch scratch = t.scratch();
        scratch.ensure(team.length, cpn);
        double[] diff = scratch.diff;
        double[] diffSum = scratch.diffSum;
        double[] latestSeconds = latestMap.seconds();
        for (int j = 0; j < team.length; j++) {
            TimeMap mine = team[j].times();
            int base = j * cpn;
            double sum = 0;
            for (int i = 0; i < cpn; i++) {
                double x = latestSeconds[i] - mine.get(paths[i]);
                if (x > 0.0) {
                    diff[base + i] = x;
                    sum += x;
                } else {
                    diff[base + i] = 0.0;
                }
            }
            diffSum[j] = sum;
        }
        // input -1: each thread's own waiting (short-term); input type: its long-term costs of that type
        for (int type = -1; type < WaitType.COUNT; type++) {
            if (type == WaitType.OMP_BARRIER) {
                continue; // no PRE_DELAY_OMP_BARRIER handler in Scalasca's long-term barrier pattern
            }
            if (type >= 0 && noCosts(replay, team, type)) {
                continue; // every scale 0: no delay and no cost to pass on
            }
            double[] delay = scratch.delay;
            java.util.Arrays.fill(delay, 0, cpn, 0.0);
            double delaySum = 0;
            double sumScale = 0;
            for (int j = 0; j < team.length; j++) {
                CostReplay.TeamArrival a = team[j];
                double in = type < 0 ? latest.enter() - a.enter() : replay.state(a.location()).cost(type, a.sp());
                double scale = 0.0;
                if (diffSum[j] + propWait > 0) {
                    scale = in / (diffSum[j] + propWait);
                }
                int base = j * cpn;
                for (int i = 0; i < cpn; i++) {
                    double d = diff[base + i];
                    if (d > 0.0) {
                        delay[i] += scale * d;
                        delaySum += scale * d;
                    }
                }
                sumScale += scale;
            }
            RootCauseMetric metric = type < 0 ? RootCauseMetric.DELAY_OMPBARRIER : WaitType.longTerm(type);
            if (delaySum > 0.0) {
                for (int i = 0; i < cpn; i++) {
                    if (delay[i] != 0) {
                        last.add(metric, paths[i], delay[i]);
                    }
                }
            }
            CostReplay.addCosts(last, type < 0 ? WaitType.OMP_BARRIER : type, latest.prevSp(), latest.sp(), sumScale);
        }
        replay.barrierPath(team, t);
    }

    private static boolean noCosts(CostReplay replay, CostReplay.TeamArrival[] team, int type) {
        for (CostReplay.TeamArrival a : team) {
            if (replay.state(a.location()).cost(type, a.sp()) != 0) {
                return false;
            }
        }
        return true;
    }
}
