package dev.straggler.replay;

import java.util.Arrays;

/**
 * Growable primitive columns for the communication records: the first 1024 rows live in one array that doubles,
 * later rows in fixed blocks of 1024, so growing never copies more than a block, the slack stays under one block
 * per column, and a row is two array loads away ({@code blocks[i >>> 10][i & 1023]}). A table grows all its
 * columns together ({@link Columns#nextCapacity}), so adding a row costs one capacity check. Not thread-safe;
 * readers may share a column once it is no longer written.
 *
 * <p>A column no longer written may move its full units of {@link #UNIT} rows to a {@link SpillFile}
 * ({@code spill}); a read of a spilled row then reads its unit back and keeps it among the two units each thread read
 * last (immutable once published, so readers on several threads may share the column still). Per thread, so that
 * two threads reading one column at different rows (a location's own analysis, and its partner's reading the
 * records it matched) do not evict each other's unit at every row.
 */
final class Columns {
    static final int SHIFT = 10;
    static final int BLOCK = 1 << SHIFT;
    static final int MASK = BLOCK - 1;

    private Columns() {
    }

    /** Capacity after {@code capacity} rows are full: doubling up to one block, then one block more. */
    static int nextCapacity(int capacity) {
        return capacity < BLOCK ? Math.min(BLOCK, capacity * 2) : capacity + BLOCK;
    }

    static final int INITIAL = 16;

    /** Rows moved to a spill file and read back at a time: 8 blocks. */
    static final int UNIT_SHIFT = SHIFT + 3;
    static final int UNIT = 1 << UNIT_SHIFT;
    private static final int BLOCKS_PER_UNIT = UNIT / BLOCK;

    /**
     * A unit read back from the spill file: the id of the thread that read it (an id, so that a column does not keep
     * a finished pool's threads reachable), its index and its rows.
     */
    private record Unit(long reader, int index, Object rows) {
    }

    /** Units a thread keeps of one column (the two it read last). */
    private static final int UNITS_PER_THREAD = 2;

    /** Units one column keeps in all: those of eight threads; beyond, the oldest goes first. */
    static final int UNITS_PER_COLUMN = 8 * UNITS_PER_THREAD;

    private static final Unit[] NO_UNITS = {};

    /** The most bytes a unit takes in the file: a width byte, the first row, and 8 bytes for each row after it. */
    static final int MAX_UNIT_BYTES = 1 + 8 * UNIT;

    /**
     * Per spilled unit its position in the file, and the units read back last, two per reading thread, which every
     * reader may use: what the three column types have in common.
     */
    private abstract static class Spilled implements java.io.Serializable {
        private transient SpillFile file;
        private long[] offsets;
        /** Per spilled unit, its bytes in the file (units are encoded, {@link #encode}). */
        private int[] lengths;
        /** Units below this one are in the file. */
        int spilledUnits;
        /** The units read back, oldest first; replaced, never changed, so reads need no lock. */
        private transient volatile Unit[] cached = NO_UNITS;

        /** The column's blocks (an array of primitive arrays). */
        abstract Object[] blocks();

        /**
         * Appends the rows of unit {@code u} (its {@value #BLOCKS_PER_UNIT} blocks) to the buffer, at most
         * {@link #MAX_UNIT_BYTES}: what the file holds of a unit, so that what is written and read back is what the
         * rows need rather than their full width (the file is written back to disk past the kernel's share of dirty
         * pages, and then its size is what the replay waits for).
         */
        abstract void encode(java.nio.ByteBuffer buf, int u);

        /** A unit's rows from what {@link #encode} appended, as a new array of the column's type. */
        abstract Object decode(java.nio.ByteBuffer buf);

        /**
         * Moves every full unit of the first {@code rows} rows to {@code f} that is not there yet; the column must not
         * be written afterwards, and all its units go to one file.
         */
        final void spill(SpillFile f, int rows) {
            int units = rows >>> UNIT_SHIFT;
            if (units <= spilledUnits) {
                return;
            }
            if (file != null && file != f) {
                throw new IllegalStateException("a column's units go to one spill file");
            }
            file = f;
            offsets = offsets == null ? new long[units] : Arrays.copyOf(offsets, units);
            lengths = lengths == null ? new int[units] : Arrays.copyOf(lengths, units);
            java.nio.ByteBuffer buf = SpillFile.threadBuffer();
            for (int u = spilledUnits; u < units; u++) {
                buf.clear();
                encode(buf, u);
                buf.flip();
                lengths[u] = buf.remaining();
                offsets[u] = f.write(buf);
                for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                    blocks()[b] = null;
                }
            }
            spilledUnits = units;
        }

