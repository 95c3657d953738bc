package dev.straggler.patterns.timeline;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.store.StoreWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A window written as OTF2, checked against the official reader: {@code otf2-print} of the original gives, per
 * location, the records in the window and the regions open at its edges (by its own ENTER/LEAVE stack), and reads
 * the written archive without error.
 */
class Otf2WindowExportTest {
    /** Records Straggler's model carries (others, e.g. COMM_CREATE, are not written). */
    private static final Set<String> CARRIED = Set.of("ENTER", "LEAVE", "MPI_SEND", "MPI_ISEND", "MPI_ISEND_COMPLETE",
            "MPI_IRECV_REQUEST", "MPI_RECV", "MPI_IRECV", "MPI_REQUEST_TEST", "MPI_REQUEST_CANCELLED",
            "MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END", "MEASUREMENT_ON_OFF", "PROGRAM_BEGIN", "PROGRAM_END",
            "BUFFER_FLUSH", "THREAD_FORK", "THREAD_JOIN", "THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK", "THREAD_BEGIN");

    @TempDir
    Path tmp;

    private record Rec(String name, long location, long time) {
    }

    private static Path shared(String trace) {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path p = Path.of(shared, "traces", trace);
        Assumptions.assumeTrue(Files.isDirectory(p), "shared trace folder " + p + " is absent");
        return p;
    }

    private static String otf2Print() {
        for (String c : new String[] {"/usr/bin/otf2-print", "/work/opt/scorep/bin/otf2-print"}) {
            if (Files.isExecutable(Path.of(c))) {
                return c;
            }
        }
        Assumptions.abort("otf2-print is not installed (apt-get install otf2-tools)");
        return null;
    }

