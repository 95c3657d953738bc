package dev.straggler.trace.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.SampleTraces;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeking by time: what a reader opened at a tick delivers must equal a full read filtered by time (every column
 * and the events' indices), and its open regions must equal a plain ENTER/LEAVE stack over the events it skipped.
 */
class SeekByTimeTest {
    @TempDir
    Path tmp;

    /** Nested regions with runs of equal timestamps, messages in between, one LEAVE without ENTER. */
    static MemoryTrace nestedTrace(int locations, int events, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        var b = TraceDefinitions.builder();
        for (int r = 0; r < 5; r++) {
            b.addRegion("r" + r, "", 0, 0, dev.straggler.trace.Paradigm.USER, dev.straggler.trace.RegionRole.FUNCTION);
        }
        b.communicator(dev.straggler.trace.Communicator.world(0, locations));
        MemoryTrace t = new MemoryTrace("nested");
        for (int l = 0; l < locations; l++) {
            b.location(dev.straggler.trace.Location.masterThread(l, l));
            EventBatch e = new EventBatch(events);
            long time = 9_600_000_000_000_000L;
            int depth = 0;
            e.leave(time, 3); // a LEAVE on an empty stack: ignored by the stack rule
            for (int i = 1; i < events; i++) {
                time += rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1, 50); // runs of equal timestamps
                int what = rnd.nextInt(10);
                if (what < 4 && depth < 40) {
                    e.enter(time, rnd.nextInt(5));
                    depth++;
                } else if (what < 8 && depth > 0) {
                    e.leave(time, 0);
                    depth--;
                } else {
                    e.send(time, rnd.nextInt(locations), 0, rnd.nextInt(3), rnd.nextLong(1 << 20));
                }
            }
            t.append(l, e);
        }
        t.finish(b.build());
        return t;
    }

    /** Checks a seek to {@code tick} against the full read {@code all} of the same location. */
    private static void checkSeek(TraceSource s, int loc, EventBatch all, long tick) throws IOException {
        int first = 0;
        while (first < all.size && all.time[first] < tick) {
            first++;
        }
        List<Integer> stack = new ArrayList<>();
        for (int i = 0; i < first; i++) {
            if (all.kind[i] == EventKind.ENTER_CODE) {
                stack.add(all.ref[i]);
            } else if (all.kind[i] == EventKind.LEAVE_CODE && !stack.isEmpty()) {
                stack.remove(stack.size() - 1);
            }
        }
        EventBatch expected = new EventBatch(16);
        expected.addAll(all, first, all.size);
        EventBatch got = new EventBatch(16);
        EventBatch part = new EventBatch(16);
        long firstIndex = -1;
        int[] open;
        try (LocationReader r = s.openLocation(loc, tick)) {
            open = r.openRegions();
            while (r.next(part)) {
                assertEquals(first + got.size, part.firstIndex, "firstIndex after seek to " + tick);
                if (firstIndex < 0) {
                    firstIndex = part.firstIndex;
                }
                got.addAll(part, 0, part.size);
            }
        }
        String at = "location " + loc + ", seek to " + tick + " (" + all.size + " events, first delivered " + first + ")";
        assertTrue(expected.sameEvents(got), at + ": events differ from the full read filtered by time");
        assertArrayEquals(stack.stream().mapToInt(Integer::intValue).toArray(), open, at + ": open regions");
    }

    /** Ticks to try: before, at and after each event's time, near batch boundaries, and random ones. */
    private static long[] ticks(EventBatch all, int batchSize, long seed) {
        List<Long> t = new ArrayList<>();
        if (all.size == 0) {
            return new long[]{Long.MIN_VALUE, 0, Long.MAX_VALUE};
        }
        t.add(Long.MIN_VALUE);
        t.add(all.time[0] - 1);
        t.add(all.time[0]);
        t.add(all.time[all.size - 1]);
        t.add(all.time[all.size - 1] + 1);
        t.add(Long.MAX_VALUE);
        for (int i = 0; i < all.size; i += batchSize) {
            for (int j = Math.max(0, i - 1); j <= Math.min(all.size - 1, i + 1); j++) {
                t.add(all.time[j] - 1);
                t.add(all.time[j]);
                t.add(all.time[j] + 1);
            }
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int k = 0; k < 200; k++) {
            t.add(all.time[0] + rnd.nextLong(all.time[all.size - 1] - all.time[0] + 2) - 1);
        }
        return t.stream().mapToLong(Long::longValue).distinct().toArray();
    }

    private static void checkAllSeeks(TraceSource full, TraceSource s, int batchSize) throws IOException {
        for (int l = 0; l < full.definitions().locations().size(); l++) {
            EventBatch all = full.readLocation(l);
            for (long tick : ticks(all, batchSize, l)) {
                checkSeek(s, l, all, tick);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 64, 65536})
    void storeSeekEqualsFilteredFullReadForEveryBatchSize(int batchSize) throws Exception {
        MemoryTrace t = nestedTrace(2, batchSize < 10 ? 300 : 1500, batchSize);
        for (StoreOptions o : new StoreOptions[]{StoreOptions.defaults(), StoreOptions.uncompressed()}) {
            Path dir = StoreRoundTripTest.write(t, tmp.resolve(batchSize + o.compression().name()), o.withBatchSize(batchSize));
            try (StoreReader r = StoreReader.open(dir)) {
                assertTrue(r.seeksWithoutScanning());
                checkAllSeeks(t, r, batchSize);
            }
        }
    }

    @Test
    void defaultSeekOfAnySourceEqualsFilteredFullRead() throws Exception {
        MemoryTrace t = nestedTrace(2, 400, 11);
        checkAllSeeks(t, t, 50);
    }

    @Test
    void storeSeekOnTheSampleTrace() throws Exception {
        MemoryTrace sample = TextTraceReader.read(SampleTraces.lateSenderText());
        try (StoreReader r = StoreReader.open(StoreRoundTripTest.write(sample, tmp.resolve("s"), StoreOptions.defaults().withBatchSize(3)))) {
            checkAllSeeks(sample, r, 3);
        }
    }

    @Test
    void emptyLocationSeeksToNothing() throws Exception {
        MemoryTrace t = nestedTrace(1, 10, 3);
        var defs = t.definitions();
        MemoryTrace two = new MemoryTrace("two");
        two.append(0, t.readLocation(0));
        two.finish(defs.withLocations(List.of(defs.location(0), dev.straggler.trace.Location.masterThread(1, 1))));
        try (StoreReader r = StoreReader.open(StoreRoundTripTest.write(two, tmp.resolve("e"), StoreOptions.defaults()))) {
            checkAllSeeks(two, r, 4);
        }
    }

    @Test
    void storeOpenedWithPlausibilityChecksStillSeeksWithoutScanning() throws Exception {
        MemoryTrace sample = TextTraceReader.read(SampleTraces.lateSenderText());
        try (TraceSource r = Traces.open(StoreRoundTripTest.write(sample, tmp.resolve("p"), StoreOptions.defaults().withBatchSize(4)))) {
            assertTrue(r.seeksWithoutScanning());
            checkAllSeeks(sample, r, 4);
        }
    }

    /** A store written before the batch index existed: the manifest without {@code batchIndex}. */
    @Test
    void storeWithoutBatchIndexStillSeeksExactly() throws Exception {
        MemoryTrace t = nestedTrace(2, 700, 5);
        Path dir = StoreRoundTripTest.write(t, tmp.resolve("old"), StoreOptions.defaults().withBatchSize(16));
        Path m = dir.resolve(StoreLayout.MANIFEST);
        ObjectNode root = (ObjectNode) StoreJson.MAPPER.readTree(m.toFile());
        root.withArray("locations").forEach(f -> ((ObjectNode) f).remove("batchIndex"));
        StoreJson.MAPPER.writeValue(m.toFile(), root);
        try (StoreReader r = StoreReader.open(dir)) {
            assertTrue(r.manifest().locations().get(0).batchIndex() == null);
            assertTrue(!r.seeksWithoutScanning());
            checkAllSeeks(t, r, 16);
        }
    }

    @Test
    void seekRefusesACorruptedBatchWithoutReadingTheWholeFile() throws Exception {
        MemoryTrace t = nestedTrace(1, 3000, 9);
        Path dir = StoreRoundTripTest.write(t, tmp.resolve("c"), StoreOptions.uncompressed().withBatchSize(100));
        StoreManifest.LocationFile f;
        try (StoreReader r = StoreReader.open(dir)) {
            f = r.manifest().locations().get(0);
        }
        // flip a byte inside the body of the batch a late seek lands in; an early seek must still work
        long tick = f.batchIndex().get(25).firstTick();
        try (StoreReader r = StoreReader.open(dir);
             LocationReader lr = r.openLocation(0, tick)) {
            assertTrue(lr.next(new EventBatch()));
        }
        long at;
        try (StoreReader r = StoreReader.open(dir);
             var ch = java.nio.channels.FileChannel.open(dir.resolve(f.file()))) {
            var reader = new org.apache.arrow.vector.ipc.ArrowFileReader(ch, new org.apache.arrow.memory.RootAllocator());
            var block = reader.getRecordBlocks().get(25);
            at = block.getOffset() + block.getMetadataLength() + 8;
        }
        try (RandomAccessFile raf = new RandomAccessFile(dir.resolve(f.file()).toFile(), "rw")) {
            raf.seek(at);
            int v = raf.read();
            raf.seek(at);
            raf.write(v ^ 0x40);
        }
        try (StoreReader r = StoreReader.open(dir)) {
            try (LocationReader early = r.openLocation(0, f.batchIndex().get(2).firstTick())) {
                assertTrue(early.next(new EventBatch()));
            }
            var e = assertThrows(TraceFormatException.class, () -> r.openLocation(0, tick).close());
            assertTrue(e.getMessage().contains("record batch 25"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"real/npb-mg.S-4"})
    void storeSeekOnSharedTraces(String trace) throws Exception {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path src = Path.of(shared, "traces").resolve(trace);
        Assumptions.assumeTrue(Files.isDirectory(src), "shared trace folder " + src + " is absent");
        try (TraceSource otf2 = Traces.open(src)) {
            Path dir = StoreRoundTripTest.write(otf2, tmp.resolve("real"), StoreOptions.defaults().withBatchSize(1000));
            try (StoreReader r = StoreReader.open(dir)) {
                for (int l = 0; l < otf2.definitions().locations().size(); l++) {
                    EventBatch all = otf2.readLocation(l);
                    long[] ticks = ticks(all, 1000, l);
                    for (long tick : Arrays.copyOf(ticks, Math.min(ticks.length, 150))) {
                        checkSeek(r, l, all, tick);
                    }
                }
            }
        }
    }
}
