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
            // random rows take their full width: a width byte, the first row, the differences
            assertEquals(3L * ((1 + 8L * Columns.UNIT) + (1 + 4L * Columns.UNIT) + Columns.UNIT), f.bytes(),
                    "the three full units of each column");
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
    void twoThreadsReadingDifferentUnitsEachKeepTheirOwn(@TempDir Path dir) throws Exception {
        // one thread alternates between the first two units (a location reading two partners' rows, say), the
        // other reads the third, in lockstep: with one pair of units shared by all readers, every row read would
        // read a unit back; with two per thread, each unit is read back once
        long[] v = new long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            v[i] = i * 31L;
        }
        Columns.Longs c = longs(v);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        java.util.concurrent.SynchronousQueue<Integer> toSecond = new java.util.concurrent.SynchronousQueue<>();
        java.util.concurrent.SynchronousQueue<Integer> toFirst = new java.util.concurrent.SynchronousQueue<>();
        int rows = 2_000;
        try (SpillFile f = new SpillFile(dir)) {
            c.spill(f, ROWS);
            Future<?> first = pool.submit(() -> {
                for (int n = 0; n < rows; n++) {
                    int i = (n % 2) * Columns.UNIT + n;
                    if (c.get(i) != v[i]) {
                        throw new AssertionError("row " + i);
                    }
                    toSecond.put(n);
                    toFirst.take();
                }
                return null;
            });
            Future<?> second = pool.submit(() -> {
                for (int n = 0; n < rows; n++) {
                    toSecond.take();
                    int i = 2 * Columns.UNIT + n;
                    if (c.get(i) != v[i]) {
                        throw new AssertionError("row " + i);
                    }
                    toFirst.put(n);
                }
                return null;
            });
            first.get();
            second.get();
            assertEquals(f.bytes(), f.bytesRead(), "each of the three units read back once");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void rowsCloseToTheirNeighboursTakeFewBytesAndExtremesComeBackWhole(@TempDir Path dir) throws Exception {
        int rows = 4 * Columns.UNIT;
        long[] stamps = new long[rows];
        long[] extremes = new long[rows];
        long[] constant = new long[rows];
        Random rnd = new Random(5);
        long t = 1_700_000_000_000_000_000L;
        for (int i = 0; i < rows; i++) {
            t += 1 + rnd.nextInt(40_000); // up to 40 microseconds apart, in nanoseconds
            stamps[i] = t;
            extremes[i] = i % 3 == 0 ? Long.MIN_VALUE : i % 3 == 1 ? Long.MAX_VALUE : -1;
            constant[i] = 42;
        }
        Columns.Longs s = longs(stamps);
        Columns.Longs e = longs(extremes);
        Columns.Longs c = longs(constant);
        try (SpillFile f = new SpillFile(dir)) {
            s.spill(f, rows);
            long stampBytes = f.bytes();
            // differences up to 40,000 zigzag to under 2^17: four bytes each
            assertEquals(4L * (1 + 8 + 4L * (Columns.UNIT - 1)), stampBytes);
            c.spill(f, rows);
            assertEquals(4L * (1 + 8), f.bytes() - stampBytes, "a constant unit is its first row");
            e.spill(f, rows);
            for (int i = 0; i < rows; i++) {
                assertEquals(stamps[i], s.get(i), "row " + i);
                assertEquals(extremes[i], e.get(i), "row " + i);
                assertEquals(42, c.get(i), "row " + i);
            }
        }
        int[] ints = new int[rows];
        for (int i = 0; i < rows; i++) {
            ints[i] = i % 2 == 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE - i;
        }
        Columns.Ints ic = new Columns.Ints();
        int cap = Columns.INITIAL;
        ic.grow(cap);
        for (int i = 0; i < rows; i++) {
            if (i == cap) {
                cap = Columns.nextCapacity(cap);
                ic.grow(cap);
            }
            ic.set(i, ints[i]);
        }
        try (SpillFile f = new SpillFile(dir)) {
            ic.spill(f, rows);
            for (int i = rows - 1; i >= 0; i--) {
                assertEquals(ints[i], ic.get(i), "row " + i);
            }
        }
    }

    @Test
    void spillingAgainMovesNothingTwice(@TempDir Path dir) throws Exception {
        long[] v = new long[ROWS];
        for (int i = 0; i < ROWS; i++) {
            v[i] = 7L * i;
        }
        Columns.Longs c = longs(v);
        try (SpillFile f = new SpillFile(dir)) {
            c.spill(f, ROWS);
            long written = f.bytes();
            c.spill(f, ROWS);
            assertEquals(written, f.bytes());
            for (int i = 0; i < ROWS; i++) {
                assertEquals(v[i], c.get(i), "row " + i);
            }
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
