package dev.straggler.replay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interval entries written past {@link IntervalEntries#SPILL_AFTER} blocks go to the spill file and read back as
 * they were written, in any order the backward replay reads them; a small location never touches the file.
 */
class IntervalEntriesTest {
    /** Enough entries for the spill to start, and a partial last block. */
    private static final int MANY = (IntervalEntries.SPILL_AFTER + 3) * IntervalEntries.BLOCK + 1234;

    private static IntervalEntries write(SpillFile spill, int[] paths, double[] seconds) {
        IntervalEntries en = new IntervalEntries(spill, p -> p + 1000);
        for (int e = 0; e < paths.length; e++) {
            en.add(paths[e], seconds[e]);
        }
        en.finish();
        return en;
    }

    private static int[] paths(Random rnd, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = rnd.nextInt(500);
        }
        return p;
    }

    private static double[] seconds(Random rnd, int n) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = rnd.nextDouble() * 1e-3;
        }
        return s;
    }

    @Test
    void spilledEntriesReadBackAsWrittenFromTheLastToTheFirst(@TempDir Path dir) throws Exception {
        Random rnd = new Random(3);
        int[] p = paths(rnd, MANY);
        double[] s = seconds(rnd, MANY);
        try (SpillFile spill = new SpillFile(dir)) {
            IntervalEntries en = write(spill, p, s);
            assertTrue(en.spilled());
            assertEquals(MANY, en.size());
            // every full block went to the file, the partial last one stayed
            assertEquals((long) (MANY / IntervalEntries.BLOCK) * IntervalEntries.BLOCK * 12, spill.bytes());
            for (int e = MANY - 1; e >= 0; e--) {
                assertEquals(p[e] + 1000, en.path(e), "entry " + e);
                assertEquals(s[e], en.seconds(e), "entry " + e);
            }
        }
    }

    @Test
    void blocksReadBackServeSumsThatCrossABlockBoundaryInAnyOrder(@TempDir Path dir) throws Exception {
        Random rnd = new Random(5);
        int[] p = paths(rnd, MANY);
        double[] s = seconds(rnd, MANY);
        try (SpillFile spill = new SpillFile(dir)) {
            IntervalEntries en = write(spill, p, s);
            for (int k = 0; k < 2000; k++) {
                int from = rnd.nextInt(MANY);
                int to = Math.min(MANY, from + rnd.nextInt(3 * IntervalEntries.BLOCK));
                double sum = 0;
                double expected = 0;
                for (int e = from; e < to; e++) {
                    IntervalEntries.Block b = en.block(e >>> IntervalEntries.SHIFT);
                    int i = e & (IntervalEntries.BLOCK - 1);
                    assertEquals(p[e] + 1000, b.paths()[i]);
                    sum += b.seconds()[i];
                    expected += s[e];
                }
                assertEquals(expected, sum, 0.0);
            }
        }
    }

    @Test
    void aSmallLocationKeepsItsEntriesOnTheHeapAndWritesNoFile(@TempDir Path dir) throws Exception {
        Random rnd = new Random(7);
        int n = IntervalEntries.SPILL_AFTER * IntervalEntries.BLOCK; // full blocks, but not one more
        int[] p = paths(rnd, n);
        double[] s = seconds(rnd, n);
        try (SpillFile spill = new SpillFile(dir)) {
            IntervalEntries en = write(spill, p, s);
            assertFalse(en.spilled());
            assertEquals(0, spill.bytes());
            assertEquals(null, spill.path());
            for (int e = 0; e < n; e++) {
                assertEquals(p[e] + 1000, en.path(e));
            }
        }
    }

    @Test
    void aFewEntriesHoldNoSlack() {
        IntervalEntries en = new IntervalEntries(null, null);
        for (int e = 0; e < 5; e++) {
            en.add(e, e);
        }
        en.finish();
        assertEquals(5 * 12, en.heapBytes());
    }

    @Test
    void theSpillFileIsDeletedWhenClosed(@TempDir Path dir) throws Exception {
        Random rnd = new Random(9);
        Path file;
        try (SpillFile spill = new SpillFile(dir)) {
            write(spill, paths(rnd, MANY), seconds(rnd, MANY));
            file = spill.path();
            assertTrue(Files.exists(file));
        }
        assertFalse(Files.exists(file));
    }

    @Test
    void aSpillFileThatCannotBeCreatedSaysWhereAndWhatToDo(@TempDir Path dir) throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        try (SpillFile spill = new SpillFile(notADirectory)) {
            java.io.UncheckedIOException e = assertThrows(java.io.UncheckedIOException.class,
                    () -> write(spill, paths(new Random(1), MANY), seconds(new Random(2), MANY)));
            String m = e.getCause().getMessage();
            assertTrue(m.startsWith("cannot create a scratch file in " + notADirectory) && m.contains("java.io.tmpdir")
                    && m.contains("--no-root-causes"), m);
        }
    }

    @Test
    void spilledEntriesAreNotSerialized(@TempDir Path dir) throws Exception {
        Random rnd = new Random(11);
        try (SpillFile spill = new SpillFile(dir)) {
            IntervalEntries en = write(spill, paths(rnd, MANY), seconds(rnd, MANY));
            assertThrows(NotSerializableException.class,
                    () -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(en));
        }
    }
}
