package dev.straggler.testdata.sim;

/**
 * The simulator's cost model of OpenMP thread teams, in timer ticks (ns). Inside a parallel region every thread
 * advances its own clock; the team's timestamps come from these terms and the program's work only, so the
 * closed forms of the OpenMP scenarios include them exactly.
 *
 * <ul>
 *   <li>Fork: the master records THREAD_FORK at {@code F}; thread t enters the parallel region at
 *       {@code F + fork + t × forkStagger} (the master, t = 0, pays {@code fork} too).</li>
 *   <li>Barrier (explicit, and the implicit one that ends the region): every thread of the team leaves at the
 *       latest entry + {@code barrier}.</li>
 *   <li>Critical section: a thread that enters {@code !$omp critical} at {@code e} acquires its lock at
 *       {@code max(e, release of the previous acquisition)}; requests are served in the order of their entry
 *       times, ties by thread number.</li>
 *   <li>Join: the threads leave the region when they leave its implicit barrier; the master records THREAD_JOIN
 *       {@code join} later.</li>
 * </ul>
 *
 * @param fork        ticks from THREAD_FORK to the master's ENTER of the parallel region
 * @param forkStagger extra ticks per thread number before a thread enters the region
 * @param join        ticks from the master's LEAVE of the region to THREAD_JOIN
 * @param barrier     ticks from the latest entry into a barrier to when every thread leaves it
 */
public record ThreadModel(long fork, long forkStagger, long join, long barrier) {

    /** No overhead at all: forks, joins and barriers take no time. */
    public static final ThreadModel FREE = new ThreadModel(0, 0, 0, 0);

    public ThreadModel {
        if (fork < 0 || forkStagger < 0 || join < 0 || barrier < 0) {
            throw new IllegalArgumentException("OpenMP overheads must be >= 0: fork " + fork + ", stagger " + forkStagger
                    + ", join " + join + ", barrier " + barrier);
        }
    }

    /** Ticks from the fork to thread {@code t}'s ENTER of the parallel region. */
    public long forkTime(int t) {
        return fork + forkStagger * t;
    }
}
