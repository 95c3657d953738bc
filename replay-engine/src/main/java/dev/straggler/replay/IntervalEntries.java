package dev.straggler.replay;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The entries of one location's interval times, (call path, seconds) in interval order ({@link CallPathIntervals}),
 * in blocks of {@link #BLOCK}. They are written once, by the second pass, and read by the backward replay from the
 * last interval to the first, each sum reaching back only a few intervals (docs/root-causes.md, "What 10^9 events
 * in 8 GiB would take"). So a location with a spill file and more than {@link #SPILL_AFTER} full blocks writes its
 * full blocks there, unless the file's allowance lets the new block stay on the heap ({@link SpillFile#allowOnHeap}),
 * and keeps on the heap only the block being written and, when reading, the two blocks read last:
 * the collected heap no longer grows with the entries (12 bytes each, about a fifth of what the root-cause stage
 * holds), and collections no longer copy them. Smaller locations keep their blocks, the first one grown by doubling
 * and the last one trimmed, so that a trace of many small locations holds no slack.
 *
 * <p>Written by one thread, then read by one thread at a time (a location is on one analysis thread at a time); a
 * {@link Block} returned by {@link #block} stays valid until two other blocks have been read.
 */
public final class IntervalEntries implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    public static final int SHIFT = 12;
    /** Entries per block. */
    public static final int BLOCK = 1 << SHIFT;
    private static final int MASK = BLOCK - 1;
    /** Full blocks a location keeps on the heap; with one more it spills them all (when it has a spill file). */
    static final int SPILL_AFTER = 8;
    private static final int BLOCK_BYTES = BLOCK * (Integer.BYTES + Double.BYTES);
    private static final int INITIAL = 16;

    /** Entries {@code [index·BLOCK, index·BLOCK + length)}: their call paths and seconds. */
    public static final class Block implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private int[] path;
        private double[] seconds;
        private transient int index = -1;

        private Block(int capacity) {
            path = new int[capacity];
            seconds = new double[capacity];
        }

        /** The call paths of the block's entries, indexed by entry minus the block's first entry. */
        public int[] paths() {
            return path;
        }

        /** The seconds of the block's entries, indexed as {@link #paths}. */
        public double[] seconds() {
            return seconds;
        }
    }

    private final transient SpillFile spill;
    private final transient IntUnaryOperator pathMap;
    /** Per block, on the heap; null where spilled. */
    private Block[] blocks = new Block[4];
    /** Per block, its position in the spill file; null while nothing is spilled. */
    private long[] offsets;
    /** Blocks below this one are in the spill file. */
    private int spilledBelow;
    private int size;
    /** The two blocks read back last, and which of them was used last. */
    private transient Block[] cache;
    private transient int recent;

    /**
     * @param spill    where full blocks go once there are more than {@link #SPILL_AFTER}; null keeps them all
     * @param pathMap  applied to each entry's call path as it is written (null: as given)
     */
    IntervalEntries(SpillFile spill, IntUnaryOperator pathMap) {
        this.spill = spill;
        this.pathMap = pathMap;
    }

    // --- writing ----------------------------------------------------------------------------------------------

    void add(int path, double seconds) {
        int i = size & MASK;
        int b = size >>> SHIFT;
        if (i == 0) {
            if (size == Integer.MAX_VALUE) {
                throw new IllegalStateException("more than 2^31 call-path interval entries on one location");
            }
            open(b);
        }
        Block cur = blocks[b];
        if (i == cur.path.length) {
            int cap = Math.min(BLOCK, i * 2);
            cur.path = Arrays.copyOf(cur.path, cap);
            cur.seconds = Arrays.copyOf(cur.seconds, cap);
        }
        cur.path[i] = pathMap == null ? path : pathMap.applyAsInt(path);
        cur.seconds[i] = seconds;
        size++;
    }

    /** Starts block {@code b}, the ones before it being full; spills them first when there are enough. */
    private void open(int b) {
        if (b >= blocks.length) {
            blocks = Arrays.copyOf(blocks, blocks.length * 2);
        }
        Block reuse = null;
        if (spill != null && b > SPILL_AFTER && !spill.keepOnHeap(BLOCK_BYTES)) {
            if (offsets == null) {
                offsets = new long[blocks.length];
            } else if (offsets.length < blocks.length) {
                offsets = Arrays.copyOf(offsets, blocks.length);
            }
            for (; spilledBelow < b; spilledBelow++) {
                reuse = blocks[spilledBelow];
                offsets[spilledBelow] = write(reuse);
                blocks[spilledBelow] = null;
            }
        }
        blocks[b] = reuse != null ? reuse : new Block(b == 0 ? INITIAL : BLOCK);
    }

    private long write(Block full) {
        ByteBuffer io = SpillFile.threadBuffer();
        io.asIntBuffer().put(full.path, 0, BLOCK);
        io.position(BLOCK * Integer.BYTES);
        io.asDoubleBuffer().put(full.seconds, 0, BLOCK);
        io.position(0).limit(BLOCK_BYTES);
        return spill.write(io);
    }

    /** No more entries: trims the last block. */
    void finish() {
        if (size > 0) {
            int last = (size - 1) >>> SHIFT;
            int n = size - (last << SHIFT);
            Block b = blocks[last];
            if (b.path.length > n) {
                b.path = Arrays.copyOf(b.path, n);
                b.seconds = Arrays.copyOf(b.seconds, n);
            }
        }
        blocks = Arrays.copyOf(blocks, size == 0 ? 0 : ((size - 1) >>> SHIFT) + 1);
    }

    // --- reading ----------------------------------------------------------------------------------------------

    /** Number of entries. */
    public int size() {
        return size;
    }

    /** True when some of the blocks are in the spill file. */
    public boolean spilled() {
        return spilledBelow > 0;
    }

    /** The block holding entries from {@code b·BLOCK}; read back from the spill file if it is there. */
    public Block block(int b) {
        Block r = blocks[b];
        return r != null ? r : readBack(b);
    }

    private Block readBack(int b) {
        if (cache == null) {
            cache = new Block[]{new Block(BLOCK), new Block(BLOCK)};
        }
        if (cache[recent].index == b) {
            return cache[recent];
        }
        recent ^= 1;
        Block slot = cache[recent];
        if (slot.index != b) {
            ByteBuffer io = SpillFile.threadBuffer().limit(BLOCK_BYTES);
            spill.read(io, offsets[b]);
            io.position(0);
            io.asIntBuffer().get(slot.path, 0, BLOCK);
            io.position(BLOCK * Integer.BYTES);
            io.asDoubleBuffer().get(slot.seconds, 0, BLOCK);
            slot.index = b;
        }
        return slot;
    }

    public int path(int e) {
        return block(e >>> SHIFT).path[e & MASK];
    }

    public double seconds(int e) {
        return block(e >>> SHIFT).seconds[e & MASK];
    }

    /** Bytes on the heap: the blocks kept there and the two read back. */
    long heapBytes() {
        long n = 0;
        for (Block b : blocks) {
            if (b != null) {
                n += 12L * b.path.length;
            }
        }
        return n + (cache == null ? 0 : 2L * BLOCK_BYTES);
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        if (spilled()) {
            throw new NotSerializableException("interval entries in a spill file stay where they were written");
        }
        out.defaultWriteObject();
    }
}