        /** The rows of spilled unit {@code u}: one of those read back last, else read back now. */
        final Object unit(int u) {
            Unit[] c = cached == null ? NO_UNITS : cached; // null in a column read back from a stream
            for (int i = c.length - 1; i >= 0; i--) {
                if (c[i].index == u) {
                    return c[i].rows;
                }
            }
            java.nio.ByteBuffer buf = SpillFile.threadBuffer().limit(lengths[u]);
            file.read(buf, offsets[u]);
            buf.flip();
            Unit loaded = new Unit(Thread.currentThread().getId(), u, decode(buf));
            synchronized (this) {
                cached = keeping(cached == null ? NO_UNITS : cached, loaded);
            }
            return loaded.rows;
        }

        /**
         * The units after {@code loaded} joins them: the reading thread's oldest goes once it holds
         * {@value #UNITS_PER_THREAD}, the oldest of all once the column holds {@value #UNITS_PER_COLUMN}.
         */
        private static Unit[] keeping(Unit[] c, Unit loaded) {
            int mine = 0;
            int oldestMine = -1;
            for (int i = 0; i < c.length; i++) {
                if (c[i].reader == loaded.reader) {
                    mine++;
                    if (oldestMine < 0) {
                        oldestMine = i;
                    }
                }
            }
            int drop = mine >= UNITS_PER_THREAD ? oldestMine : c.length >= UNITS_PER_COLUMN ? 0 : -1;
            Unit[] next = new Unit[c.length + (drop < 0 ? 1 : 0)];
            int k = 0;
            for (int i = 0; i < c.length; i++) {
                if (i != drop) {
                    next[k++] = c[i];
                }
            }
            next[k] = loaded;
            return next;
        }

