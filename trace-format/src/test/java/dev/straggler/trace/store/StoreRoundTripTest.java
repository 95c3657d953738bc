package dev.straggler.trace.store;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.SampleTraces;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.text.TextTraceReader;
import dev.straggler.trace.text.TextTraceWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StoreRoundTripTest {
    @TempDir
    Path tmp;

    /** Writes every location of {@code t} into a new store at {@code dir}. */
    static Path write(TraceSource t, Path dir, StoreOptions o) throws IOException {
        try (StoreWriter w = StoreWriter.create(dir, o)) {
            for (int l = 0; l < t.definitions().locations().size(); l++) {
                w.append(l, t.readLocation(l));
            }
            w.finish(t.definitions());
        }
        return dir;
    }

    private static String text(TraceSource t) throws IOException {
        StringWriter s = new StringWriter();
        TextTraceWriter.write(t, s);
        return s.toString();
    }

    @Test
    void textToStoreToTextIsLossless() throws Exception {
        MemoryTrace sample = TextTraceReader.read(SampleTraces.lateSenderText());
        try (StoreReader r = StoreReader.open(write(sample, tmp.resolve("s"), StoreOptions.defaults()))) {
            assertEquals(text(sample), text(r));
        }
    }

    @Test
    void everyKindAndDefinitionSurvivesTheStore() throws Exception {
        MemoryTrace t = SampleTraces.everyKind();
        for (StoreOptions o : new StoreOptions[]{StoreOptions.defaults(), StoreOptions.uncompressed()}) {
            Path dir = tmp.resolve(o.compression().name());
            try (StoreReader r = StoreReader.open(write(t, dir, o))) {
                assertEquals(t.definitions(), r.definitions());
                for (int l = 0; l < 2; l++) {
                    assertTrue(t.readLocation(l).sameEvents(r.readLocation(l)), o + " location " + l);
                }
            }
        }
    }

    @Test
    void eventsSpanningManyBatchesComeBackInOrderWithIndices() throws Exception {
        MemoryTrace big = randomTrace(3, 10_007, 1);
        Path dir = write(big, tmp.resolve("b"), StoreOptions.defaults().withBatchSize(1000));
        try (StoreReader r = StoreReader.open(dir)) {
            assertEquals(3 * 10_007L, r.eventCount());
            assertEquals(11, r.manifest().locations().get(0).batches());
            EventBatch b = new EventBatch(16);
            long expectIndex = 0;
            try (var lr = r.openLocation(1)) {
                while (lr.next(b)) {
                    assertEquals(expectIndex, b.firstIndex);
                    expectIndex += b.size;
                }
            }
            assertEquals(10_007, expectIndex);
            for (int l = 0; l < 3; l++) {
                assertTrue(big.readLocation(l).sameEvents(r.readLocation(l)));
            }
        }
    }

    @Test
    void manifestCountsEventsByKind() throws Exception {
        MemoryTrace sample = TextTraceReader.read(SampleTraces.lateSenderText());
        try (StoreReader r = StoreReader.open(write(sample, tmp.resolve("k"), StoreOptions.defaults()))) {
            var rank0 = r.manifest().locations().get(0).eventsByKind();
            assertEquals(7L, rank0.get("ENTER"));
            assertEquals(1L, rank0.get("MPI_SEND"));
            assertEquals(17L, r.definitions().location(0).events());
        }
    }

    @Test
    void truncatedEventFileIsDetectedAtOpen() throws Exception {
        Path dir = write(randomTrace(2, 5000, 2), tmp.resolve("t"), StoreOptions.defaults());
        Path f = dir.resolve(StoreLayout.eventFileName(1));
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(raf.length() - 100);
        }
        var e = assertThrows(TraceFormatException.class, () -> StoreReader.open(dir));
        assertTrue(e.getMessage().contains("loc-000001.arrow") && e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void missingManifestMeansIncompleteStore() throws Exception {
        Path dir = write(randomTrace(1, 10, 3), tmp.resolve("m"), StoreOptions.defaults());
        Files.delete(dir.resolve(StoreLayout.MANIFEST));
        var e = assertThrows(TraceFormatException.class, () -> StoreReader.open(dir));
        assertTrue(e.getMessage().contains("manifest.json: missing"), e.getMessage());
    }

    @Test
    void missingEventFileIsNamed() throws Exception {
        Path dir = write(randomTrace(2, 10, 4), tmp.resolve("f"), StoreOptions.defaults());
        Files.delete(dir.resolve(StoreLayout.eventFileName(0)));
        var e = assertThrows(TraceFormatException.class, () -> StoreReader.open(dir));
        assertTrue(e.getMessage().contains("loc-000000.arrow") && e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void flippedByteIsCaughtByVerify() throws Exception {
        Path dir = write(randomTrace(2, 3000, 5), tmp.resolve("c"), StoreOptions.uncompressed());
        Path f = dir.resolve(StoreLayout.eventFileName(0));
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(raf.length() / 2);
            int v = raf.read();
            raf.seek(raf.length() / 2);
            raf.write(v ^ 0x5a);
        }
        try (StoreReader r = StoreReader.open(dir)) {
            var problems = r.verify();
            assertEquals(1, problems.size());
            assertTrue(problems.get(0).contains("location 0 is corrupted"), problems.get(0));
        }
    }

    @Test
    void refusesToWriteIntoANonEmptyDirectory() throws Exception {
        Files.writeString(tmp.resolve("keep.txt"), "user data");
        var e = assertThrows(IOException.class, () -> StoreWriter.create(tmp, StoreOptions.defaults()));
        assertTrue(e.getMessage().contains("not empty"));
        assertTrue(Files.exists(tmp.resolve("keep.txt")));
    }

    @Test
    void writingEventsForAnUndefinedLocationFails() throws Exception {
        MemoryTrace t = randomTrace(2, 10, 6);
        try (StoreWriter w = StoreWriter.create(tmp.resolve("u"), StoreOptions.defaults())) {
            w.append(0, t.readLocation(0));
            w.append(2, t.readLocation(1));
            TraceDefinitions defs = t.definitions();
            assertThrows(IllegalArgumentException.class, () -> w.finish(defs));
        }
        assertTrue(!Files.exists(tmp.resolve("u").resolve(StoreLayout.MANIFEST)));
    }

    /** Random but valid-looking events (monotonic time) with all columns exercised, including large ticks. */
    static MemoryTrace randomTrace(int locations, int events, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        var b = TraceDefinitions.builder();
        b.addRegion("f", "", 0, 0, dev.straggler.trace.Paradigm.USER, dev.straggler.trace.RegionRole.FUNCTION);
        b.communicator(dev.straggler.trace.Communicator.world(0, locations));
        MemoryTrace t = new MemoryTrace("random");
        for (int l = 0; l < locations; l++) {
            b.location(dev.straggler.trace.Location.masterThread(l, l));
            EventBatch e = new EventBatch(events);
            long time = 9_600_000_000_000_000L + rnd.nextLong(1000); // beyond 2^53: must stay exact
            for (int i = 0; i < events; i++) {
                time += rnd.nextInt(5000);
                e.add(time, (byte) rnd.nextInt(16), rnd.nextInt(), rnd.nextInt(), rnd.nextInt(), rnd.nextLong(), rnd.nextLong());
            }
            t.append(l, e);
        }
        t.finish(b.build());
        return t;
    }
}
