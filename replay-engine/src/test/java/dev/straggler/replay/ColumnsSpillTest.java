package dev.straggler.replay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A column whose full units went to a spill file reads every row back as written, in any order and from several
 * threads at once; the rows of its last, partial unit stay on the heap.
 */
class ColumnsSpillTest {
    private static final int ROWS = 3 * Columns.UNIT + 777;

    private static Columns.Longs longs(long[] values) {
        Columns.Longs c = new Columns.Longs();
        int cap = Columns.INITIAL;
        c.grow(cap);
        for (int i = 0; i < values.length; i++) {
            if (i == cap) {
                cap = Columns.nextCapacity(cap);
                c.grow(cap);
            }
            c.set(i, values[i]);
        }
        return c;
    }

    @Test
    void spilledRowsReadBackFromTheLastToTheFirstAndAtRandom(@TempDir Path dir) throws Exception {
        Random rnd = new Random(17);
        long[] v = new long[ROWS];
        int[] w = new int[ROWS];
        byte[] k = new byte[ROWS];
        for (int i = 0; i < ROWS; i++) {
            v[i] = rnd.nextLong();
            w[i] = rnd.nextInt();
            k[i] = (byte) rnd.nextInt();
        }
        Columns.Longs lc = longs(v);
        Columns.Ints ic = new Columns.Ints();
        Columns.Bytes bc = new Columns.Bytes();
        int cap = Columns.INITIAL;
        ic.grow(cap);
        bc.grow(cap);
        for (int i = 0; i < ROWS; i++) {
            if (i == cap) {
                cap = Columns.nextCapacity(cap);
                ic.grow(cap);
                bc.grow(cap);
            }
            ic.set(i, w[i]);
            bc.set(i, k[i]);
        }
        try (SpillFile f = new SpillFile(dir)) {
            lc.spill(f, ROWS);
            ic.spill(f, ROWS);
            bc.spill(f, ROWS);
            assertEquals(3L * Columns.UNIT * (8 + 4 + 1), f.bytes(), "the three full units of each column");
            for (int i = ROWS - 1; i >= 0; i--) {
                assertEquals(v[i], lc.get(i), "row " + i);
                assertEquals(w[i], ic.get(i), "row " + i);
                assertEquals(k[i], bc.get(i), "row " + i);
            }
            for (int n = 0; n < 100_000; n++) {
                int i = rnd.nextInt(ROWS);
                assertEquals(v[i], lc.get(i), "row " + i);
                assertEquals(w[i], ic.get(i), "row " + i);
            }
        }
    }

    @Test
    void threadsReadingOneSpilledColumnAtOnceEachSeeItsRows(@TempDir Path dir) throws Exception {
        Random rnd = new Random(19);
        long[] v = new long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            v[i] = rnd.nextLong();
        }
        Columns.Longs c = longs(v);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (SpillFile f = new SpillFile(dir)) {
            c.spill(f, ROWS);
            Future<?>[] readers = new Future<?>[4];
            for (int t = 0; t < readers.length; t++) {
                long seed = t;
                readers[t] = pool.submit(() -> {
                    Random r = new Random(seed);
                    for (int n = 0; n < 200_000; n++) {
                        int i = r.nextInt(ROWS);
                        if (c.get(i) != v[i]) {
                            throw new AssertionError("row " + i);
                        }
                    }
                    return null;
                });
            }
            for (Future<?> r : readers) {
                r.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSpilledColumnIsNotSerialized(@TempDir Path dir) throws Exception {
        Columns.Longs c = longs(new long[ROWS]);
        try (SpillFile f = new SpillFile(dir)) {
            c.spill(f, ROWS);
            assertThrows(NotSerializableException.class,
                    () -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(c));
        }
    }

    @Test
    void fewerRowsThanAUnitStayOnTheHeap(@TempDir Path dir) throws Exception {
        Columns.Longs c = longs(new long[Columns.UNIT - 1]);
        try (SpillFile f = new SpillFile(dir)) {
            c.spill(f, Columns.UNIT - 1);
            assertEquals(0, f.bytes());
            assertTrue(f.path() == null);
        }
    }
}
