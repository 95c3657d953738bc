package dev.straggler.trace.otf2;

import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Which model communicators the writer defines over threads: Score-P's "Process x Threads CPU Locations" and the
 * OpenMP thread teams both list a rank once per thread, so they must not be taken for each other.
 */
class ThreadCommunicatorsTest {
    /** One rank of four CPU threads (Score-P's location ids), with the communicators a Score-P trace of it has. */
    private static TraceDefinitions oneRankOfFourThreads() {
        TraceDefinitions.Builder b = TraceDefinitions.builder().experiment(Experiment.of("app", 1));
        for (int t = 0; t < 4; t++) {
            b.location(new Location(t, (long) t << 32, t == 0 ? "Master thread" : "OMP thread " + t,
                    LocationType.CPU_THREAD, 0, t, 0));
        }
        b.addCommunicator("Process x Threads CPU Locations", new int[] {0, 0, 0, 0}, -1);
        b.addCommunicator("MPI_COMM_WORLD", new int[] {0}, -1);
        b.addCommunicator("", new int[] {0, 0, 0, 0}, -1);
        return b.build();
    }

    @Test
    void aSingleRanksTeamIsTheUnnamedCommunicatorNotTheProcessByThreadsOne() {
        TraceDefinitions d = oneRankOfFourThreads();
        int[][] forks = new int[4][];
        forks[0] = new int[] {4, 4};
        ThreadTeams teams = ThreadTeams.of(d, forks);
        assertEquals(1, teams.teams.size());
        assertEquals(2, teams.teams.get(0).comm());

        GlobalDefinitionsWriter.ThreadComms threads = GlobalDefinitionsWriter.ThreadComms.of(d, 1, teams.modelTeams);
        assertArrayEquals(new int[] {0, 1, 2, 3}, threads.locations);
        assertArrayEquals(new int[] {0, 1, 2, 3}, threads.members[0]);
        assertNull(threads.members[1], "MPI_COMM_WORLD stays an MPI communicator");
        assertNull(threads.members[2], "the team is written as a team");
    }

    /** The k-th time a rank is listed stands for its k-th thread, whatever the order of the list. */
    @Test
    void eachListingOfARankStandsForItsNextThread() {
        TraceDefinitions.Builder b = TraceDefinitions.builder().experiment(Experiment.of("app", 2));
        for (int r = 0; r < 2; r++) {
            for (int t = 0; t < 2; t++) {
                b.location(new Location(2 * r + t, ((long) t << 32) | r, t == 0 ? "Master thread" : "OMP thread 1",
                        LocationType.CPU_THREAD, r, t, 0));
            }
        }
        b.addCommunicator("threads, rank 1 first", new int[] {1, 0, 1, 0}, -1);
        b.addCommunicator("rank 1 listed three times", new int[] {1, 1, 1}, -1);
        TraceDefinitions d = b.build();
        GlobalDefinitionsWriter.ThreadComms threads = GlobalDefinitionsWriter.ThreadComms.of(d, 2,
                new java.util.BitSet());
        assertArrayEquals(new int[] {0, 1, 2, 3}, threads.locations);
        assertArrayEquals(new int[] {2, 0, 3, 1}, threads.members[0]);
        assertNull(threads.members[1], "rank 1 has two locations, so this one stays as it was");
    }
}
