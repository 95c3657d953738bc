package dev.straggler.trace.otf2;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every fixture written by the OTF2 library reads exactly as otf2-print reads it. */
class FixtureEventsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"records", "mapped", "nompi"})
    void fixtureMatchesOtf2PrintEventByEvent(String fixture) throws IOException {
        long n = EventComparison.assertSameAsOtf2Print(Otf2Fixtures.anchor(fixture));
        assertTrue(n > 0, "otf2-print showed no events");
    }

    @Test
    void unknownRecordTypesAreSkippedByTheirLengthAndCounted() throws IOException {
        Path anchor = Otf2Fixtures.copy("records", tmp.resolve("unknown"));
        Path evt = anchor.resolveSibling("traces").resolve("1.evt");
        byte[] b = Files.readAllBytes(evt);
        // rank 1's COMM_CREATE (type 87, length 2, communicator 2) becomes a record of a type no OTF2 version defines
        byte[] commCreate = {87, 2, 1, 2};
        int at = -1;
        for (int i = 0; at < 0 && i + 4 <= b.length; i++) {
            at = Arrays.equals(b, i, i + 4, commCreate, 0, 4) ? i : -1;
        }
        assertTrue(at > 0);
        b[at] = (byte) 200;
        Files.write(evt, b);
        EventComparison.assertSameAsOtf2Print(anchor);
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            Otf2Statistics s = a.scanStatistics();
            assertEquals(1L, s.skippedRecords().get("UNKNOWN(200)"));
            assertEquals(1L, s.skippedRecords().get("COMM_CREATE"), "rank 0's one remains");
        }
    }
}
