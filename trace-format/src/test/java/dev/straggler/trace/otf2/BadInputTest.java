package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged archives (copies of the {@code records} fixture, cut or overwritten here): strict reading fails naming
 * file and byte offset; lenient reading keeps what precedes the damage and reports exactly what it skipped.
 */
class BadInputTest {
    @TempDir
    Path tmp;

    /** Rank 1's event file: one chunk; rank 0's: five chunks of 256 KiB. */
    private Path archive() throws IOException {
        return Otf2Fixtures.copy("records", tmp.resolve("a"));
    }

    private static Path evt(Path anchor, long location) {
        return anchor.resolveSibling("traces").resolve(location + ".evt");
    }

    private static void truncate(Path f, long size) throws IOException {
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
            r.setLength(size);
        }
    }

    private static void poke(Path f, long offset, int value) throws IOException {
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
            r.seek(offset);
            r.write(value);
        }
    }

    private static int indexOf(byte[] b, byte[] pattern, boolean last) {
        int found = -1;
        for (int i = 0; i + pattern.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + pattern.length, pattern, 0, pattern.length)) {
                found = i;
                if (!last) {
                    break;
                }
            }
        }
        return found;
    }

    private static TraceFormatException readFails(Path anchor) {
        return assertThrows(TraceFormatException.class, () -> {
            try (Otf2Archive a = Otf2Archive.open(anchor)) {
                a.scanStatistics();
            }
        });
    }

    private static EventBatch full(int location) throws IOException {
        try (Otf2Archive a = Otf2Archive.open(Otf2Fixtures.anchor("records"))) {
            return a.readLocation(location);
        }
    }

    private static void assertPrefixOf(EventBatch whole, EventBatch part) {
        assertTrue(part.size < whole.size, "events were dropped");
        EventBatch prefix = new EventBatch();
        prefix.addAll(whole, 0, part.size);
        assertTrue(prefix.sameEvents(part), "the events before the damage are delivered unchanged");
    }

    @Test
    void truncatedEventFileNamesFileAndOffset() throws IOException {
        Path a = archive();
        truncate(evt(a, 1), 6000);
        TraceFormatException e = readFails(a);
        assertTrue(e.getMessage().contains(evt(a, 1).toString()), e.getMessage());
        assertTrue(e.getMessage().contains("byte offset"), e.getMessage());
    }

    @Test
    void leniencyKeepsTheEventsBeforeATruncationAndCountsTheRest() throws IOException {
        Path a = archive();
        truncate(evt(a, 1), 6000);
        try (Otf2Archive ar = Otf2Archive.open(a, Otf2Options.lenientReading())) {
            Otf2Statistics s = ar.scanStatistics();
            EventBatch part = ar.readLocation(1);
            assertPrefixOf(full(1), part);
            List<Otf2Warning> w = ar.warnings().stream().filter(x -> x.location() == 1).toList();
            assertEquals(1, w.size(), w.toString());
            // the Location definition declares 989 event records for rank 1 (otf2-print shows as many)
            assertEquals(989, s.eventsPerLocation()[1] + w.get(0).eventsLost());
            assertEquals(evt(a, 1).toString(), w.get(0).file());
        }
    }

    @Test
    void truncationInsideALaterChunkLosesThatChunksRestAndTheChunksAfter() throws IOException {
        Path a = archive();
        truncate(evt(a, 0), 2 * 262144 + 1000);
        try (Otf2Archive ar = Otf2Archive.open(a, Otf2Options.lenientReading())) {
            Otf2Statistics s = ar.scanStatistics();
            long lost = ar.warnings().stream().filter(x -> x.location() == 0).mapToLong(Otf2Warning::eventsLost).sum();
            long declared = ar.declaredEvents(0);
            assertEquals(declared, s.eventsPerLocation()[0] + lost);
            assertTrue(s.eventsPerLocation()[0] > 0);
            assertPrefixOf(full(0), ar.readLocation(0));
        }
    }

    @Test
    void corruptChunkHeaderLosesOnlyThatChunk() throws IOException {
        Path a = archive();
        poke(evt(a, 0), 2 * 262144, 0x7F);
        TraceFormatException e = readFails(a);
        assertTrue(e.getMessage().contains("0.evt: byte offset " + 2 * 262144 + ": expected a chunk header"),
                e.getMessage());
        try (Otf2Archive ar = Otf2Archive.open(a, Otf2Options.lenientReading())) {
            Otf2Statistics s = ar.scanStatistics();
            long lost = ar.warnings().stream().filter(x -> x.location() == 0).mapToLong(Otf2Warning::eventsLost).sum();
            assertEquals(ar.declaredEvents(0), s.eventsPerLocation()[0] + lost);
            assertTrue(s.eventsPerLocation()[0] > ar.declaredEvents(0) / 2, "the chunks after it are read");
        }
    }

    @Test
    void eventFileCutAtAChunkBoundaryIsNoticedByTheMissingEndRecord() throws IOException {
        Path a = archive();
        truncate(evt(a, 0), 2 * 262144);
        TraceFormatException e = readFails(a);
        assertTrue(e.getMessage().contains("end-of-file record"), e.getMessage());
        assertTrue(e.getMessage().contains("0.evt"), e.getMessage());
    }

    @Test
    void recordLengthPastTheChunkNamesTheRecordOffset() throws IOException {
        Path a = archive();
        byte[] b = Files.readAllBytes(evt(a, 1));
        // rank 1's ProgramEnd (exit status 0) near the end of its file: type 84, length 1, value 0
        int at = indexOf(b, new byte[] {84, 1, 0}, true);
        assertTrue(at > 0);
        poke(evt(a, 1), at + 1, 200);
        TraceFormatException e = readFails(a);
        assertTrue(e.getMessage().contains(evt(a, 1) + ": byte offset " + at), e.getMessage());
        assertTrue(e.getMessage().contains("runs past the end of the chunk"), e.getMessage());
    }

    @Test
    void leniencyDropsTheRestOfAChunkWithABadRecordAndSaysHowManyEvents() throws IOException {
        Path a = archive();
        byte[] b = Files.readAllBytes(evt(a, 1));
        int at = indexOf(b, new byte[] {84, 1, 0}, true);
        poke(evt(a, 1), at + 1, 200);
        try (Otf2Archive ar = Otf2Archive.open(a, Otf2Options.lenientReading())) {
            Otf2Statistics s = ar.scanStatistics();
            Otf2Warning w = ar.warnings().stream().filter(x -> x.location() == 1).findFirst().orElseThrow();
            assertEquals(at, w.byteOffset());
            // ProgramEnd was the last of rank 1's 989 records
            assertEquals(1, w.eventsLost());
            assertEquals(988, s.eventsPerLocation()[1]);
        }
    }

    @Test
    void missingEventFileFailsUnlessLenientThenTheLocationIsEmptyAndReported() throws IOException {
        Path a = archive();
        Files.delete(evt(a, 1));
        TraceFormatException e = readFails(a);
        assertTrue(e.getMessage().contains("1.evt"), e.getMessage());
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        try (Otf2Archive ar = Otf2Archive.open(a, Otf2Options.lenientReading())) {
            Otf2Statistics s = ar.scanStatistics();
            assertEquals(0, s.eventsPerLocation()[1]);
            Otf2Warning w = ar.warnings().stream().filter(x -> x.location() == 1).findFirst().orElseThrow();
            assertEquals(989, w.eventsLost());
            assertEquals(full(0).size, ar.readLocation(0).size, "other locations are unaffected");
        }
    }

    @Test
    void missingLocalDefinitionFileFailsUnlessLenient() throws IOException {
        Path a = archive();
        Files.delete(a.resolveSibling("traces").resolve("1.def"));
        TraceFormatException e = readFails(a);
        assertTrue(e.getMessage().contains("1.def"), e.getMessage());
        try (Otf2Archive ar = Otf2Archive.open(a, Otf2Options.lenientReading())) {
            ar.scanStatistics();
            assertTrue(ar.warnings().stream().anyMatch(x -> x.file().endsWith("1.def")));
        }
    }

    /** Two ranks' events where rank 1 enters region 7 although only regions 0 and 1 are defined. */
    private Path archiveWithUndefinedRegion() throws IOException {
        dev.straggler.trace.TraceDefinitions.Builder d = dev.straggler.trace.TraceDefinitions.builder();
        d.addRegion("main", "a.c", 1, 2, dev.straggler.trace.Paradigm.USER, dev.straggler.trace.RegionRole.FUNCTION);
        d.addRegion("f", "a.c", 3, 4, dev.straggler.trace.Paradigm.USER, dev.straggler.trace.RegionRole.FUNCTION);
        for (int r = 0; r < 2; r++) {
            d.location(dev.straggler.trace.Location.masterThread(r, r));
            d.process(new dev.straggler.trace.ProcessDef(r, "rank " + r, ""));
        }
        Path anchor = tmp.resolve("undef").resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            for (int r = 0; r < 2; r++) {
                EventBatch b = new EventBatch();
                b.enter(10, 0);
                b.enter(20, r == 1 ? 7 : 1);
                b.leave(30, r == 1 ? 7 : 1);
                b.leave(40, 0);
                w.append(r, b);
            }
            w.finish(d.build());
        }
        return anchor;
    }

    @Test
    void eventOnAnUndefinedRegionFailsWithItsOffset() throws IOException {
        TraceFormatException e = readFails(archiveWithUndefinedRegion());
        assertTrue(e.getMessage().contains("1.evt: byte offset ") && e.getMessage().contains("undefined region 7"),
                e.getMessage());
    }

    @Test
    void leniencyDropsEventsOnUndefinedRegionsAndCountsThem() throws IOException {
        try (Otf2Archive a = Otf2Archive.open(archiveWithUndefinedRegion(), Otf2Options.lenientReading())) {
            EventBatch b = a.readLocation(1);
            assertEquals(2, b.size, "main's enter and leave remain");
            Otf2Warning w = a.warnings().stream().filter(x -> x.location() == 1).findFirst().orElseThrow();
            assertEquals(2, w.eventsLost());
            assertTrue(w.message().contains("undefined region 7"), w.message());
            assertEquals(4, a.readLocation(0).size);
        }
    }

    @Test
    void truncatedAnchorNamesFileAndOffset() throws IOException {
        Path a = archive();
        truncate(a, 40);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Otf2Archive.open(a));
        assertTrue(e.getMessage().startsWith(a + ": byte offset "), e.getMessage());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void emptyAnchorIsNotAnOtf2Archive() throws IOException {
        Path a = archive();
        truncate(a, 0);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Otf2Archive.open(a));
        assertTrue(e.getMessage().contains("not an OTF2 anchor file"), e.getMessage());
    }

    @Test
    void wrongMagicIsReported() throws IOException {
        Path a = archive();
        poke(a, 5, 'X');
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Otf2Archive.open(a));
        assertTrue(e.getMessage().contains(a + ": byte offset 2: wrong magic"), e.getMessage());
    }

    @Test
    void corruptByteOrderMarkIsReported() throws IOException {
        Path a = archive();
        poke(a, 1, 0x77);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Otf2Archive.open(a));
        assertTrue(e.getMessage().contains("byte offset 1: invalid byte-order mark"), e.getMessage());
    }

    @Test
    void sionSubstrateIsNotSupported() throws IOException {
        Path a = archive();
        byte[] b = Files.readAllBytes(a);
        // after header (2), "OTF2\0" (5), five version bytes and two uint64 chunk sizes
        int substrate = 2 + 5 + 5 + 16;
        assertEquals(1, b[substrate], "POSIX substrate in the fixture");
        poke(a, substrate, 2);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Otf2Archive.open(a));
        assertTrue(e.getMessage().contains("SION") && e.getMessage().contains("not support"), e.getMessage());
    }

    @Test
    void truncatedGlobalDefinitionsNameTheFile() throws IOException {
        Path a = archive();
        Path def = a.resolveSibling("traces.def");
        truncate(def, Files.size(def) / 2);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Otf2Archive.open(a));
        assertTrue(e.getMessage().contains(def.toString()), e.getMessage());
    }

    @Test
    void missingArchiveIsReported() {
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> Otf2Archive.open(tmp.resolve("nothing-here")));
        assertTrue(e.getMessage().contains("nothing-here"), e.getMessage());
    }

    @Test
    void directoryWithSeveralAnchorsAsksForOne() throws IOException {
        Path a = archive();
        Files.copy(a, a.resolveSibling("other.otf2"));
        Files.move(a, a.resolveSibling("first.otf2"));
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> Otf2Archive.open(a.getParent()));
        assertTrue(e.getMessage().contains("several OTF2 anchor files"), e.getMessage());
        Path text = tmp.resolve("trace.txt");
        Files.writeString(text, "straggler-text 1\n");
        assertTrue(!Otf2Archive.isOtf2(text) && !Otf2Archive.isOtf2(tmp.resolve("missing")));
    }

    @Test
    void archiveOpensByItsDirectoryAndByAnAnchorOfAnyName() throws IOException {
        Path a = archive();
        Files.move(a, a.resolveSibling("run42.otf2"));
        Files.move(a.resolveSibling("traces.def"), a.resolveSibling("run42.def"));
        Files.move(a.resolveSibling("traces"), a.resolveSibling("run42"));
        try (Otf2Archive byDir = Otf2Archive.open(a.getParent());
             Otf2Archive byFile = Otf2Archive.open(a.resolveSibling("run42.otf2"))) {
            assertEquals(byDir.anchor().anchorFile(), byFile.anchor().anchorFile());
            assertEquals(full(1).size, byFile.readLocation(1).size);
            assertTrue(Otf2Archive.isOtf2(a.getParent()));
        }
    }

    /** Two locations with {@code pairs[l]} ENTER/LEAVE pairs of region 0, all within [10, 40]. */
    private Path small(String name, int... pairs) throws IOException {
        dev.straggler.trace.TraceDefinitions.Builder d = dev.straggler.trace.TraceDefinitions.builder();
        d.addRegion("main", "a.c", 1, 2, dev.straggler.trace.Paradigm.USER, dev.straggler.trace.RegionRole.FUNCTION);
        for (int r = 0; r < pairs.length; r++) {
            d.location(dev.straggler.trace.Location.masterThread(r, r));
            d.process(new dev.straggler.trace.ProcessDef(r, "rank " + r, ""));
        }
        d.clock(new dev.straggler.trace.Clock(1_000_000_000L, 0, 50));
        Path anchor = tmp.resolve(name).resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            for (int r = 0; r < pairs.length; r++) {
                EventBatch b = new EventBatch();
                for (int k = 0; k < pairs[r]; k++) {
                    b.enter(10 + 2 * k, 0);
                    b.leave(11 + 2 * k, 0);
                }
                w.append(r, b);
            }
            w.finish(d.build());
        }
        return anchor;
    }

    /**
     * An event file copied from another trace has intact chunks and plausible timestamps; only the location's
     * declared event count gives it away.
     */
    @Test
    void eventFileOfAnotherTraceIsRefusedByItsEventCount() throws IOException {
        Path a = small("a", 4, 4);
        Path b = small("b", 4, 7);
        java.nio.file.Files.copy(evt(b, 1), evt(a, 1), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        TraceFormatException e = readFails(a);
        assertTrue(e.getMessage().contains("1.evt: holds 14 event records, but the definition of location 1 declares 8 "
                + "(an event file of another trace or location?)"), e.getMessage());
        try (Otf2Archive ar = Otf2Archive.open(a, Otf2Options.lenientReading())) {
            ar.readLocation(1);
            assertTrue(ar.warnings().stream().anyMatch(w -> w.message().contains("declares 8")), ar.warnings().toString());
        }
    }
}
