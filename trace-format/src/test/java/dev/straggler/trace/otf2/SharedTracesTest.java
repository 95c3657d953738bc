package dev.straggler.trace.otf2;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real Score-P traces in ../shared/traces: counts against what otf2-print reported for each (OTF2_STATS.txt,
 * otf2_counts.txt), and every event against otf2-print itself.
 */
class SharedTracesTest {

    /** Record names OTF2_STATS.txt leaves out: its counting kept only names without digits. */
    private static boolean omittedByStatsFile(String name) {
        return name.matches(".*\\d.*");
    }

    @ParameterizedTest
    @ValueSource(strings = {"pipit-ping-pong", "pipit-ping-pong-papi", "casita-10_scorep_mpi_tags",
        "casita-2_cuda_simple", "casita-2_jacobi_blame_cpu_015", "fastotf2-mi300", "real/npb-mg.S-2",
        "real/npb-mg.S-4", "real/npb-mg.S-8", "real/npb-mg.S-16", "real/npb-bt.S-4", "real/npb-bt.S.filtered-4",
        "real/npb-cg.S-4", "real/npb-ft.S-4", "real/npb-lu.S-4", "real/npb-sp.S-4", "real/npb-is.S-4",
        "real/lulesh-s8-8"})
    void recordCountsMatchWhatOtf2PrintReported(String trace) throws IOException {
        Path dir = SharedTraces.dir(trace);
        StatsFile expected = StatsFile.read(dir);
        try (Otf2Archive a = Otf2Archive.open(dir)) {
            Otf2Statistics s = a.scanStatistics();
            assertEquals(expected.version, a.anchor().version(), "version");
            assertEquals(expected.locations, a.definitions().locations().size(), "locations");
            assertEquals(expected.creator, a.anchor().creator(), "creator");
            assertEquals(expected.ticksPerSecond, a.definitions().clock().ticksPerSecond(), "timer resolution");
            assertEquals(expected.globalOffset, a.definitions().clock().globalOffset(), "global offset");
            assertEquals(expected.traceLength, a.definitions().clock().traceLength(), "trace length");

            long omitted = 0;
            for (Map.Entry<String, Long> e : s.eventsByRecord().entrySet()) {
                if (omittedByStatsFile(e.getKey())) {
                    omitted += e.getValue();
                } else {
                    assertEquals(expected.eventCounts.get(e.getKey()), e.getValue(), e.getKey());
                }
            }
            for (String name : expected.eventCounts.keySet()) {
                assertTrue(s.eventsByRecord().containsKey(name), "no " + name + " records read");
            }
            assertEquals(expected.totalEvents + omitted, s.events(), "total events");
            assertEquals(s.events(), s.modelEvents() + a.definitions().totalSkippedRecords(),
                    "delivered plus skipped records are all event records");
            assertEquals(s.modelEvents(), a.eventCount());

            for (int i = 0; i < s.eventsPerLocation().length; i++) {
                String id = Long.toUnsignedString(a.locationId(i));
                long[] byType = a.recordCounts(i);
                long omittedHere = 0;
                for (int t = 0; t < 256; t++) {
                    if (omittedByStatsFile(Otf2Format.eventName(t))) {
                        omittedHere += byType[t];
                    }
                }
                assertEquals(expected.eventsPerLocation.get(id), s.eventsPerLocation()[i] - omittedHere,
                        "events of location " + id);
            }
            if (expected.firstTimestamp >= 0) {
                assertEquals(expected.firstTimestamp, s.firstTimestamp(), "first timestamp");
                assertEquals(expected.lastTimestamp, s.lastTimestamp(), "last timestamp");
            }
            checkEventContents(a, expected);
        }
    }

