package dev.straggler.replay;

import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Locations read apart (a distributed engine's tasks): a worker read with its master's records and each location's
 * team management added where it is read give the profiles and the management of a whole replay.
 */
class TeamManagementTest {
    /**
     * Two processes, locations numbered thread by thread; rank 0 forks twice (its worker enters late and leaves early
     * in the first region), rank 1 forks once and records no join (no management for that region).
     */
    private static final String TRACE = """
            straggler-text 1
            clock resolution=1000000 offset=0 length=500
            region 0 main paradigm=USER role=FUNCTION
            region 1 par paradigm=OPENMP role=PARALLEL
            region 2 work paradigm=USER role=FUNCTION
            region 3 step paradigm=USER role=FUNCTION
            location 0 rank=0 thread=0
            location 1 rank=1 thread=0
            location 2 rank=0 thread=1
            location 3 rank=1 thread=1
            0 0 ENTER main
            0 5 ENTER step
            0 10 THREAD_FORK model=openmp threads=2
            0 12 ENTER par
            0 20 ENTER work
            0 100 LEAVE work
            0 100 LEAVE par
            0 104 THREAD_JOIN model=openmp
            0 110 LEAVE step
            0 200 THREAD_FORK model=openmp threads=2
            0 201 ENTER par
            0 300 LEAVE par
            0 302 THREAD_JOIN model=openmp
            0 500 LEAVE main
            1 0 ENTER main
            1 30 THREAD_FORK model=openmp threads=2
            1 31 ENTER par
            1 300 LEAVE par
            1 500 LEAVE main
            2 15 ENTER par
            2 20 ENTER work
            2 90 LEAVE work
            2 95 LEAVE par
            2 203 ENTER par
            2 299 LEAVE par
            3 35 ENTER par
            3 290 LEAVE par
            """;

    @Test
    void locationsReadApartGetTheProfilesAndManagementOfAWholeReplay() throws IOException {
        MemoryTrace trace = TextTraceReader.read(new StringReader(TRACE), "team");
        TraceDefinitions defs = trace.definitions();
        ReplayOptions options = ReplayOptions.defaults().withThreads(1);
        Replay whole = Replay.run(trace, options);
        RegionTable regions = RegionTable.of(defs);
        int[] locationOfRank = defs.masterLocationByRank();
        int n = defs.locations().size();
        LocationData[] apart = new LocationData[n];
        for (int l = 0; l < n; l++) {
            if (Replay.isMaster(defs, locationOfRank, l)) {
                apart[l] = Replay.readLocation(trace, defs, regions, l, true, options, null);
                TeamManagement.applyTo(apart[l], apart[l].threads(), false);
            }
        }
        for (int l = 0; l < n; l++) {
            if (apart[l] == null) {
                ThreadRecords master = apart[locationOfRank[defs.location(l).rank()]].threads();
                apart[l] = Replay.readLocation(trace, defs, regions, l, false, options, master);
                TeamManagement.applyTo(apart[l], master, true);
            }
        }
        List<ThreadRecords> threads = new ArrayList<>();
        List<int[]> maps = new ArrayList<>();
        for (int l = 0; l < n; l++) {
            LocationProfile e = whole.location(l).profile();
            LocationProfile a = apart[l].profile();
            assertEquals(e.size(), a.size(), "call paths of location " + l);
            for (int node = 0; node < e.size(); node++) {
                assertEquals(e.parent(node), a.parent(node));
                assertEquals(e.inclusive(node), a.inclusive(node), "time of location " + l + ", call path " + node);
            }
            threads.add(apart[l].threads());
            maps.add(new int[a.size()]);
        }
        // the management the thread level reads, from the records alone
        TeamManagement expected = whole.teamManagement();
        TeamManagement actual = Replay.threadLevel(defs, threads, maps).teamManagement();
        assertEquals(2, expected.unmatchedInstances(), "rank 1's region has no join: on its master and its worker");
        assertEquals(expected.unmatchedInstances(), actual.unmatchedInstances());
        for (int l = 0; l < n; l++) {
            for (int k = 0; k < apart[l].threads().parallels(); k++) {
                assertEquals(expected.fork(l, k), actual.fork(l, k), "fork of location " + l + ", region " + k);
                assertEquals(expected.join(l, k), actual.join(l, k), "join of location " + l + ", region " + k);
            }
        }
        // rank 0's worker in the first region: entered 5 µs after the fork, left 9 µs before the join
        assertArrayEquals(new long[] {5, 9}, new long[] {actual.fork(2, 0), actual.join(2, 0)});
    }
}
