package dev.straggler.trace.store;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.PlausibleTrace;
import dev.straggler.trace.text.TextTraceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link StoreReader#openCallStack}: the store decodes only the time, kind, ref and aux columns for the replays
 * that rebuild call stacks, and a checked trace falls back to reading everything where the skipped columns decided
 * what a lenient read dropped.
 */
class CallStackReadTest {
    @TempDir
    Path tmp;

    private static EventBatch read(LocationReader r) throws IOException {
        EventBatch all = new EventBatch(1024);
        EventBatch part = new EventBatch(1024);
        try (r) {
            while (r.next(part)) {
                all.addAll(part, 0, part.size);
            }
        }
        return all;
    }

    @Test
    void callStackReadGivesEachEventsTimeKindRefAndAuxAndZeroMessageColumns() throws Exception {
        MemoryTrace t = StoreRoundTripTest.randomTrace(2, 5_003, 7);
        for (StoreOptions o : new StoreOptions[]{StoreOptions.defaults().withBatchSize(1000),
                StoreOptions.uncompressed().withBatchSize(1000)}) {
            // closing the reader checks that every Arrow buffer the call-stack decoding took was given back
            try (StoreReader r = StoreReader.open(StoreRoundTripTest.write(t, tmp.resolve(o.compression().name()), o))) {
                for (int l = 0; l < 2; l++) {
                    EventBatch expected = t.readLocation(l);
                    EventBatch got = read(r.openCallStack(l));
                    assertEquals(expected.size, got.size, o + " location " + l);
                    for (int i = 0; i < got.size; i++) {
                        String at = o.compression() + " location " + l + " event " + i;
                        assertEquals(expected.time[i], got.time[i], at);
                        assertEquals(expected.kind[i], got.kind[i], at);
                        assertEquals(expected.ref[i], got.ref[i], at);
                        assertEquals(expected.aux[i], got.aux[i], at);
                        assertEquals(0, got.comm[i], at);
                        assertEquals(0, got.tag[i], at);
                        assertEquals(0L, got.bytes[i], at);
                    }
                }
            }
        }
    }

    private static final String NEGATIVE_SEND = """
            straggler-text 1
            clock resolution=1000000 offset=100 length=1000
            region 0 main
            location 0 rank=0
            comm 0 MPI_COMM_WORLD members=0
            0 100 ENTER main
            0 500 MPI_SEND to=0 comm=0 tag=1 bytes=-8192
            0 600 LEAVE main
            """;

    @Test
    void aCheckedStoreReadsCallStacksWithoutTheMessageColumns() throws Exception {
        MemoryTrace t = TextTraceReader.read(new StringReader(NEGATIVE_SEND.replace("bytes=-8192", "bytes=8192")),
                "t.txt");
        try (StoreReader r = StoreReader.open(StoreRoundTripTest.write(t, tmp.resolve("s"), StoreOptions.defaults()))) {
            PlausibleTrace p = PlausibleTrace.wrap(r, false);
            EventBatch got = read(p.openCallStack(0));
            assertEquals(3, got.size);
            assertEquals(0L, got.bytes[1], "the send's length is not decoded");
        }
    }

    /**
     * A lenient read drops a send for its negative length, a column the call-stack read does not decode: the second
     * read of the location must drop it too, or the positions of its later events shift.
     */
    @Test
    void afterALenientDropTheCallStackReadDropsTheSameRecord() throws Exception {
        MemoryTrace t = TextTraceReader.read(new StringReader(NEGATIVE_SEND), "t.txt");
        try (StoreReader r = StoreReader.open(StoreRoundTripTest.write(t, tmp.resolve("s"), StoreOptions.defaults()))) {
            PlausibleTrace p = PlausibleTrace.wrap(r, true);
            EventBatch first = read(p.openLocation(0));
            assertEquals(2, first.size);
            assertEquals(1, p.droppedCount());
            EventBatch second = read(p.openCallStack(0));
            assertEquals(2, second.size);
            assertEquals(600, second.time[1]);
            assertEquals(1, p.droppedCount(), "one record, dropped on both reads");
        }
    }
}
