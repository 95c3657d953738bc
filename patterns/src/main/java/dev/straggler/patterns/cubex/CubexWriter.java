package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Writes a {@link SeverityCube} as a CUBE4 {@code .cubex} file for the Cube GUI and the CubeLib tools
 * (reference §3), laid out the way CubeW writes Scalasca's reports.
 *
 * <p>Every metric is written as Scalasca's remapped {@code trace.cubex} declares its metrics: stored, type
 * INCLUSIVE (each row holds the call path's value including its callees'; the cube itself is call-path exclusive,
 * so the writer sums subtrees), nested as the metric tree says, with dtype FLOAT/DOUBLE for times and
 * INTEGER/INT64 for counts and bytes (the first for a root metric, as Scalasca). An integer metric that holds a
 * non-integral value (a mean of counts, say) is written as floating point instead, so no value is rounded. Rows
 * are written in SPARSE format, in the INCLUSIVE enumeration of the call tree (reference §3.5): only rows with a
 * non-zero value, little-endian, columns in location order. A cube with Scalasca's metric tree also gets
 * Scalasca's ghost metric {@code bytes_received} (id 0, no values), so that metric ids pair with Scalasca's.
 *
 * <p>Ids: metrics are numbered in depth-first pre-order of their tree (children in cube order) after the ghost
 * metric; cnodes carry the cube's cnode ids (Scalasca's numbering) or else their pre-order position; regions keep
 * their position in {@link SeverityCube#regions()}. Locations are grouped by rank (one location group per rank, threads as its
 * locations); a cube whose locations are not already sorted by (rank, thread) has its columns reordered
 * accordingly. {@link CubexReader} returns call paths and locations in these file orders.
 *
 * <p>The output is deterministic (fixed tar timestamps) and replaces {@code out} atomically where the file
 * system allows. The cube must not change while it is written (freeze it first).
 */
public final class CubexWriter {
    private static final byte[] INDEX_MARKER = "CUBEX.INDEX".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_MARKER = "CUBEX.DATA".getBytes(StandardCharsets.US_ASCII);
    private static final byte FORMAT_SPARSE = 1;
    /** Values above this are not exact in a double, so an integer column could not hold them exactly anyway. */
    private static final double MAX_EXACT_LONG = 0x1p63;

    private CubexWriter() {
    }

    /**
     * Writes the cube to {@code out} (conventionally named {@code *.cubex}).
     *
     * @throws IllegalArgumentException when the cube has no metric, call path or location (a Cube file needs
     *                                  at least one of each)
     */
    public static void write(SeverityCube cube, Path out) throws IOException {
        Objects.requireNonNull(cube, "cube");
        requireDimensions(cube);
        Layout layout = layout(cube);
        CallTreeSums sums = new CallTreeSums(cube, layout.preOrder);
        boolean[] integer = new boolean[cube.metrics().size()];
        for (int m = 0; m < integer.length; m++) {
            integer[m] = cube.metrics().get(m).integer() && allIntegral(cube, m);
        }
        write(cube, layout, integer, new RowSource() {
            private int metric = -1;
            private double[][] rows;
            private int[] positions;

            private void load(int m) {
                if (m != metric) {
                    rows = sums.inclusiveRows(m);
                    int[] written = new int[rows.length];
                    int count = 0;
                    for (int pos = 0; pos < rows.length; pos++) {
                        if (nonZero(rows[pos])) {
                            written[count++] = pos;
                        }
                    }
                    positions = Arrays.copyOf(written, count);
                    metric = m;
                }
            }

            @Override
            public int[] positions(int m) {
                load(m);
                return positions;
            }

            @Override
            public void writeRows(int m, OutputStream into) throws IOException {
                load(m);
                ByteBuffer row = ByteBuffer.allocate(8 * layout.locationOrder.length).order(ByteOrder.LITTLE_ENDIAN);
                for (int pos : positions) {
                    encodeRow(rows[pos], layout.locationOrder, integer[m], row);
                    into.write(row.array());
                }
            }
        }, out);
    }

    private static void requireDimensions(SeverityCube cube) {
        if (cube.metrics().isEmpty() || cube.callPaths().isEmpty() || cube.locations().isEmpty()) {
            throw new IllegalArgumentException("a Cube file needs at least one metric, call path and location; this cube has "
                    + cube.metrics().size() + ", " + cube.callPaths().size() + ", " + cube.locations().size());
        }
    }

