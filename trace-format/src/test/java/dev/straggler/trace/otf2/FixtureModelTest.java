package dev.straggler.trace.otf2;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How OTF2 definitions become Straggler's model, on the fixtures whose definitions make_fixtures.py states
 * (the expected values below are those written there).
 */
class FixtureModelTest {

    private static Otf2Archive records() throws IOException {
        return Otf2Archive.open(Otf2Fixtures.anchor("records"));
    }

    @Test
    void locationsAreOrderedByOtf2IdWithRankAndThreadOfTheirProcess() throws IOException {
        try (Otf2Archive a = records()) {
            List<Location> l = a.definitions().locations();
            assertEquals(List.of(0L, 1L, 1L << 32, 2L << 32), l.stream().map(Location::id).toList());
            assertEquals(List.of(0, 1, 0, 0), l.stream().map(Location::rank).toList());
            assertEquals(List.of(0, 0, 1, 2), l.stream().map(Location::thread).toList());
            assertEquals(LocationType.METRIC, l.get(3).type());
            assertEquals("OMP thread 1", l.get(2).name());
            assertEquals(2, a.definitions().rankCount());
            assertEquals("node0", a.definitions().processes().get(0).node());
            assertEquals("MPI Rank 1", a.definitions().processes().get(1).name());
        }
    }

    @Test
    void sparseRegionIdsAreNumberedDenselyInIdOrder() throws IOException {
        try (Otf2Archive a = records()) {
            List<Region> r = a.definitions().regions();
            assertEquals(15, r.size());
            assertEquals("MPI_Iallreduce", r.get(14).name());
            assertEquals(1000, a.mapping().regionIds[14]);
            Region send = r.get(a.definitions().regionId("MPI_Send"));
            assertEquals("MPI", send.sourceFile());
            assertEquals(Paradigm.MPI, send.paradigm());
            assertEquals(RegionRole.POINT2POINT, send.role());
            Region compute = r.get(a.definitions().regionId("compute"));
            assertEquals("fixture.c", compute.sourceFile());
            assertEquals(20, compute.beginLine());
            assertEquals(30, compute.endLine());
            assertEquals(Paradigm.COMPILER, compute.paradigm());
        }
    }

    @Test
    void communicatorMembersAreGlobalRanksInCommunicatorRankOrder() throws IOException {
        try (Otf2Archive a = records()) {
            TraceDefinitions d = a.definitions();
            Map<String, List<Communicator>> byName = new java.util.HashMap<>();
            d.communicators().forEach(c -> byName.computeIfAbsent(c.name(), k -> new java.util.ArrayList<>()).add(c));
            assertArrayEquals(new int[] {0, 1}, byName.get("MPI_COMM_WORLD").get(0).members());
            Communicator reversed = byName.get("reversed").get(0);
            assertArrayEquals(new int[] {1, 0}, reversed.members());
            assertEquals(byName.get("MPI_COMM_WORLD").get(0).id(), reversed.parent());
            // the OpenMP team lists the master thread and thread 1 of rank 0
            assertArrayEquals(new int[] {0, 0}, byName.get("OpenMP team").get(0).members());
        }
    }

    @Test
    void commSelfIsOneSingleMemberCommunicatorPerRank() throws IOException {
        try (Otf2Archive a = records()) {
            TraceDefinitions d = a.definitions();
            List<Communicator> self = d.communicators().stream().filter(c -> c.name().equals("MPI_COMM_SELF")).toList();
            assertEquals(2, self.size());
            assertArrayEquals(new int[] {0}, self.get(0).members());
            assertArrayEquals(new int[] {1}, self.get(1).members());
            // each rank's barrier on MPI_COMM_SELF refers to its own one
            for (int rank = 0; rank < 2; rank++) {
                EventBatch b = a.readLocation(rank);
                int barrierComm = -1;
                for (int i = 0; i < b.size; i++) {
                    if (b.kind[i] == EventKind.MPI_COLLECTIVE_END_CODE && b.ref[i] == 0) {
                        barrierComm = b.comm[i];
                    }
                }
                assertEquals(self.get(rank).id(), barrierComm);
            }
        }
    }

    @Test
    void programBeginNamesTheApplication() throws IOException {
        try (Otf2Archive a = records()) {
            assertEquals("fixture.x", a.definitions().experiment().application());
            assertEquals(2, a.definitions().experiment().processes());
            assertEquals("straggler test fixture", a.anchor().creator());
            assertEquals("3.0.2", a.anchor().version());
        }
    }

    @Test
    void recordsOutsideTheModelAreCountedByNameOnceAllLocationsAreRead() throws IOException {
        try (Otf2Archive a = records()) {
            assertTrue(a.definitions().skippedRecords().isEmpty(), "nothing is known before reading");
            assertEquals(-1, a.definitions().location(0).events());
            a.scanStatistics();
            Map<String, Long> skipped = a.definitions().skippedRecords();
            // make_fixtures.py writes each of these once (METRIC three times: once on rank 0, twice on the
            // metric location), and both ranks write the OTF2 3.0 MPI records
            assertEquals(3L, skipped.get("METRIC"));
            assertEquals(1L, skipped.get("OMP_FORK"));
            assertEquals(1L, skipped.get("RMA_PUT"));
            assertNull(skipped.get("THREAD_FORK"), "thread forks are in the model");
            assertEquals(1L, skipped.get("IO_SEEK"));
            assertEquals(1L, skipped.get("CALLING_CONTEXT_SAMPLE"));
            assertEquals(1L, skipped.get("PARAMETER_INT64"));
            assertEquals(2L, skipped.get("NON_BLOCKING_COLLECTIVE_COMPLETE"));
            assertEquals(2L, skipped.get("COMM_CREATE"));
            assertFalse(skipped.containsKey("ATTRIBUTE_LIST"), "attribute lists are not event records");
            assertEquals(3, a.attributeLists());
            assertFalse(skipped.containsKey("ENTER"));
            assertFalse(skipped.containsKey("MPI_SEND"));
            assertTrue(a.fullyRead());
        }
    }

    @Test
    void withoutMpiRanksAreProcessGroupsInIdOrder() throws IOException {
        try (Otf2Archive a = Otf2Archive.open(Otf2Fixtures.anchor("nompi"))) {
            List<Location> l = a.definitions().locations();
            assertEquals(List.of(0L, 1L, (1L << 32), (1L << 32) + 1), l.stream().map(Location::id).toList());
            assertEquals(List.of(0, 1, 0, 1), l.stream().map(Location::rank).toList());
            assertEquals(List.of(0, 0, 1, 1), l.stream().map(Location::thread).toList());
            assertTrue(a.definitions().communicators().isEmpty());
            assertEquals("threads.x", a.definitions().experiment().application());
        }
    }

    @Test
    void mappingTablesAndClockOffsetsApplyPerLocation() throws IOException {
        try (Otf2Archive a = Otf2Archive.open(Otf2Fixtures.anchor("mapped"))) {
            EventBatch b = a.readLocation(0);
            // local region 0 is global region 5 ("main"), written at 2^53; the first clock offset (+1000 at
            // 2^53 + 40000, then -2500 at 2^53 + 150000) extrapolates back to +1000 + 3500 * 40000 / 110000
            assertEquals(EventKind.ENTER, b.kindAt(1));
            assertEquals("main", a.definitions().region(b.ref[1]).name());
            long base = 1L << 53;
            assertEquals(base + 1000 + Math.round(3500.0 * 40000 / 110000), b.time[1]);
            EventBatch other = a.readLocation(1);
            assertEquals(base + 5, other.time[0], "a single clock offset corrects nothing");
        }
    }
}