        private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            if (spilledUnits > 0) {
                throw new java.io.NotSerializableException("a column in a spill file stays where it was written");
            }
            out.defaultWriteObject();
        }
    }

    static final class Longs extends Spilled {
        private long[][] blocks = {new long[16]};

        /** Makes rows below {@code capacity} writable; see {@link Columns#nextCapacity}. */
        void grow(int capacity) {
            if (capacity <= BLOCK) {
                blocks[0] = Arrays.copyOf(blocks[0], capacity);
                return;
            }
            int b = (capacity - 1) >>> SHIFT;
            if (b >= blocks.length) {
                blocks = Arrays.copyOf(blocks, Math.max(b + 1, blocks.length * 2));
            }
            if (blocks[0].length < BLOCK) {
                blocks[0] = Arrays.copyOf(blocks[0], BLOCK);
            }
            // capacity grows one block at a time, so only the last block is new
            if (blocks[b] == null) {
                blocks[b] = new long[BLOCK];
            }
        }

        long get(int i) {
            long[] b = blocks[i >>> SHIFT];
            if (b != null) {
                return b[i & MASK];
            }
            return ((long[]) unit(i >>> UNIT_SHIFT))[i & (UNIT - 1)];
        }

        void set(int i, long v) {
            blocks[i >>> SHIFT][i & MASK] = v;
        }

        @Override
        Object[] blocks() {
            return blocks;
        }

        /**
         * The first row, then the differences of consecutive rows, zigzagged (small of either sign stays small), all
         * in the width of the widest: timestamps a few microseconds apart take 4 bytes instead of 8, a constant 0.
         * Differences wrap around as longs do, so every value comes back.
         */
        @Override
        void encode(java.nio.ByteBuffer buf, int u) {
            long[][] bl = blocks;
            long first = bl[u * BLOCKS_PER_UNIT][0];
            long prev = first;
            long all = 0;
            for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                long[] rows = bl[b];
                for (int i = 0; i < BLOCK; i++) {
                    long d = rows[i] - prev;
                    all |= (d << 1) ^ (d >> 63);
                    prev = rows[i];
                }
            }
            int w = (all >>> 32) != 0 ? 8 : (all >>> 16) != 0 ? 4 : (all >>> 8) != 0 ? 2 : all != 0 ? 1 : 0;
            buf.put((byte) w).putLong(first);
            if (w == 0) {
                return;
            }
            prev = first;
            for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                long[] rows = bl[b];
                for (int i = b == u * BLOCKS_PER_UNIT ? 1 : 0; i < BLOCK; i++) {
                    long d = rows[i] - prev;
                    long z = (d << 1) ^ (d >> 63);
                    prev = rows[i];
                    switch (w) {
                        case 1 -> buf.put((byte) z);
                        case 2 -> buf.putShort((short) z);
                        case 4 -> buf.putInt((int) z);
                        default -> buf.putLong(z);
                    }
                }
            }
        }

        @Override
        Object decode(java.nio.ByteBuffer buf) {
            long[] rows = new long[UNIT];
            int w = buf.get();
            long v = buf.getLong();
            rows[0] = v;
            if (w == 0) {
                Arrays.fill(rows, v);
                return rows;
            }
            for (int i = 1; i < UNIT; i++) {
                long z = switch (w) {
                    case 1 -> buf.get() & 0xFFL;
                    case 2 -> buf.getShort() & 0xFFFFL;
                    case 4 -> buf.getInt() & 0xFFFFFFFFL;
                    default -> buf.getLong();
                };
                v += (z >>> 1) ^ -(z & 1);
                rows[i] = v;
            }
            return rows;
        }
    }

    static final class Ints extends Spilled {
        private int[][] blocks = {new int[16]};

        /** Makes rows below {@code capacity} writable; see {@link Columns#nextCapacity}. */
        void grow(int capacity) {
            if (capacity <= BLOCK) {
                blocks[0] = Arrays.copyOf(blocks[0], capacity);
                return;
            }
            int b = (capacity - 1) >>> SHIFT;
            if (b >= blocks.length) {
                blocks = Arrays.copyOf(blocks, Math.max(b + 1, blocks.length * 2));
            }
            if (blocks[0].length < BLOCK) {
                blocks[0] = Arrays.copyOf(blocks[0], BLOCK);
            }
            // capacity grows one block at a time, so only the last block is new
            if (blocks[b] == null) {
                blocks[b] = new int[BLOCK];
            }
        }

        int get(int i) {
            int[] b = blocks[i >>> SHIFT];
            if (b != null) {
                return b[i & MASK];
            }
            return ((int[]) unit(i >>> UNIT_SHIFT))[i & (UNIT - 1)];
        }

        void set(int i, int v) {
            blocks[i >>> SHIFT][i & MASK] = v;
        }

        @Override
        Object[] blocks() {
            return blocks;
        }

        /** As {@link Longs#encode}, in ints: a communicator, tag or call path that repeats takes no bytes. */
        @Override
        void encode(java.nio.ByteBuffer buf, int u) {
            int[][] bl = blocks;
            int first = bl[u * BLOCKS_PER_UNIT][0];
            int prev = first;
            int all = 0;
            for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                int[] rows = bl[b];
                for (int i = 0; i < BLOCK; i++) {
                    int d = rows[i] - prev;
                    all |= (d << 1) ^ (d >> 31);
                    prev = rows[i];
                }
            }
            int w = (all >>> 16) != 0 ? 4 : (all >>> 8) != 0 ? 2 : all != 0 ? 1 : 0;
            buf.put((byte) w).putInt(first);
            if (w == 0) {
                return;
            }
            prev = first;
            for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                int[] rows = bl[b];
                for (int i = b == u * BLOCKS_PER_UNIT ? 1 : 0; i < BLOCK; i++) {
                    int d = rows[i] - prev;
                    int z = (d << 1) ^ (d >> 31);
                    prev = rows[i];
                    switch (w) {
                        case 1 -> buf.put((byte) z);
                        case 2 -> buf.putShort((short) z);
                        default -> buf.putInt(z);
                    }
                }
            }
        }

        @Override
        Object decode(java.nio.ByteBuffer buf) {
            int[] rows = new int[UNIT];
            int w = buf.get();
            int v = buf.getInt();
            rows[0] = v;
            if (w == 0) {
                Arrays.fill(rows, v);
                return rows;
            }
            for (int i = 1; i < UNIT; i++) {
                int z = switch (w) {
                    case 1 -> buf.get() & 0xFF;
                    case 2 -> buf.getShort() & 0xFFFF;
                    default -> buf.getInt();
                };
                v += (z >>> 1) ^ -(z & 1);
                rows[i] = v;
            }
            return rows;
        }

    }

    static final class Bytes extends Spilled {
        private byte[][] blocks = {new byte[16]};

        /** Makes rows below {@code capacity} writable; see {@link Columns#nextCapacity}. */
        void grow(int capacity) {
            if (capacity <= BLOCK) {
                blocks[0] = Arrays.copyOf(blocks[0], capacity);
                return;
            }
            int b = (capacity - 1) >>> SHIFT;
            if (b >= blocks.length) {
                blocks = Arrays.copyOf(blocks, Math.max(b + 1, blocks.length * 2));
            }
            if (blocks[0].length < BLOCK) {
                blocks[0] = Arrays.copyOf(blocks[0], BLOCK);
            }
            // capacity grows one block at a time, so only the last block is new
            if (blocks[b] == null) {
                blocks[b] = new byte[BLOCK];
            }
        }

        byte get(int i) {
            byte[] b = blocks[i >>> SHIFT];
            if (b != null) {
                return b[i & MASK];
            }
            return ((byte[]) unit(i >>> UNIT_SHIFT))[i & (UNIT - 1)];
        }

        void set(int i, byte v) {
            blocks[i >>> SHIFT][i & MASK] = v;
        }

        @Override
        Object[] blocks() {
            return blocks;
        }

        /** As they are. */
        @Override
        void encode(java.nio.ByteBuffer buf, int u) {
            for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                buf.put(blocks[b], 0, BLOCK);
            }
        }

        @Override
        Object decode(java.nio.ByteBuffer buf) {
            byte[] rows = new byte[UNIT];
            buf.get(rows);
            return rows;
        }

    }
}