    /**
     * Where the rows of a file come from: the in-memory cube ({@link #write(SeverityCube, Path)}), or row blocks an
     * engine wrote elsewhere without ever holding the whole cube in one place.
     */
    public interface RowSource {
        /** The INCLUSIVE positions ({@link Layout#inclusivePosition}) of metric {@code m}'s rows with a non-zero value, ascending. */
        int[] positions(int m) throws IOException;

        /** Writes those rows, each encoded by {@link #encodeRow}, in the order of {@link #positions}. */
        void writeRows(int m, OutputStream into) throws IOException;
    }

    /**
     * How a cube's file is laid out: the order in which metrics are written, the call tree in pre-order with each
     * call path's position in the INCLUSIVE enumeration its rows are listed in, and the order of the locations in a
     * row. Depends only on the cube's metric tree, call tree and locations, not on its values.
     *
     * @param metricOrder       metric indices in the order their members are written (file ids after the ghost)
     * @param preOrder          call path ids in depth-first pre-order
     * @param parent            per call path, its parent (-1 for a root)
     * @param inclusivePosition per call path, the position of its row in a metric's data
     * @param locationOrder     the cube's location indices in the order of a row's columns
     * @param ghost             whether the file starts with Scalasca's ghost metric
     */
    public record Layout(int[] metricOrder, int[] preOrder, int[] parent, int[] inclusivePosition,
                         int[] locationOrder, boolean ghost) implements java.io.Serializable {
        /**
         * One location's INCLUSIVE values of one metric from its exclusive values per call path: each call path's
         * own value plus its callees', added in the order {@link #write(SeverityCube, Path)} adds a whole row
         * (callees in reverse pre-order, then the call path's own value), so that each location's value is the
         * same double.
         */
        public double[] inclusive(double[] exclusive) {
            int n = preOrder.length;
            double[] incl = new double[n];
            for (int k = n - 1; k >= 0; k--) {
                int c = preOrder[k];
                incl[c] += exclusive[c];
                if (parent[c] >= 0) {
                    incl[parent[c]] += incl[c];
                }
            }
            return incl;
        }
    }

    /** The layout of a cube's file (its metadata only is read). */
    public static Layout layout(SeverityCube cube) {
        int[] preOrder = callPathPreOrder(cube);
        CallTreeSums tree = new CallTreeSums(cube, preOrder);
        return new Layout(metricPreOrder(cube), preOrder, tree.parent, tree.inclusivePosition, locationOrder(cube),
                hasGhostBytesReceived(cube));
    }

    /**
     * Writes a cube file whose rows come from {@code rows}: the metric tree, call tree, system tree and attributes
     * are {@code shape}'s (its values are not read).
     *
     * @param integer per metric, whether its values are written as integers (an integer metric all of whose
     *                exclusive values are integral, as {@link #write(SeverityCube, Path)} decides)
     */
    public static void write(SeverityCube shape, Layout layout, boolean[] integer, RowSource rows, Path out)
            throws IOException {
        requireDimensions(shape);
        int[] metricOrder = layout.metricOrder;
        byte[] anchor = AnchorWriter.write(shape, metricOrder, integer, layout.preOrder, layout.locationOrder)
                .getBytes(StandardCharsets.UTF_8);
        if (anchor.length % 512 == 0) {
            // keep the member off a block boundary so plain tar and CubeLib agree on the padding (see TarWriter)
            anchor = Arrays.copyOf(anchor, anchor.length + 1);
            anchor[anchor.length - 1] = '\n';
        }

        Path dir = out.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, out.getFileName().toString(), ".tmp");
        try {
            try (TarWriter tar = new TarWriter(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20),
                    System.currentTimeMillis() / 1000)) {
                int locs = layout.locationOrder.length;
                if (layout.ghost) {
                    writeMember(tar, "ghost_0", new int[0], locs, null);
                }
                int firstId = layout.ghost ? 1 : 0;
                for (int k = 0; k < metricOrder.length; k++) {
                    int m = metricOrder[k];
                    writeMember(tar, Integer.toString(firstId + k), rows.positions(m), locs,
                            into -> rows.writeRows(m, into));
                }
                tar.beginMember("anchor.xml", anchor.length);
                tar.write(anchor);
                tar.endMember();
            }
            // a temporary file is private (0600); the cube is an ordinary file others may read, as Scalasca's are
            try {
                Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: its defaults apply
            }
            try {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * One row of a metric's data: the values (indexed by the cube's locations) in the file's location order,
     * little-endian, as 64-bit integers for an integer metric and doubles otherwise. {@code into} has room for one
     * row and is cleared first.
     */
    public static void encodeRow(double[] values, int[] locationOrder, boolean integer, ByteBuffer into) {
        into.clear();
        for (int l : locationOrder) {
            double x = values[l];
            if (integer) {
                into.putLong(Math.round(x));
            } else {
                into.putDouble(x);
            }
        }
    }

