package dev.straggler.replay;

import java.util.Arrays;

/**
 * Growable primitive columns for the communication records: the first 1024 rows live in one array that doubles,
 * later rows in fixed blocks of 1024, so growing never copies more than a block, the slack stays under one block
 * per column, and a row is two array loads away ({@code blocks[i >>> 10][i & 1023]}). A table grows all its
 * columns together ({@link Columns#nextCapacity}), so adding a row costs one capacity check. Not thread-safe;
 * readers may share a column once it is no longer written.
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

    static final class Longs implements java.io.Serializable {
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
            return blocks[i >>> SHIFT][i & MASK];
        }

        void set(int i, long v) {
            blocks[i >>> SHIFT][i & MASK] = v;
        }


    }

    static final class Ints implements java.io.Serializable {
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
            return blocks[i >>> SHIFT][i & MASK];
        }

        void set(int i, int v) {
            blocks[i >>> SHIFT][i & MASK] = v;
        }

    }

    static final class Bytes implements java.io.Serializable {
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
            return blocks[i >>> SHIFT][i & MASK];
        }

        void set(int i, byte v) {
            blocks[i >>> SHIFT][i & MASK] = v;
        }

    }
}
