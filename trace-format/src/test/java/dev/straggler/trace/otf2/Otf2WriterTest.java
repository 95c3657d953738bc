package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Archives written by {@link Otf2Writer} must be read by the OTF2 C library (otf2-print) and its Python reader
 * (python3-otf2) exactly as Straggler reads them, in both byte orders, and must give back what was written.
 */
class Otf2WriterTest {
    @TempDir
    Path tmp;

    /** Copies an archive through the writer: every location's events, then the definitions. */
    private Path rewrite(String fixture, ByteOrder order) throws IOException {
        Path out = tmp.resolve(fixture + "-" + order).resolve("traces.otf2");
        Otf2WriterOptions o = Otf2WriterOptions.defaults().withByteOrder(order)
                .withChunkSizeEvents(Otf2WriterOptions.MIN_CHUNK);
        try (Otf2Archive in = Otf2Archive.open(Otf2Fixtures.anchor(fixture)); Otf2Writer w = new Otf2Writer(out, o)) {
            EventBatch b = new EventBatch();
            for (int l = 0; l < in.definitions().locations().size(); l++) {
                try (LocationReader r = in.openLocation(l)) {
                    while (r.next(b)) {
                        w.append(l, b);
                    }
                }
            }
            w.finish(in.definitions());
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({"records, LITTLE_ENDIAN", "records, BIG_ENDIAN", "mapped, BIG_ENDIAN", "nompi, LITTLE_ENDIAN"})
    void rewrittenArchiveGivesBackTheSameTrace(String fixture, String order) throws IOException {
        Path out = rewrite(fixture, order.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        try (Otf2Archive original = Otf2Archive.open(Otf2Fixtures.anchor(fixture)); Otf2Archive copy = Otf2Archive.open(out)) {
            assertEquals(order, copy.anchor().byteOrder().toString());
            TraceDefinitions a = original.definitions();
            TraceDefinitions b = copy.definitions();
            // the regions, then the program region PROGRAM_BEGIN names (the fixtures, written by python3-otf2, lack it)
            List<dev.straggler.trace.Region> regions = new ArrayList<>(a.regions());
            regions.add(new dev.straggler.trace.Region(a.regions().size(), a.experiment().application(),
                    a.experiment().application(), "", 0, 0, dev.straggler.trace.Paradigm.MEASUREMENT_SYSTEM,
                    dev.straggler.trace.RegionRole.ARTIFICIAL));
            assertEquals(regions, b.regions());
            assertEquals(a.communicators().stream().map(c -> c.name() + java.util.Arrays.toString(c.members())).toList(),
                    b.communicators().stream().map(c -> c.name() + java.util.Arrays.toString(c.members())).toList());
            assertEquals(a.locations(), b.locations());
            assertEquals(a.clock(), b.clock());
            assertEquals(a.experiment(), b.experiment());
            assertEquals(a.processes(), b.processes());
            for (int l = 0; l < a.locations().size(); l++) {
                assertTrue(original.readLocation(l).sameEvents(copy.readLocation(l)), "location " + l);
            }
        }
    }

    @Test
    void programNameSurvivesEvenWhenEmptyOrSharedWithAnotherString() throws IOException {
        for (String app : new String[] {"", "MPI_Send"}) {
            dev.straggler.trace.TraceDefinitions.Builder d = dev.straggler.trace.TraceDefinitions.builder();
            d.addRegion("MPI_Send", "MPI", 0, 0, dev.straggler.trace.Paradigm.MPI,
                    dev.straggler.trace.RegionRole.POINT2POINT);
            d.location(dev.straggler.trace.Location.masterThread(0, 0));
            d.experiment(dev.straggler.trace.Experiment.of(app, 1));
            Path out = tmp.resolve("app" + app.length()).resolve("traces.otf2");
            try (Otf2Writer w = new Otf2Writer(out)) {
                EventBatch b = new EventBatch();
                b.add(5, EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
                b.enter(6, 0);
                b.leave(7, 0);
                w.append(0, b);
                w.finish(d.build());
            }
            StringBuilder printed = new StringBuilder();
            Assumptions.assumeTrue(Otf2Fixtures.run(printed, "otf2-print", out.toString()) == 0, "otf2-print");
            assertTrue(printed.toString().contains("Name: \"" + app + "\" <1>"), printed.toString());
        }
    }

    /**
     * PROGRAM_BEGIN names a region defined as Score-P 8.4 defines the program's (shared hybrid traces: REGION 2
     * "omp_kernels", canonical "/opt/app/apps/omp-kernels/omp_kernels"): artificial, of the measurement system, the
     * file name as name and the full name as canonical name, which is how Scalasca's reader finds it.
     */
    @Test
    void programBeginNamesAProgramRegionDefinedAsScorePDefinesIt() throws IOException {
        dev.straggler.trace.TraceDefinitions.Builder d = dev.straggler.trace.TraceDefinitions.builder();
        d.addRegion("main", "solver.c", 1, 9, dev.straggler.trace.Paradigm.USER,
                dev.straggler.trace.RegionRole.FUNCTION);
        d.location(dev.straggler.trace.Location.masterThread(0, 0));
        d.experiment(dev.straggler.trace.Experiment.of("/opt/x/solver", 1));
        Path out = tmp.resolve("program").resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(out)) {
            EventBatch b = new EventBatch();
            b.add(5, EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
            b.enter(6, 0);
            b.leave(7, 0);
            b.add(8, EventKind.PROGRAM_END_CODE, 0, 0, 0, 0, 0);
            w.append(0, b);
            w.finish(d.build());
        }
        StringBuilder printed = new StringBuilder();
        Assumptions.assumeTrue(Otf2Fixtures.run(printed, "otf2-print", "-G", out.toString()) == 0, "otf2-print");
        List<String> regions = printed.toString().lines().filter(l -> l.startsWith("REGION "))
                .map(l -> l.replaceAll(" <\\d+>", "").replaceAll("\\s+", " ")).toList();
        assertEquals(List.of("REGION 0 Name: \"main\" (Aka. \"main\"), Descr.: \"\", Role: FUNCTION, Paradigm: USER, "
                        + "Flags: NONE, File: \"solver.c\", Begin: 1, End: 9",
                "REGION 1 Name: \"solver\" (Aka. \"/opt/x/solver\"), Descr.: \"\", Role: ARTIFICIAL, "
                        + "Paradigm: MEASUREMENT_SYSTEM, Flags: NONE, File: UNDEFINED, Begin: 0, End: 0"), regions);
        printed.setLength(0);
        assertEquals(0, Otf2Fixtures.run(printed, "otf2-print", out.toString()));
        assertTrue(printed.toString().contains("Name: \"/opt/x/solver\" <1>, 0 Arguments"), printed.toString());
    }

    /**
     * A Score-P hybrid archive written again keeps its program region and its thread teams: no second program
     * region, PROGRAM_BEGIN still naming the program's full name, each team defined once with its communicator id
     * and every team record where it was.
     */
    @Test
    void rewrittenScorePHybridArchiveKeepsItsProgramRegionAndThreadTeams() throws IOException {
        Path real = SharedTraces.dir("hybrid/omp-kernels-2x4").resolve("traces.otf2");
        Path out = tmp.resolve("omp-kernels").resolve("traces.otf2");
        try (Otf2Archive in = Otf2Archive.open(real); Otf2Writer w = new Otf2Writer(out)) {
            EventBatch b = new EventBatch();
            for (int l = 0; l < in.definitions().locations().size(); l++) {
                try (LocationReader r = in.openLocation(l)) {
                    while (r.next(b)) {
                        w.append(l, b);
                    }
                }
            }
            w.finish(in.definitions());
        }
        try (Otf2Archive a = Otf2Archive.open(real); Otf2Archive b = Otf2Archive.open(out)) {
            assertEquals(a.definitions().regions(), b.definitions().regions());
            assertEquals(a.definitions().communicators().stream()
                            .map(c -> c.name() + java.util.Arrays.toString(c.members())).toList(),
                    b.definitions().communicators().stream()
                            .map(c -> c.name() + java.util.Arrays.toString(c.members())).toList());
            for (int l = 0; l < a.definitions().locations().size(); l++) {
                long id = a.locationId(l);
                Otf2Print.Printed x = Otf2Print.location(real, id);
                Otf2Print.Printed y = Otf2Print.location(out, id);
                for (String k : List.of("THREAD_TEAM_BEGIN", "THREAD_TEAM_END", "THREAD_FORK", "ENTER")) {
                    assertEquals(x.counts().get(k), y.counts().get(k), k + " on location " + id);
                }
            }
        }
        StringBuilder printed = new StringBuilder();
        assertEquals(0, Otf2Fixtures.run(printed, "otf2-print", "-L", "0", out.toString()));
        assertTrue(printed.toString().contains("Name: \"/opt/app/apps/omp-kernels/omp_kernels\" <1>"),
                printed.toString());
        assertTrue(printed.toString().lines().filter(l -> l.startsWith("THREAD_TEAM_BEGIN"))
                .allMatch(l -> l.endsWith("Thread Team: \"\" <4>")), "rank 0's team keeps its communicator id 4");
        assertTrue(printed.toString().lines().noneMatch(l -> l.contains("out of order")), printed.toString());
    }

    /**
     * Score-P's "Process x Threads CPU Locations" communicator (every CPU thread of every process) is written back
     * as Score-P wrote it: a COMM_GROUP of paradigm MEASUREMENT_SYSTEM over that paradigm's COMM_LOCATIONS group,
     * not an MPI group listing each rank's master thread once per thread, which Scalasca 2.6's reader refuses.
     * otf2-print prints the same group and communicator lines as for the original (string ids aside), python3-otf2
     * gives the same group, and Straggler reads back the same communicators.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"omp-kernels-2x4", "bt-mz.S-2x2"})
    void rewrittenScorePHybridArchiveKeepsTheProcessByThreadsCommunicatorOnTheMeasurementSystem(String trace)
            throws IOException {
        Path real = SharedTraces.dir("hybrid/" + trace).resolve("traces.otf2");
        Path out = tmp.resolve(trace).resolve("traces.otf2");
        rewriteArchive(real, out);
        List<String> want = processByThreads(real);
        assertEquals(3, want.size(), want.toString());
        assertTrue(want.get(0).contains("Type: COMM_LOCATIONS, Paradigm: MEASUREMENT_SYSTEM"), want.toString());
        assertEquals(want, processByThreads(out));

        String script = "import sys, otf2\n"
                + "with otf2.reader.open(sys.argv[1]) as t:\n"
                + "    for c in t.definitions.comms:\n"
                + "        g = c.group\n"
                + "        print(c.name, g.name, g.group_type, g.paradigm, [m._ref for m in g.members])\n";
        StringBuilder a = new StringBuilder();
        int rc = Otf2Fixtures.run(a, "/usr/bin/python3", "-c", script, real.toString());
        Assumptions.assumeTrue(rc == 0 || !a.toString().contains("No module named"), "python3-otf2 missing");
        assertEquals(0, rc, a.toString());
        StringBuilder b = new StringBuilder();
        assertEquals(0, Otf2Fixtures.run(b, "/usr/bin/python3", "-c", script, out.toString()), b.toString());
        String first = a.toString().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("Process x Threads CPU Locations PROCESSXTHREADS_GROUP GroupType.COMM_GROUP "
                + "Paradigm.MEASUREMENT_SYSTEM"), first);
        assertEquals(first, b.toString().lines().findFirst().orElseThrow());

        try (Otf2Archive x = Otf2Archive.open(real); Otf2Archive y = Otf2Archive.open(out)) {
            assertEquals(x.definitions().communicators(), y.definitions().communicators());
        }
    }

    /** Copies a real archive through the writer. */
    private static void rewriteArchive(Path in, Path out) throws IOException {
        try (Otf2Archive a = Otf2Archive.open(in); Otf2Writer w = new Otf2Writer(out)) {
            EventBatch b = new EventBatch();
            for (int l = 0; l < a.definitions().locations().size(); l++) {
                try (LocationReader r = a.openLocation(l)) {
                    while (r.next(b)) {
                        w.append(l, b);
                    }
                }
            }
            w.finish(a.definitions());
        }
    }

    /**
     * otf2-print's lines for the communicator named "Process x Threads CPU Locations", its group and the
     * COMM_LOCATIONS group of that group's paradigm, without the ids of the strings they name.
     */
    private static List<String> processByThreads(Path anchor) throws IOException {
        StringBuilder text = new StringBuilder();
        assertEquals(0, Otf2Fixtures.run(text, "otf2-print", "-G", anchor.toString()), text.toString());
        List<String> lines = text.toString().lines().map(l -> l.replaceAll("\\s+", " ").strip()).toList();
        String comm = lines.stream().filter(l -> l.startsWith("COMM ")
                && l.contains("Name: \"Process x Threads CPU Locations\"")).findFirst().orElseThrow();
        String group = comm.replaceAll(".*Group: \"[^\"]*\" <(\\d+)>.*", "$1");
        String groupLine = lines.stream().filter(l -> l.startsWith("GROUP " + group + " ")).findFirst().orElseThrow();
        String paradigm = groupLine.replaceAll(".*Paradigm: ([^,]*),.*", "$1");
        String locations = lines.stream().filter(l -> l.startsWith("GROUP ") && l.contains("Type: COMM_LOCATIONS")
                && l.contains("Paradigm: " + paradigm + ",")).findFirst().orElseThrow();
        return java.util.stream.Stream.of(locations, groupLine, comm)
                .map(l -> l.replaceAll("Name: (\"[^\"]*\") <\\d+>", "Name: $1")).toList();
    }

    @Test
    void severalChunksArePaddedToTheChunkSize() throws IOException {
        Path out = rewrite("records", ByteOrder.LITTLE_ENDIAN);
        long size = Files.size(out.resolveSibling("traces").resolve("0.evt"));
        assertTrue(size > 3 * Otf2WriterOptions.MIN_CHUNK, "rank 0 spans several chunks: " + size);
    }

    @ParameterizedTest
    @CsvSource({"records, LITTLE_ENDIAN", "records, BIG_ENDIAN", "mapped, BIG_ENDIAN"})
    void otf2PrintReadsTheWrittenArchiveEventByEvent(String fixture, String order) throws IOException {
        Path out = rewrite(fixture, order.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        long n = EventComparison.assertSameAsOtf2Print(out);
        try (Otf2Archive a = Otf2Archive.open(Otf2Fixtures.anchor(fixture))) {
            assertEquals(a.scanStatistics().modelEvents(), n, "every delivered event was written");
        }
    }

    @ParameterizedTest
    @CsvSource({"mapped, LITTLE_ENDIAN", "mapped, BIG_ENDIAN", "records, BIG_ENDIAN"})
    void pythonOtf2ReadsTheWrittenArchiveEventByEvent(String fixture, String order) throws IOException {
        Path out = rewrite(fixture, order.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        StringBuilder text = new StringBuilder();
        int rc = Otf2Fixtures.run(text, "/usr/bin/python3", "src/test/otf2/read_events.py", out.toString());
        Assumptions.assumeTrue(rc == 0 || !text.toString().contains("No module named"), "python3-otf2 missing");
        assertEquals(0, rc, text.toString());
        List<String> python = text.toString().lines().toList();
        assertEquals(python, pythonStyle(out));
    }

    /** Events as read_events.py prints them: "location Class time field...". */
    private static List<String> pythonStyle(Path anchor) throws IOException {
        List<String> out = new ArrayList<>();
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            List<Integer> order = new ArrayList<>();
            for (int l = 0; l < a.definitions().locations().size(); l++) {
                order.add(l);
            }
            order.sort((x, y) -> Long.compareUnsigned(a.locationId(x), a.locationId(y)));
            for (int l : order) {
                EventBatch b = a.readLocation(l);
                for (int i = 0; i < b.size; i++) {
                    out.add(Long.toUnsignedString(a.locationId(l)) + " " + pythonLine(b, i, a.mapping()));
                }
            }
        }
        return out;
    }

    private static String pythonLine(EventBatch b, int i, ModelMapping m) {
        EventKind k = b.kindAt(i);
        String t = " " + b.time[i];
        String comm = b.comm[i] >= 0 && b.comm[i] < m.commIds.length ? " " + m.commIds[b.comm[i]] : "";
        return switch (k) {
            case ENTER -> "Enter" + t + " " + m.regionIds[b.ref[i]];
            case LEAVE -> "Leave" + t + " " + m.regionIds[b.ref[i]];
            case MPI_SEND, MPI_RECV, MPI_ISEND, MPI_IRECV -> {
                String name = switch (k) {
                    case MPI_SEND -> "MpiSend";
                    case MPI_RECV -> "MpiRecv";
                    case MPI_ISEND -> "MpiIsend";
                    default -> "MpiIrecv";
                };
                String s = name + t + " " + Integer.toUnsignedString(b.ref[i]) + comm + " "
                        + Integer.toUnsignedString(b.tag[i]) + " " + b.bytes[i];
                yield k == EventKind.MPI_ISEND || k == EventKind.MPI_IRECV ? s + " " + b.aux[i] : s;
            }
            case MPI_ISEND_COMPLETE -> "MpiIsendComplete" + t + " " + b.aux[i];
            case MPI_IRECV_REQUEST -> "MpiIrecvRequest" + t + " " + b.aux[i];
            case MPI_REQUEST_TEST -> "MpiRequestTest" + t + " " + b.aux[i];
            case MPI_REQUEST_CANCELLED -> "MpiRequestCancelled" + t + " " + b.aux[i];
            case MPI_COLLECTIVE_BEGIN -> "MpiCollectiveBegin" + t;
            case MPI_COLLECTIVE_END -> "MpiCollectiveEnd" + t + " " + b.ref[i] + comm + " "
                    + Integer.toUnsignedString(b.tag[i]) + " " + b.bytes[i] + " " + b.aux[i];
            case MEASUREMENT_ON_OFF -> "MeasurementOnOff" + t + " " + b.ref[i];
            case BUFFER_FLUSH -> "BufferFlush" + t + " " + b.aux[i];
            case PROGRAM_BEGIN -> "ProgramBegin" + t;
            case PROGRAM_END -> "ProgramEnd" + t + " " + b.bytes[i];
            case THREAD_FORK -> "ThreadFork" + t + " " + b.comm[i] + " " + Integer.toUnsignedString(b.ref[i]);
            case THREAD_JOIN -> "ThreadJoin" + t + " " + b.comm[i];
            case THREAD_ACQUIRE_LOCK -> "ThreadAcquireLock" + t + " " + b.comm[i] + " "
                    + Integer.toUnsignedString(b.ref[i]) + " " + b.aux[i];
            case THREAD_RELEASE_LOCK -> "ThreadReleaseLock" + t + " " + b.comm[i] + " "
                    + Integer.toUnsignedString(b.ref[i]) + " " + b.aux[i];
            case THREAD_BEGIN -> "ThreadBegin" + t + (comm.isEmpty() ? " 4294967295" : comm) + " " + b.aux[i];
        };
    }
}
