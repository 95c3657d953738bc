package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;

import java.io.BufferedOutputStream;
import java.io.IOException;
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
 * <p>Every metric is written as a stored EXCLUSIVE metric (the cube is call-path exclusive), nested as the
 * metric tree says, with dtype FLOAT for times and INTEGER for counts and bytes. An integer metric that holds
 * a non-integral value (a mean of counts, say) is written as FLOAT instead, so no value is rounded. Rows are
 * written in SPARSE format: only (metric, call path) rows with a non-zero value, little-endian, columns in
 * location order.
 *
 * <p>Ids: metrics and cnodes are numbered in depth-first pre-order of their trees (children in cube order),
 * which makes a metric's row order equal to the cnode ids; regions keep their position in
 * {@link SeverityCube#regions()}. Locations are grouped by rank (one location group per rank, threads as its
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
        if (cube.metrics().isEmpty() || cube.callPaths().isEmpty() || cube.locations().isEmpty()) {
            throw new IllegalArgumentException("a Cube file needs at least one metric, call path and location; this cube has "
                    + cube.metrics().size() + ", " + cube.callPaths().size() + ", " + cube.locations().size());
        }
        int[] metricOrder = metricPreOrder(cube);
        int[] cnodeOrder = callPathPreOrder(cube);
        int[] locationOrder = locationOrder(cube);
        boolean[] integer = new boolean[cube.metrics().size()];
        for (int m = 0; m < integer.length; m++) {
            integer[m] = cube.metrics().get(m).integer() && allIntegral(cube, m);
        }
        byte[] anchor = AnchorWriter.write(cube, metricOrder, integer, cnodeOrder, locationOrder)
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
                for (int id = 0; id < metricOrder.length; id++) {
                    writeMetric(tar, cube, id, metricOrder[id], integer[metricOrder[id]], cnodeOrder, locationOrder);
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

    /** Data member then index member of one metric, as CubeW orders them. */
    private static void writeMetric(TarWriter tar, SeverityCube cube, int id, int metric, boolean integer,
                                    int[] cnodeOrder, int[] locationOrder) throws IOException {
        int locs = locationOrder.length;
        // rows written: cnode ids (= positions of the EXCLUSIVE enumeration) whose row has a non-zero value
        int[] rows = new int[cnodeOrder.length];
        int count = 0;
        for (int cnode = 0; cnode < cnodeOrder.length; cnode++) {
            if (nonZero(cube.rowOrNull(metric, cnodeOrder[cnode]))) {
                rows[count++] = cnode;
            }
        }
        long rowBytes = 8L * locs;
        tar.beginMember(id + ".data", DATA_MARKER.length + count * rowBytes);
        tar.write(DATA_MARKER);
        ByteBuffer row = ByteBuffer.allocate((int) rowBytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int j = 0; j < count; j++) {
            double[] v = cube.rowOrNull(metric, cnodeOrder[rows[j]]);
            row.clear();
            for (int l = 0; l < locs; l++) {
                double x = v[locationOrder[l]];
                if (integer) {
                    row.putLong((long) x);
                } else {
                    row.putDouble(x);
                }
            }
            tar.write(row.array());
        }
        tar.endMember();

        ByteBuffer index = ByteBuffer.allocate(INDEX_MARKER.length + 4 + 2 + 1 + 4 + 4 * count).order(ByteOrder.LITTLE_ENDIAN);
        index.put(INDEX_MARKER).putInt(1).putShort((short) 0).put(FORMAT_SPARSE).putInt(count);
        for (int j = 0; j < count; j++) {
            index.putInt(rows[j]);
        }
        tar.beginMember(id + ".index", index.capacity());
        tar.write(index.array());
        tar.endMember();
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
                    if (x != Math.rint(x) || Math.abs(x) >= MAX_EXACT_LONG) {
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
        return order;
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
