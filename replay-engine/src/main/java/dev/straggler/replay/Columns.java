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
 * ({@code spill}); a read of a spilled row then reads its unit back and keeps the two units read last (immutable
 * once published, so readers on several threads may share the column still).
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

    /** A unit read back from the spill file: its index and its rows. */
    private record Unit(int index, Object rows) {
    }

    /**
     * Per spilled unit its position in the file, and the two units read last, shared by the column's readers: what
     * the three column types have in common.
     */
    private abstract static class Spilled implements java.io.Serializable {
        private transient SpillFile file;
        private long[] offsets;
        /** Units below this one are in the file. */
        int spilledUnits;
        private transient volatile Unit recent;
        private transient volatile Unit previous;

        /** Bytes per row. */
        abstract int width();

        /** The column's blocks (an array of primitive arrays). */
        abstract Object[] blocks();

        /** Copies a unit's rows from the buffer into a new array of the column's type. */
        abstract Object rowsFrom(java.nio.ByteBuffer buf);

        /** Appends block {@code b} to the buffer. */
        abstract void put(java.nio.ByteBuffer buf, int b);

        /**
         * Moves every full unit of the first {@code rows} rows to {@code f}; the column must not be written
         * afterwards.
         */
        final void spill(SpillFile f, int rows) {
            int units = rows >>> UNIT_SHIFT;
            if (units == 0) {
                return;
            }
            file = f;
            offsets = new long[units];
            java.nio.ByteBuffer buf = SpillFile.threadBuffer();
            for (int u = 0; u < units; u++) {
                buf.clear();
                for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                    put(buf, b);
                }
                buf.flip();
                offsets[u] = f.write(buf);
                for (int b = u * BLOCKS_PER_UNIT; b < (u + 1) * BLOCKS_PER_UNIT; b++) {
                    blocks()[b] = null;
                }
            }
            spilledUnits = units;
        }

        /** The rows of spilled unit {@code u}: one of the two read last, else read back. */
        final Object unit(int u) {
            Unit r = recent;
            if (r != null && r.index == u) {
                return r.rows;
            }
            Unit p = previous;
            if (p != null && p.index == u) {
                return p.rows;
            }
            java.nio.ByteBuffer buf = SpillFile.threadBuffer().limit(UNIT * width());
            file.read(buf, offsets[u]);
            buf.flip();
            Unit loaded = new Unit(u, rowsFrom(buf));
            previous = r;
            recent = loaded;
            return loaded.rows;
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
        int width() {
            return 8;
        }

        @Override
        Object[] blocks() {
            return blocks;
        }

        @Override
        void put(java.nio.ByteBuffer buf, int b) {
            buf.asLongBuffer().put(blocks[b], 0, BLOCK);
            buf.position(buf.position() + BLOCK * 8);
        }

        @Override
        Object rowsFrom(java.nio.ByteBuffer buf) {
            long[] rows = new long[UNIT];
            buf.asLongBuffer().get(rows);
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
        int width() {
            return 4;
        }

        @Override
        Object[] blocks() {
            return blocks;
        }

        @Override
        void put(java.nio.ByteBuffer buf, int b) {
            buf.asIntBuffer().put(blocks[b], 0, BLOCK);
            buf.position(buf.position() + BLOCK * 4);
        }

        @Override
        Object rowsFrom(java.nio.ByteBuffer buf) {
            int[] rows = new int[UNIT];
            buf.asIntBuffer().get(rows);
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
        int width() {
            return 1;
        }

        @Override
        Object[] blocks() {
            return blocks;
        }

        @Override
        void put(java.nio.ByteBuffer buf, int b) {
            buf.put(blocks[b], 0, BLOCK);
        }

        @Override
        Object rowsFrom(java.nio.ByteBuffer buf) {
            byte[] rows = new byte[UNIT];
            buf.get(rows);
            return rows;
        }

    }
}
