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
            assertEquals(a.regions(), b.regions());
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
        };
    }
}