    /** otf2-print's event records: name, location id, timestamp. */
    private static List<Rec> print(Path anchor) throws Exception {
        Process p = new ProcessBuilder(otf2Print(), anchor.toString()).redirectErrorStream(false).start();
        List<Rec> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 3 && f[0].matches("[A-Z_0-9]+") && f[1].matches("\\d+") && f[2].matches("\\d+")) {
                    out.add(new Rec(f[0], Long.parseUnsignedLong(f[1]), Long.parseUnsignedLong(f[2])));
                }
            }
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "otf2-print " + anchor + ": " + err);
        assertTrue(err.isBlank(), "otf2-print " + anchor + ": " + err);
        return out;
    }

    private static Map<String, Long> count(List<Rec> recs, long location) {
        Map<String, Long> m = new HashMap<>();
        recs.stream().filter(r -> r.location == location).forEach(r -> m.merge(r.name, 1L, Long::sum));
        return m;
    }

    /**
     * Per location: ENTERs written = otf2-print's ENTERs of the original in the window + the regions open at its
     * start (otf2-print's stack), LEAVEs likewise with those open at its end; every other record carried is the
     * original's in the window less what the summary says it dropped. The written archive reads without error.
     */
    private static void checkAgainstOtf2Print(Path original, Path written, Otf2WindowExport.Summary s,
                                              TraceDefinitions d, List<Integer> chosen) throws Exception {
        List<Rec> orig = print(original);
        List<Rec> win = print(written);
        for (Location l : d.locations()) {
            long id = l.id();
            if (chosen != null && !chosen.contains(l.index())) {
                assertTrue(count(win, id).isEmpty(), "location " + id + " was not chosen: defined without events");
                continue;
            }
            int depth = 0;
            int depthAtStart = -1;
            long enters = 0;
            long leaves = 0;
            long carried = 0;
            for (Rec r : orig) {
                if (r.location != id) {
                    continue;
                }
                if (r.time >= s.fromTick() && depthAtStart < 0) {
                    depthAtStart = depth;
                }
                if (r.time > s.toTick()) {
                    break;
                }
                if (r.time >= s.fromTick()) {
                    enters += r.name.equals("ENTER") ? 1 : 0;
                    leaves += r.name.equals("LEAVE") ? 1 : 0;
                    carried += CARRIED.contains(r.name) ? 1 : 0;
                }
                depth += r.name.equals("ENTER") ? 1 : r.name.equals("LEAVE") && depth > 0 ? -1 : 0;
            }
            Map<String, Long> w = count(win, id);
            String at = "location " + id;
            if (depthAtStart < 0) {
                assertTrue(w.isEmpty(), at + " ends before the window: nothing written");
                continue;
            }
            assertEquals(enters + depthAtStart, w.getOrDefault("ENTER", 0L), at + ": ENTER");
            assertEquals(leaves + depth, w.getOrDefault("LEAVE", 0L), at + ": LEAVE");
            long writtenCarried = w.entrySet().stream().filter(e -> CARRIED.contains(e.getKey()))
                    .mapToLong(Map.Entry::getValue).sum();
            assertEquals(carried - s.droppedByLocation()[l.index()] + s.addedByLocation()[l.index()], writtenCarried, at);
            assertEquals(s.writtenByLocation()[l.index()], writtenCarried, at);
            assertEquals(w.getOrDefault("MPI_COLLECTIVE_BEGIN", 0L), w.getOrDefault("MPI_COLLECTIVE_END", 0L), at);
        }
        long sends = win.stream().filter(r -> r.name.equals("MPI_SEND") || r.name.equals("MPI_ISEND")).count();
        long recvs = win.stream().filter(r -> r.name.equals("MPI_RECV") || r.name.equals("MPI_IRECV")).count();
        assertEquals(sends, recvs, "every message written has both ends");
        assertEquals(s.messagesKept(), sends);
    }

    /** Straggler's own reader: events as counted, ENTER/LEAVE balanced per location, the validator content. */
    private static void checkReadBack(Path written, Otf2WindowExport.Summary s) throws IOException {
        try (TraceSource back = Traces.open(written)) {
            EventBatch b = new EventBatch();
            for (Location l : back.definitions().locations()) {
                long n = 0;
                int depth = 0;
                try (LocationReader r = back.openLocation(l.index())) {
                    while (r.next(b)) {
                        for (int i = 0; i < b.size; i++) {
                            n++;
                            depth += b.kind[i] == EventKind.ENTER_CODE ? 1 : b.kind[i] == EventKind.LEAVE_CODE ? -1 : 0;
                            assertTrue(depth >= 0, "location " + l.index() + ": a LEAVE without its ENTER");
                        }
                    }
                }
                assertEquals(0, depth, "location " + l.index() + ": regions left open");
                assertEquals(s.writtenByLocation()[l.index()], n, "location " + l.index());
            }
            TraceValidator.Report v = TraceValidator.validate(back);
            assertTrue(v.ok(), v.problems().toString());
        }
    }

    private static long tick(TraceDefinitions d, double seconds) {
        return d.clock().globalOffset() + Math.round(seconds * d.clock().ticksPerSecond());
    }

    @Test
    void npbMgWindowHoldsOtf2PrintsRecordsInItWithTheCutRegionsOpenedAndClosedAtItsEdges() throws Exception {
        Path mg = shared("real/npb-mg.S-4");
        Path out = tmp.resolve("mg");
        try (TraceSource t = Traces.open(mg)) {
            TraceDefinitions d = t.definitions();
            Otf2WindowExport.Summary s = Otf2WindowExport.write(t, tick(d, 0.285), tick(d, 0.29), null, out);
            assertTrue(s.enterAdded() > 0 && s.leaveAddedAtEnd() > 0, "the window cuts regions at both edges");
            assertTrue(s.messagesKept() > 0 && s.collectivesKept() > 0);
            checkAgainstOtf2Print(mg.resolve("traces.otf2"), out.resolve("traces.otf2"), s, d, null);
            checkReadBack(out, s);
        }
    }

    @Test
    void windowOfChosenLocationsDefinesTheOthersWithoutEventsAndKeepsOnlyMessagesBetweenTheChosen() throws Exception {
        Path mg = shared("real/npb-mg.S-4");
        Path out = tmp.resolve("mg01");
        try (TraceSource t = Traces.open(mg)) {
            TraceDefinitions d = t.definitions();
            Otf2WindowExport.Summary s = Otf2WindowExport.write(t, tick(d, 0.285), tick(d, 0.29), List.of(0, 1), out);
            assertEquals(0, s.writtenByLocation()[2] + s.writtenByLocation()[3]);
            // collectives over MPI_COMM_WORLD need all four ranks: none is whole
            assertTrue(s.collectiveRecordsDropped() > 0);
            checkAgainstOtf2Print(mg.resolve("traces.otf2"), out.resolve("traces.otf2"), s, d, List.of(0, 1));
            checkReadBack(out, s);
        }
    }

    /** A delegating source that fails when a location is read from its start and counts the events delivered. */
    private record SeekOnly(TraceSource inner, AtomicLong delivered) implements TraceSource {
        @Override
        public TraceDefinitions definitions() {
            return inner.definitions();
        }

        @Override
        public String origin() {
            return inner.origin();
        }

        @Override
        public LocationReader openLocation(int location) {
            throw new AssertionError("location " + location + " read from its start: the window must seek");
        }

        @Override
        public LocationReader openLocation(int location, long fromTick) throws IOException {
            LocationReader r = inner.openLocation(location, fromTick);
            return new LocationReader() {
                @Override
                public boolean next(EventBatch batch) throws IOException {
                    boolean more = r.next(batch);
                    delivered.addAndGet(batch.size);
                    return more;
                }

                @Override
                public int[] openRegions() throws IOException {
                    return r.openRegions();
                }

                @Override
                public void close() throws IOException {
                    r.close();
                }
            };
        }

        @Override
        public boolean seeksWithoutScanning() {
            return inner.seeksWithoutScanning();
        }

        @Override
        public void close() {
        }
    }

    @Test
    void indexedStoreWindowIsReadBySeekingAndWritesWhatTheExactReadWrites() throws Exception {
        Path mg = shared("real/npb-mg.S-4");
        Path store = tmp.resolve("store");
        int batch = 500;
        try (TraceSource t = Traces.open(mg)) {
            try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults().withBatchSize(batch))) {
                for (int l = 0; l < t.definitions().locations().size(); l++) {
                    w.append(l, t.readLocation(l));
                }
                w.finish(t.definitions());
            }
            TraceDefinitions d = t.definitions();
            long from = tick(d, 0.285);
            long to = tick(d, 0.29);
            Otf2WindowExport.Summary exact = Otf2WindowExport.write(t, from, to, null, tmp.resolve("exact"));
            try (StoreReader s = StoreReader.open(store)) {
                assertTrue(s.seeksWithoutScanning());
                AtomicLong delivered = new AtomicLong();
                Otf2WindowExport.Summary seek = Otf2WindowExport.write(new SeekOnly(s, delivered), from, to, null,
                        tmp.resolve("seek"));
                assertTrue(seek.seek());
                // two passes over the window (and a first batch per location for the first event), each reading at
                // most one batch before and after it per location
                long bound = 2 * (exact.eventsInWindow() + 2L * batch * d.locations().size())
                        + (long) batch * d.locations().size();
                assertTrue(delivered.get() <= bound, delivered + " events read for a window of "
                        + exact.eventsInWindow() + " (bound " + bound + ")");
                assertEquals(exact.eventsInWindow(), seek.eventsInWindow());
                assertEquals(java.util.Arrays.toString(exact.writtenByLocation()),
                        java.util.Arrays.toString(seek.writtenByLocation()));
                assertEquals(exact.messagesKept(), seek.messagesKept());
                assertEquals(exact.collectivesKept(), seek.collectivesKept());
                checkReadBack(tmp.resolve("seek"), seek);
            }
        }
    }

    @Test
    void hybridWindowCutsParallelRegionsForksAndLocksConsistently() throws Exception {
        Path h = shared("hybrid/omp-kernels-2x4");
        Path out = tmp.resolve("hybrid");
        try (TraceSource t = Traces.open(h)) {
            TraceDefinitions d = t.definitions();
            Otf2WindowExport.Summary s = Otf2WindowExport.write(t, tick(d, 1.0), tick(d, 2.0), null, out);
            assertTrue(s.forksAdded() > 0, "the window starts inside parallel regions");
            checkAgainstOtf2Print(h.resolve("traces.otf2"), out.resolve("traces.otf2"), s, d, null);
            checkReadBack(out, s);
            List<Rec> win = print(out.resolve("traces.otf2"));
            for (Location l : d.locations()) {
                Map<String, Long> c = count(win, l.id());
                String at = "location " + l.id();
                assertEquals(c.getOrDefault("THREAD_FORK", 0L), c.getOrDefault("THREAD_JOIN", 0L), at);
                assertEquals(c.getOrDefault("THREAD_TEAM_BEGIN", 0L), c.getOrDefault("THREAD_TEAM_END", 0L), at);
                assertEquals(c.getOrDefault("THREAD_ACQUIRE_LOCK", 0L), c.getOrDefault("THREAD_RELEASE_LOCK", 0L), at);
            }
        }
    }
}
