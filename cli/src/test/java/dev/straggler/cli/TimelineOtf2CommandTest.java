package dev.straggler.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code straggler timeline --otf2 DIR} on the bundled sample (1 tick = 1 µs, 2 ranks, 7 regions each; rank 1 waits in
 * MPI_Recv from 2,000 µs to 7,200 µs for the message sent at 7,010 µs).
 */
class TimelineOtf2CommandTest {
    @TempDir
    Path tmp;

    @Test
    void aWindowInsideTheWaitIsWrittenWithItsCutRegionsAndSaysSo() throws Exception {
        Path dir = tmp.resolve("w");
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--from", "0.003", "--to", "0.004",
                "--otf2", dir.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        String out = r.out().replaceAll("\\s+", " ");
        assertTrue(out.contains("[0.003000, 0.004000] s since the start of the measurement as an OTF2 archive"), out);
        assertTrue(out.contains("regions cut at the window's edges"), out);
        assertTrue(Files.isRegularFile(dir.resolve("traces.otf2")), out);
        CliTest.Run v = CliTest.run("validate", dir.toString());
        assertEquals(0, v.code(), v.out() + v.err());
    }

    @Test
    void aDirectoryThatIsNotEmptyIsRefusedInOneLine() throws Exception {
        Path dir = tmp.resolve("full");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("keep.txt"), "x");
        CliTest.Run r = CliTest.run("timeline", CliTest.SAMPLE.toString(), "--otf2", dir.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("exists and is not empty"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertEquals("x", Files.readString(dir.resolve("keep.txt")));
    }
}
