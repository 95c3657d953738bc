package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fixtures written by {@code make_fixtures.py} (Python's tarfile, struct and zlib, not our writer) with
 * hand-chosen values: compressed and big-endian data, DENSE and SPARSE indices, INCLUSIVE, EXCLUSIVE and
 * SIMPLE metrics, cnode ids out of document order, and metrics that must be skipped.
 */
class CubexReaderFormatVariantsTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"zlib-little-endian.cubex", "plain-big-endian.cubex"})
    void fixtureValuesAreReadCallPathExclusive(String name) throws IOException {
        CubexReadResult r = CubexReader.readDetailed(fixture(name));
        SeverityCube c = r.cube();
        // document order main, a, c, b; file ids 0, 2, 1, 3
        assertArrayEquals(new int[]{0, 2, 1, 3}, r.cnodeIds());
        assertEquals(List.of("main", "a", "MPI_Recv"), c.pathNames(2));
        assertEquals(7, c.callPaths().get(1).callsite());
        assertEquals(RegionRole.FILE_IO, c.regions().get(3).role());

        int time = c.metricIndex("time");
        // inclusive rows minus children: main 10-6-1, 20-5-4; a 6-2.5, 5-1.25; c and b are leaves
        assertArrayEquals(new double[]{3, 11}, c.rowOrNull(time, 0), 0.0);
        assertArrayEquals(new double[]{3.5, 3.75}, c.rowOrNull(time, 1), 0.0);
        assertArrayEquals(new double[]{2.5, 1.25}, c.rowOrNull(time, 2), 0.0);
        assertArrayEquals(new double[]{1, 4}, c.rowOrNull(time, 3), 0.0);

        int ls = c.metricIndex("mpi_latesender");
        assertArrayEquals(new double[]{0.5, 0.75}, c.rowOrNull(ls, 2), 0.0);
        assertEquals(0.5 + 0.75, c.total(ls), 0.0);
        assertEquals("time", c.metric("mpi_latesender").parent(), "re-parented past the skipped derived metric");

        int visits = c.metricIndex("visits");
        assertTrue(c.metrics().get(visits).integer());
        // SIMPLE rows follow cnode ids: id 1 is c (document position 2), id 2 is a
        assertArrayEquals(new double[]{20, 20}, c.rowOrNull(visits, 1), 0.0);
        assertArrayEquals(new double[]{40, 41}, c.rowOrNull(visits, 2), 0.0);
        assertArrayEquals(new double[]{3, 70000}, c.rowOrNull(visits, 3), 0.0);

        assertEquals(List.of("mpi", "max_time", "helper"),
                r.skipped().stream().map(CubexReadResult.SkippedMetric::uniqueName).toList());
        assertEquals(3, c.metrics().size());
    }

    @Test
    void fileThatIsNotATarArchiveIsRejectedWithItsName() throws IOException {
        Path f = tmp.resolve("text.cubex");
        Files.writeString(f, "x".repeat(2000));
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> CubexReader.read(f));
        assertTrue(e.getMessage().contains("text.cubex") && e.getMessage().contains("not a tar archive"), e.getMessage());
    }

    @Test
    void truncatedDataMemberIsReportedWithMemberAndSizes() throws IOException {
        Path good = tmp.resolve("good.cubex");
        CubexWriter.write(TestCubes.sample(), good);
        byte[] bytes = Files.readAllBytes(good);
        // shrink the size field of the first member (0.data, 202 bytes) to 100 = octal 144
        byte[] size = "00000000144".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(size, 0, bytes, 124, size.length);
        long sum = 0;
        for (int i = 0; i < 512; i++) {
            sum += (i >= 148 && i < 156) ? ' ' : (bytes[i] & 0xff);
        }
        byte[] chk = String.format("%06o", sum).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        System.arraycopy(chk, 0, bytes, 148, 6);
        Path bad = tmp.resolve("bad.cubex");
        Files.write(bad, bytes);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> CubexReader.read(bad));
        assertTrue(e.getMessage().contains("0.data") && e.getMessage().contains("100 bytes"), e.getMessage());
    }

    private Path fixture(String name) throws IOException {
        Path p = tmp.resolve(name);
        try (InputStream in = getClass().getResourceAsStream(name)) {
            assertTrue(in != null, "fixture " + name + " missing; run make_fixtures.py");
            Files.copy(in, p);
        }
        return p;
    }
}