    /** Collectives by operation, ENTERs by region name and bytes sent, from the delivered events. */
    private static void checkEventContents(Otf2Archive a, StatsFile expected) throws IOException {
        TraceDefinitions d = a.definitions();
        Map<String, Long> ops = new HashMap<>();
        Map<String, Long> entered = new HashMap<>();
        long sent = 0;
        EventBatch b = new EventBatch();
        for (int l = 0; l < d.locations().size(); l++) {
            try (LocationReader r = a.openLocation(l)) {
                while (r.next(b)) {
                    for (int i = 0; i < b.size; i++) {
                        switch (b.kindAt(i)) {
                            case MPI_COLLECTIVE_END -> ops.merge(CollectiveOp.of(b.ref[i]).name(), 1L, Long::sum);
                            case ENTER -> entered.merge(d.region(b.ref[i]).name(), 1L, Long::sum);
                            case MPI_SEND, MPI_ISEND -> sent += b.bytes[i];
                            default -> {
                            }
                        }
                    }
                }
            }
        }
        assertEquals(expected.collectiveOps, ops, "collective operations");
        for (Map.Entry<String, Long> e : expected.regionsEntered.entrySet()) {
            assertEquals(e.getValue(), entered.get(e.getKey()), "ENTERs of region " + e.getKey());
        }
        if (expected.p2pBytesSent >= 0) {
            assertEquals(expected.p2pBytesSent, sent, "point-to-point bytes sent");
        }
        assertEquals(expected.eventCounts.getOrDefault("ENTER", 0L), a.scanStatistics().count(EventKind.ENTER));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pipit-ping-pong", "pipit-ping-pong-papi", "casita-10_scorep_mpi_tags",
        "casita-2_cuda_simple", "casita-2_jacobi_blame_cpu_015", "fastotf2-mi300", "real/npb-mg.S-2",
        "real/npb-mg.S-4", "real/npb-mg.S-8", "real/npb-mg.S-16", "real/npb-bt.S.filtered-4", "real/npb-ft.S-4",
        "real/npb-lu.S-4", "real/npb-sp.S-4", "real/npb-cg.S-4", "real/npb-is.S-4", "real/npb-bt.S-4",
        "real/lulesh-s8-8", "hybrid/omp-kernels-2x4", "hybrid/bt-mz.S-2x2"})
    void traceMatchesOtf2PrintEventByEvent(String trace) throws IOException {
        long n = EventComparison.assertSameAsOtf2Print(SharedTraces.dir(trace).resolve("traces.otf2"));
        assertTrue(n > 0);
    }

    /**
     * The hybrid traces' thread records (fork, join, lock acquisition and release) are delivered as events, as many
     * per kind as otf2-print counted ({@code otf2_counts.txt}); the team records and the rest are still skipped.
     */
    @ParameterizedTest
    @ValueSource(strings = {"hybrid/omp-kernels-2x4", "hybrid/bt-mz.S-2x2"})
    void threadRecordsOfHybridTracesAreDeliveredAsEvents(String trace) throws IOException {
        Path dir = SharedTraces.dir(trace);
        StatsFile expected = StatsFile.read(dir);
        try (Otf2Archive a = Otf2Archive.open(dir)) {
            Otf2Statistics s = a.scanStatistics();
            for (EventKind k : new EventKind[] {EventKind.THREAD_FORK, EventKind.THREAD_JOIN,
                EventKind.THREAD_ACQUIRE_LOCK, EventKind.THREAD_RELEASE_LOCK}) {
                assertEquals(expected.eventCounts.getOrDefault(k.name(), 0L), s.count(k), k.name());
            }
            assertTrue(s.count(EventKind.THREAD_FORK) > 0, "a hybrid trace forks");
            assertEquals(expected.totalEvents, s.events(), "total events");
            long skipped = a.definitions().skippedRecords().values().stream().mapToLong(Long::longValue).sum();
            assertEquals(expected.eventCounts.getOrDefault("THREAD_TEAM_BEGIN", 0L)
                    + expected.eventCounts.getOrDefault("THREAD_TEAM_END", 0L)
                    + expected.eventCounts.getOrDefault("COMM_CREATE", 0L)
                    + expected.eventCounts.getOrDefault("COMM_DESTROY", 0L), skipped, "records still skipped");
        }
    }
}
