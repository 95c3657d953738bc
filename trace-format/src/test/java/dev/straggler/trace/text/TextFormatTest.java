package dev.straggler.trace.text;

import dev.straggler.trace.EventKind;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.SampleTraces;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextFormatTest {

    private static String toText(MemoryTrace t) throws Exception {
        StringWriter w = new StringWriter();
        TextTraceWriter.write(t, w);
        return w.toString();
    }

    @Test
    void everyEventKindSurvivesWriteThenRead() throws Exception {
        MemoryTrace original = SampleTraces.everyKind();
        MemoryTrace back = TextTraceReader.read(new StringReader(toText(original)), "mem");
        assertEquals(original.definitions(), back.definitions());
        for (int l = 0; l < 2; l++) {
            assertTrue(original.readLocation(l).sameEvents(back.readLocation(l)), "location " + l);
        }
    }

    @Test
    void writtenTextIsAFixedPointOfReadAndWrite() throws Exception {
        MemoryTrace sample = TextTraceReader.read(SampleTraces.lateSenderText());
        String once = toText(sample);
        String twice = toText(TextTraceReader.read(new StringReader(once), "once"));
        assertEquals(once, twice);
    }

    @Test
    void handWrittenSampleParsesWithItsDeclaredContent() throws Exception {
        MemoryTrace t = TextTraceReader.read(SampleTraces.lateSenderText());
        assertEquals(2, t.definitions().locations().size());
        assertEquals(1_000_000L, t.definitions().clock().ticksPerSecond());
        assertEquals("late-sender", t.definitions().experiment().application());
        var rank1 = t.readLocation(1);
        assertEquals(17, rank1.size);
        int recv = 6;
        assertEquals(EventKind.MPI_RECV, rank1.kindAt(recv));
        assertEquals(7200, rank1.time[recv]);
        assertEquals(0, rank1.ref[recv]);
        assertEquals(42, rank1.tag[recv]);
        assertEquals(4096, rank1.bytes[recv]);
    }

    @Test
    void shortKindNamesAreAccepted() throws Exception {
        String text = """
                straggler-text 1
                region 0 f
                location 0 rank=0
                comm 0 world members=0
                0 1 enter f
                0 2 send to=0 comm=0 tag=1 bytes=2
                0 3 collective_begin
                0 4 collective_end op=barrier comm=0
                0 5 leave f
                """;
        var e = TextTraceReader.read(new StringReader(text), "t").readLocation(0);
        assertEquals(EventKind.MPI_SEND, e.kindAt(1));
        assertEquals(-1, e.tag[3], "a collective without root= has root -1");
    }

    @Test
    void threadRecordsCarryParadigmTeamSizeLockAndOrderInTheirColumns() throws Exception {
        String text = """
                straggler-text 1
                region 0 f
                location 0 rank=0
                0 1 enter f
                0 2 thread_fork model=openmp threads=4
                0 3 thread_acquire_lock model=OPENMP lock=7 order=2
                0 4 THREAD_RELEASE_LOCK model=3 lock=7 order=2
                0 5 thread_join model=openmp
                0 6 leave f
                """;
        var e = TextTraceReader.read(new StringReader(text), "t").readLocation(0);
        assertEquals(EventKind.THREAD_FORK, e.kindAt(1));
        assertEquals(4, e.ref[1], "requested team size");
        assertEquals(3, e.comm[1], "OTF2_PARADIGM_OPENMP is 3");
        assertEquals(EventKind.THREAD_ACQUIRE_LOCK, e.kindAt(2));
        assertEquals(7, e.ref[2], "lock id");
        assertEquals(2, e.aux[2], "acquisition order");
        assertEquals(EventKind.THREAD_RELEASE_LOCK, e.kindAt(3));
        assertEquals(3, e.comm[3], "a paradigm may be given by its code");
        assertEquals(EventKind.THREAD_JOIN, e.kindAt(4));
        assertEquals(3, e.comm[4]);
    }

    @Test
    void threadRecordWithoutModelIsRejectedWithLine() {
        String text = "straggler-text 1\nregion 0 f\nlocation 0 rank=0\n0 1 thread_join\n";
        var e = assertThrows(TraceFormatException.class, () -> TextTraceReader.read(new StringReader(text), "x.txt"));
        assertTrue(e.getMessage().contains("x.txt") && e.getMessage().contains("model="), e.getMessage());
    }

    @Test
    void undefinedRegionIsReportedWithFileAndLine() {
        String text = "straggler-text 1\nlocation 0 rank=0\n0 5 ENTER nowhere\n";
        var e = assertThrows(TraceFormatException.class, () -> TextTraceReader.read(new StringReader(text), "x.txt"));
        assertTrue(e.getMessage().startsWith("x.txt:3: region 'nowhere' is not defined"), e.getMessage());
    }

    @Test
    void eventOnUndefinedLocationIsRejected() {
        String text = "straggler-text 1\nregion 0 f\n3 5 ENTER f\n";
        var e = assertThrows(TraceFormatException.class, () -> TextTraceReader.read(new StringReader(text), "x.txt"));
        assertTrue(e.getMessage().contains("x.txt:3: event on location 3"), e.getMessage());
    }

    @Test
    void missingMagicLineIsRejected() {
        var e = assertThrows(TraceFormatException.class,
                () -> TextTraceReader.read(new StringReader("region 0 f\n"), "x.txt"));
        assertTrue(e.getMessage().contains("not a Straggler text trace"), e.getMessage());
    }

    @Test
    void gapInRegionIdsIsRejected() {
        String text = "straggler-text 1\nregion 0 f\nregion 2 g\nlocation 0 rank=0\n";
        var e = assertThrows(TraceFormatException.class, () -> TextTraceReader.read(new StringReader(text), "x.txt"));
        assertTrue(e.getMessage().contains("region 1 is missing"), e.getMessage());
    }

    @Test
    void nonNumericTimeIsRejectedWithLine() {
        String text = "straggler-text 1\nregion 0 f\nlocation 0 rank=0\n0 soon ENTER f\n";
        // a line starting with a digit is an event; its time must be an integer
        var e = assertThrows(TraceFormatException.class, () -> TextTraceReader.read(new StringReader(text), "x.txt"));
        assertTrue(e.getMessage().startsWith("x.txt:4: time must be an integer"), e.getMessage());
    }

    @Test
    void unterminatedQuoteIsRejected() {
        String text = "straggler-text 1\nregion 0 \"f\n";
        var e = assertThrows(TraceFormatException.class, () -> TextTraceReader.read(new StringReader(text), "x.txt"));
        assertTrue(e.getMessage().contains("x.txt:2: unterminated"), e.getMessage());
    }
}