    /** True when a value can be written in an integer column (integral and exact in 64 bits). */
    public static boolean integral(double x) {
        return x == Math.rint(x) && Math.abs(x) < MAX_EXACT_LONG;
    }

    /** Unique name of the ghost metric Scalasca's remapped reports declare. */
    static final String GHOST_BYTES_RECEIVED = "bytes_received";

    /** True when the cube has Scalasca's metric tree (so its file gets Scalasca's ghost metric too). */
    static boolean hasGhostBytesReceived(SeverityCube cube) {
        return cube.metricIndex("time") >= 0 && cube.metricIndex("visits") >= 0 && cube.metricIndex("mpi") >= 0
                && cube.metricIndex(GHOST_BYTES_RECEIVED) < 0;
    }

    /** Cube dtype as Scalasca's remapped reports write it: FLOAT/INTEGER for a root metric, DOUBLE/INT64 below. */
    static String dtype(boolean integer, boolean root) {
        return integer ? (root ? "INTEGER" : "INT64") : (root ? "FLOAT" : "DOUBLE");
    }

    /** Writes a member's rows into an output stream. */
    private interface RowWriter {
        void write(OutputStream into) throws IOException;
    }

    /**
     * Data member then index member of one metric, as CubeW orders them.
     *
     * @param written the INCLUSIVE positions of the rows written, ascending
     */
    private static void writeMember(TarWriter tar, String base, int[] written, int locs, RowWriter rows)
            throws IOException {
        int count = written.length;
        long rowBytes = 8L * locs;
        tar.beginMember(base + ".data", DATA_MARKER.length + count * rowBytes);
        tar.write(DATA_MARKER);
        if (rows != null) {
            rows.write(new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    tar.write(new byte[] {(byte) b});
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    tar.write(b, off, len);
                }
            });
        }
        tar.endMember();

        ByteBuffer index = ByteBuffer.allocate(INDEX_MARKER.length + 4 + 2 + 1 + 4 + 4 * count).order(ByteOrder.LITTLE_ENDIAN);
        index.put(INDEX_MARKER).putInt(1).putShort((short) 0).put(FORMAT_SPARSE).putInt(count);
        for (int j = 0; j < count; j++) {
            index.putInt(written[j]);
        }
        tar.beginMember(base + ".index", index.capacity());
        tar.write(index.array());
        tar.endMember();
    }

    /**
     * Inclusive values along the call tree, one metric at a time, in the INCLUSIVE enumeration of the tree the
     * anchor declares (children in document order).
     */
    private static final class CallTreeSums {
        private final SeverityCube cube;
        private final int[] preOrder;
        /** Position in the INCLUSIVE enumeration of each call path. */
        final int[] inclusivePosition;
        final int[] parent;

        CallTreeSums(SeverityCube cube, int[] preOrder) {
            this.cube = cube;
            this.preOrder = preOrder;
            int n = preOrder.length;
            List<int[]> children = new ArrayList<>(n);
            List<List<Integer>> lists = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                lists.add(new ArrayList<>());
            }
            List<Integer> roots = new ArrayList<>();
            parent = new int[n];
            // children in document order = pre-order
            for (int c : preOrder) {
                int p = cube.callPaths().get(c).parent();
                parent[c] = p;
                if (p < 0) {
                    roots.add(c);
                } else {
                    lists.get(p).add(c);
                }
            }
            for (List<Integer> l : lists) {
                children.add(l.stream().mapToInt(Integer::intValue).toArray());
            }
            int[] order = CnodeOrder.inclusive(children, roots.stream().mapToInt(Integer::intValue).toArray(), n);
            inclusivePosition = new int[n];
            for (int pos = 0; pos < n; pos++) {
                inclusivePosition[order[pos]] = pos;
            }
        }

        /** Rows by INCLUSIVE position: each call path's values plus all its callees'. */
        double[][] inclusiveRows(int metric) {
            int n = preOrder.length;
            int locs = cube.locations().size();
            double[][] incl = new double[n][];
            // reverse pre-order visits every callee before its caller
            for (int k = n - 1; k >= 0; k--) {
                int c = preOrder[k];
                double[] own = cube.rowOrNull(metric, c);
                if (own != null) {
                    if (incl[c] == null) {
                        incl[c] = own.clone();
                    } else {
                        for (int l = 0; l < locs; l++) {
                            incl[c][l] += own[l];
                        }
                    }
                }
                int p = parent[c];
                if (p >= 0 && incl[c] != null) {
                    if (incl[p] == null) {
                        incl[p] = incl[c].clone();
                    } else {
                        double[] into = incl[p];
                        double[] from = incl[c];
                        for (int l = 0; l < locs; l++) {
                            into[l] += from[l];
                        }
                    }
                }
            }
            double[][] byPosition = new double[n][];
            for (int c = 0; c < n; c++) {
                byPosition[inclusivePosition[c]] = incl[c];
            }
            return byPosition;
        }
    }

    private static boolean nonZero(double[] row) {
        if (row != null) {
            for (double x : row) {
                if (x != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean allIntegral(SeverityCube cube, int metric) {
        for (int c = 0; c < cube.callPaths().size(); c++) {
            double[] row = cube.rowOrNull(metric, c);
            if (row != null) {
                for (double x : row) {
                    if (!integral(x)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Metric indices in pre-order of the metric tree, roots and siblings in cube order. */
    static int[] metricPreOrder(SeverityCube cube) {
        List<Metric> metrics = cube.metrics();
        List<List<Integer>> children = new ArrayList<>();
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < metrics.size(); i++) {
            children.add(new ArrayList<>());
        }
        for (int i = 0; i < metrics.size(); i++) {
            String parent = metrics.get(i).parent();
            if (parent == null) {
                roots.add(i);
            } else {
                children.get(cube.metricIndex(parent)).add(i);
            }
        }
        int[] order = new int[metrics.size()];
        int k = 0;
        ArrayList<Integer> stack = new ArrayList<>();
        for (int r = roots.size() - 1; r >= 0; r--) {
            stack.add(roots.get(r));
        }
        while (!stack.isEmpty()) {
            int m = stack.remove(stack.size() - 1);
            if (k == order.length) {
                throw new IllegalArgumentException("metric tree has a cycle through " + metrics.get(m).uniqueName());
            }
            order[k++] = m;
            List<Integer> ch = children.get(m);
            for (int i = ch.size() - 1; i >= 0; i--) {
                stack.add(ch.get(i));
            }
        }
        if (k != order.length) {
            throw new IllegalArgumentException("metric tree has a cycle: only " + k + " of " + order.length + " metrics reachable from the roots");
        }
        // metrics that do not apply to the experiment (OpenMP ones of a pure-MPI run) are not written
        int kept = 0;
        for (int i = 0; i < order.length; i++) {
            if (!cube.isOmitted(order[i])) {
                order[kept++] = order[i];
            }
        }
        return Arrays.copyOf(order, kept);
    }

    /** Call path ids in depth-first pre-order, roots and siblings in id order. */
    static int[] callPathPreOrder(SeverityCube cube) {
        List<CallPath> paths = cube.callPaths();
        int n = paths.size();
        // children as a CSR array: parents have smaller ids, so one counting pass suffices
        int[] childCount = new int[n + 1];
        for (CallPath c : paths) {
            childCount[c.parent() + 1]++;
        }
        int[] start = new int[n + 2];
        for (int i = 0; i <= n; i++) {
            start[i + 1] = start[i] + childCount[i];
        }
        int[] fill = Arrays.copyOf(start, n + 1);
        int[] child = new int[n];
        for (CallPath c : paths) {
            child[fill[c.parent() + 1]++] = c.id();
        }
        int[] order = new int[n];
        int[] stack = new int[n];
        int top = 0;
        int k = 0;
        for (int i = start[1] - 1; i >= start[0]; i--) {
            stack[top++] = child[i];
        }
        while (top > 0) {
            int c = stack[--top];
            order[k++] = c;
            for (int i = start[c + 2] - 1; i >= start[c + 1]; i--) {
                stack[top++] = child[i];
            }
        }
        return order;
    }

    /** Location indices sorted by (rank, thread), stable; the identity for cubes built rank by rank. */
    static int[] locationOrder(SeverityCube cube) {
        List<SystemLocation> locs = cube.locations();
        Integer[] order = new Integer[locs.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingInt(i -> locs.get(i).rank()).thenComparingInt(i -> locs.get(i).thread()));
        return Arrays.stream(order).mapToInt(Integer::intValue).toArray();
    }
}
