package dev.straggler.trace.otf2;

import dev.straggler.trace.EventBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.Deflater;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ZLIB-compressed archives (reference §6.5). Debian's OTF2 library is built without zlib, so the compressed archive
 * is made here from the {@code records} fixture by the documented block layout (OTF2_File.c): every chunk deflated
 * behind a 20-byte header. What must come out is what the uncompressed original gives (checked against
 * otf2-print by {@link FixtureEventsTest}).
 */
class ZlibArchiveTest {
    @TempDir
    Path tmp;

    private static void compressChunks(Path file, int chunkSize) throws IOException {
        byte[] plain = Files.readAllBytes(file);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int previous = 0;
        for (int off = 0; off < plain.length; off += chunkSize) {
            int n = Math.min(chunkSize, plain.length - off);
            Deflater d = new Deflater();
            d.setInput(plain, off, n);
            d.finish();
            byte[] buf = new byte[n + 64];
            int comp = d.deflate(buf);
            d.end();
            ByteBuffer h = ByteBuffer.allocate(20).order(ByteOrder.LITTLE_ENDIAN);
            h.putLong(0xFFFF_FFFFL).putInt(comp).putInt(n).putInt(previous);
            out.write(h.array());
            out.write(buf, 0, comp);
            previous = comp;
        }
        Files.write(file, out.toByteArray());
    }

    @Test
    void compressedArchiveReadsLikeTheUncompressedOne() throws IOException {
        Path anchor = Otf2Fixtures.copy("records", tmp.resolve("z"));
        int chunk = 262144;
        compressChunks(anchor.resolveSibling("traces.def"), chunk);
        try (var files = Files.list(anchor.resolveSibling("traces"))) {
            for (Path f : files.toList()) {
                compressChunks(f, chunk);
            }
        }
        byte[] a = Files.readAllBytes(anchor);
        int compression = 2 + 5 + 5 + 16 + 1;
        assertEquals(1, a[compression]);
        a[compression] = 2;
        Files.write(anchor, a);
        assertTrue(Files.size(anchor.resolveSibling("traces").resolve("0.evt")) < 4 * chunk);

        try (Otf2Archive z = Otf2Archive.open(anchor); Otf2Archive plain = Otf2Archive.open(Otf2Fixtures.anchor("records"))) {
            assertEquals("ZLIB", z.anchor().compressionName());
            assertEquals(plain.definitions().regions(), z.definitions().regions());
            assertEquals(plain.definitions().communicators(), z.definitions().communicators());
            for (int l = 0; l < plain.definitions().locations().size(); l++) {
                EventBatch expected = plain.readLocation(l);
                EventBatch actual = z.readLocation(l);
                assertTrue(expected.sameEvents(actual), "location " + l);
            }
            assertEquals(plain.scanStatistics().eventsByRecord(), z.scanStatistics().eventsByRecord());
            assertEquals(List.of(), z.warnings().stream().filter(w -> w.location() >= 0).toList());
        }
    }
}
