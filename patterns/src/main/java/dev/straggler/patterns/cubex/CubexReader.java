package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceFormatException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads a CUBE4 {@code .cubex} file (written by Scalasca, Score-P, CubeLib tools or {@link CubexWriter})
 * into a {@link SeverityCube}.
 *
 * <p>What is read: every metric whose values are stored in the file (types EXCLUSIVE, INCLUSIVE and SIMPLE)
 * with a summable scalar dtype (FLOAT/DOUBLE, signed and unsigned integers). INCLUSIVE metrics store
 * call-tree inclusive rows; they are turned into exclusive values (own row minus the children's rows),
 * the way Cube shows the exclusive flavour, so every metric of the result is call-path exclusive.
 * Metric-tree values are used as stored, which in Cube is always inclusive of child metrics.
 *
 * <p>What is skipped, and listed in {@link CubexReadResult#skipped()}: derived metrics (POSTDERIVED,
 * PREDERIVED_*: only a CubePL expression is stored, which this reader does not evaluate), ghost metrics
 * (hidden helpers), and metrics with non-summable dtypes (MINDOUBLE, MAXDOUBLE, TAU_ATOMIC, HISTOGRAM, ...).
 * A kept metric whose parent was skipped hangs under its nearest kept ancestor, or becomes a root.
 *
 * <p>Call paths are numbered in anchor document order (a depth-first pre-order, so parents precede
 * children); {@link CubexReadResult#cnodeIds()} maps them back to the file's cnode ids. Locations are
 * ordered by their id, which is the column order of the data rows.
 *
 * <p>Malformed input raises {@link TraceFormatException} naming the file, the member and the position.
 */
public final class CubexReader {
    private static final byte[] INDEX_MARKER = "CUBEX.INDEX".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_MARKER = "CUBEX.DATA".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ZDATA_MARKER = "ZCUBEX.DATA".getBytes(StandardCharsets.US_ASCII);
    private static final int FORMAT_SPARSE = 1;
    private static final int FORMAT_DENSE = 3;

    private final Path file;
    private final FileChannel ch;
    private final Map<String, TarIndex.Member> members;

    private CubexReader(Path file, FileChannel ch) throws IOException {
        this.file = file;
        this.ch = ch;
        this.members = TarIndex.read(ch, file);
    }

    /** Reads the stored metrics of a {@code .cubex} file; see the class comment for what is skipped. */
    public static SeverityCube read(Path file) throws IOException {
        return readDetailed(file).cube();
    }

    /** Like {@link #read}, also telling which metrics were skipped and the file's ids of cnodes and metrics. */
    public static CubexReadResult readDetailed(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return new CubexReader(file, ch).run();
        }
    }

    private CubexReadResult run() throws IOException {
        TarIndex.Member anchorMember = members.get("anchor.xml");
        if (anchorMember == null) {
            throw new TraceFormatException(file + ": no anchor.xml in the archive (members: " + members.keySet() + ")");
        }
        Anchor a = AnchorParser.parse(new ByteArrayInputStream(bytes(anchorMember)), file + "!anchor.xml");

        List<Region> regions = new ArrayList<>();
        Map<Integer, Integer> regionByFileId = new HashMap<>();
        List<Anchor.RegionDef> regionDefs = new ArrayList<>(a.regions);
        regionDefs.sort(Comparator.comparingInt(g -> g.fileId));
        for (Anchor.RegionDef g : regionDefs) {
            int index = regions.size();
            if (regionByFileId.put(g.fileId, index) != null) {
                throw new TraceFormatException(file + "!anchor.xml: region id " + g.fileId + " defined twice");
            }
            String canonical = g.mangledName == null || g.mangledName.isEmpty() ? g.name : g.mangledName;
            regions.add(new Region(index, g.name, canonical, g.mod, Math.max(0, g.begin), Math.max(0, g.end),
                    CubeRegionNames.paradigm(g.paradigm), CubeRegionNames.role(g.role)));
        }

        int n = a.cnodes.size();
        if (n == 0) {
            throw new TraceFormatException(file + "!anchor.xml: no call tree (no <cnode>)");
        }
        List<CallPath> callPaths = new ArrayList<>(n);
        int[] cnodeIds = new int[n];
        List<List<Integer>> childLists = new ArrayList<>(n);
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Anchor.CnodeDef c = a.cnodes.get(i);
            Integer region = regionByFileId.get(c.calleeId);
            if (region == null) {
                throw new TraceFormatException(file + "!anchor.xml: cnode " + c.fileId + " calls undefined region " + c.calleeId);
            }
            callPaths.add(new CallPath(i, c.parent, region, Math.max(0, c.line)));
            cnodeIds[i] = c.fileId;
            childLists.add(new ArrayList<>());
            if (c.parent < 0) {
                roots.add(i);
            } else {
                childLists.get(c.parent).add(i);
            }
        }
        List<int[]> children = new ArrayList<>(n);
        for (List<Integer> l : childLists) {
            children.add(l.stream().mapToInt(Integer::intValue).toArray());
        }

        List<Anchor.LocationDef> locDefs = new ArrayList<>(a.locations);
        locDefs.sort(Comparator.comparingInt(l -> l.fileId));
        List<SystemLocation> locations = new ArrayList<>();
        for (int i = 0; i < locDefs.size(); i++) {
            Anchor.LocationDef l = locDefs.get(i);
            if (l.fileId != i) {
                throw new TraceFormatException(file + "!anchor.xml: location ids are not 0.." + (locDefs.size() - 1)
                        + " (found id " + l.fileId + " at position " + i + ")");
            }
            locations.add(new SystemLocation(i, a.groups.get(l.group).rank, l.rank, l.name,
                    hostPath(a, a.groups.get(l.group).node)));
        }
        if (locations.isEmpty()) {
            throw new TraceFormatException(file + "!anchor.xml: no <location> in the system tree");
        }

        // decide which metrics are kept; children of skipped metrics hang under the nearest kept ancestor
        List<CubexReadResult.SkippedMetric> skipped = new ArrayList<>();
        int nm = a.metrics.size();
        boolean[] keep = new boolean[nm];
        CubeDataType[] types = new CubeDataType[nm];
        List<Metric> metrics = new ArrayList<>();
        List<Integer> keptDefs = new ArrayList<>();
        for (int i = 0; i < nm; i++) {
            Anchor.MetricDef m = a.metrics.get(i);
            String reason = skipReason(m);
            if (reason != null) {
                skipped.add(new CubexReadResult.SkippedMetric(m.uniqueName, reason));
                continue;
            }
            keep[i] = true;
            types[i] = CubeDataType.of(m.dtype);
            int p = m.parent;
            while (p >= 0 && !keep[p]) {
                p = a.metrics.get(p).parent;
            }
            String parent = p < 0 ? null : a.metrics.get(p).uniqueName;
            String display = m.displayName.isEmpty() ? m.uniqueName : m.displayName;
            metrics.add(new Metric(m.uniqueName, display, m.uom, types[i].integer, parent, m.descr));
            keptDefs.add(i);
        }

        SeverityCube cube;
        try {
            cube = new SeverityCube(metrics, regions, callPaths, locations, a.attributes);
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(file + "!anchor.xml: " + e.getMessage(), e);
        }
        try {
            // keep the file's cnode ids, so that writing the cube again numbers its call tree as its maker did
            cube.setCnodeIds(cnodeIds);
        } catch (IllegalArgumentException e) {
            // ids that are not 0..n-1: the writer numbers in tree order
        }

        int[] preOrder = CnodeOrder.exclusive(n);
        int[] wide = null;
        int[] simple = null;
        int[] metricIds = new int[keptDefs.size()];
        for (int k = 0; k < keptDefs.size(); k++) {
            Anchor.MetricDef m = a.metrics.get(keptDefs.get(k));
            metricIds[k] = m.fileId;
            int[] order;
            boolean inclusive = false;
            switch (m.type) {
                case "INCLUSIVE" -> {
                    if (wide == null) {
                        wide = CnodeOrder.inclusive(children, roots.stream().mapToInt(Integer::intValue).toArray(), n);
                    }
                    order = wide;
                    inclusive = true;
                }
                case "SIMPLE" -> {
                    if (simple == null) {
                        Integer[] byId = new Integer[n];
                        for (int i = 0; i < n; i++) {
                            byId[i] = i;
                        }
                        Arrays.sort(byId, Comparator.comparingInt(i -> cnodeIds[i]));
                        simple = Arrays.stream(byId).mapToInt(Integer::intValue).toArray();
                    }
                    order = simple;
                }
                default -> order = preOrder;
            }
            readMetric(cube, k, m, types[keptDefs.get(k)], order, inclusive, children);
        }
        return new CubexReadResult(cube.freeze(), cnodeIds, metricIds, skipped);
    }

    private static String skipReason(Anchor.MetricDef m) {
        switch (m.type) {
            case "EXCLUSIVE", "INCLUSIVE", "SIMPLE", "" -> {
            }
            case "POSTDERIVED", "PREDERIVED_EXCLUSIVE", "PREDERIVED_INCLUSIVE" -> {
                return "derived metric (" + m.type + "): only its CubePL expression is stored, not evaluated";
            }
            default -> {
                return "unknown metric type " + m.type;
            }
        }
        if (m.ghost) {
            return "ghost metric (a hidden helper in Cube)";
        }
        if (CubeDataType.of(m.dtype) == null) {
            return "dtype " + m.dtype + " does not add up over call paths and locations";
        }
        if (m.uniqueName.isEmpty()) {
            return "metric id " + m.fileId + " has no unique name";
        }
        return null;
    }

    private void readMetric(SeverityCube cube, int metric, Anchor.MetricDef m, CubeDataType type, int[] order,
                            boolean inclusive, List<int[]> children) throws IOException {
        String base = m.fileId + "";
        TarIndex.Member index = members.get(base + ".index");
        TarIndex.Member data = members.get(base + ".data");
        if (index == null && data == null) {
            return; // nothing stored: Cube shows such a metric as zero everywhere
        }
        if (index == null || data == null) {
            throw new TraceFormatException(file + ": metric " + m.uniqueName + " has " + (index == null ? "no " : "")
                    + base + ".index but " + (data == null ? "no " : "") + base + ".data");
        }
        int n = order.length;
        ByteBuffer ib = ByteBuffer.wrap(bytes(index));
        String where = file + "!" + base + ".index";
        if (ib.remaining() < INDEX_MARKER.length + 7 || !startsWith(ib, INDEX_MARKER)) {
            throw new TraceFormatException(where + ": no CUBEX.INDEX header");
        }
        ib.position(INDEX_MARKER.length);
        ByteOrder bo = byteOrder(ib, where);
        ib.order(bo);
        ib.getInt();
        ib.getShort(); // version, 0 in every known writer
        int format = ib.get() & 0xff;
        int[] positions;
        if (format == FORMAT_DENSE) {
            positions = CnodeOrder.exclusive(n);
        } else if (format == FORMAT_SPARSE) {
            long count = Integer.toUnsignedLong(ib.getInt());
            if (count > n || ib.remaining() < count * 4) {
                throw new TraceFormatException(where + ": sparse index lists " + count + " rows, call tree has " + n
                        + ", " + ib.remaining() + " bytes left");
            }
            positions = new int[(int) count];
            for (int j = 0; j < count; j++) {
                positions[j] = ib.getInt();
                if (positions[j] < 0 || positions[j] >= n || (j > 0 && positions[j] <= positions[j - 1])) {
                    throw new TraceFormatException(where + ": entry " + j + " (" + positions[j]
                            + ") is not an increasing position below " + n);
                }
            }
        } else {
            throw new TraceFormatException(where + ": index format " + format + " is not supported (SPARSE=1, DENSE=3)");
        }

        int locs = cube.locations().size();
        int rowBytes = locs * type.size;
        double[][] incl = inclusive ? new double[n][] : null;
        RowSource rows = rowSource(data, positions.length, rowBytes, bo);
        double[] values = new double[locs];
        for (int j = 0; j < positions.length; j++) {
            ByteBuffer row = rows.row(j);
            for (int l = 0; l < locs; l++) {
                values[l] = type.read(row);
            }
            int callPath = order[positions[j]];
            if (inclusive) {
                incl[callPath] = values.clone();
            } else {
                for (int l = 0; l < locs; l++) {
                    cube.set(metric, callPath, l, values[l]);
                }
            }
        }
        if (inclusive) {
            // Cube's exclusive flavour of an inclusive metric: own value minus the children's inclusive values. The
            // writer summed in floating point, so a call path without own value comes back as a residue of a few
            // ulps of the sums (e.g. 1e-19 s, or -1e-19 s); a residue within that rounding bound is the zero it was.
            double[] magnitude = new double[locs];
            for (int c = 0; c < n; c++) {
                double[] own = incl[c];
                double[] excl = own == null ? new double[locs] : own.clone();
                int terms = 1;
                for (int l = 0; l < locs; l++) {
                    magnitude[l] = Math.abs(excl[l]);
                }
                for (int child : children.get(c)) {
                    double[] ch = incl[child];
                    if (ch != null) {
                        terms++;
                        for (int l = 0; l < locs; l++) {
                            excl[l] -= ch[l];
                            magnitude[l] += Math.abs(ch[l]);
                        }
                    }
                }
                for (int l = 0; l < locs; l++) {
                    double x = excl[l];
                    if (terms > 1 && x != 0 && Math.abs(x) <= 2 * terms * Math.ulp(magnitude[l])) {
                        x = 0;
                    }
                    cube.set(metric, c, l, x);
                }
            }
        }
    }

    /** Rows of one data member, uncompressed or zlib-compressed row by row. */
    private interface RowSource {
        ByteBuffer row(int j) throws IOException;
    }

    private RowSource rowSource(TarIndex.Member data, int nRows, int rowBytes, ByteOrder bo) throws IOException {
        String where = file + "!" + data.name();
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(ZDATA_MARKER.length, data.size()));
        TarIndex.readFully(ch, head, data.offset(), file);
        ByteBuffer row = ByteBuffer.allocate(rowBytes).order(bo);
        if (startsWith(head, DATA_MARKER)) {
            long expected = DATA_MARKER.length + (long) nRows * rowBytes;
            if (data.size() < expected) {
                throw new TraceFormatException(where + ": " + data.size() + " bytes, the index needs " + expected
                        + " (" + nRows + " rows of " + rowBytes + ")");
            }
            long start = data.offset() + DATA_MARKER.length;
            return j -> {
                row.clear();
                TarIndex.readFully(ch, row, start + (long) j * rowBytes, file);
                return row.order(bo);
            };
        }
        if (startsWith(head, ZDATA_MARKER)) {
            return compressedRows(data, nRows, rowBytes, bo, where);
        }
        throw new TraceFormatException(where + ": no CUBEX.DATA or ZCUBEX.DATA header");
    }

    /**
     * CubeW's compressed layout: marker, uint64 row count, then per row (uncompressed start, compressed start,
     * compressed size) as uint64, then the zlib streams; compressed starts count from the end of that table.
     */
    private RowSource compressedRows(TarIndex.Member data, int nRows, int rowBytes, ByteOrder bo, String where)
            throws IOException {
        ByteBuffer nb = ByteBuffer.allocate(8).order(bo);
        TarIndex.readFully(ch, nb, data.offset() + ZDATA_MARKER.length, file);
        long count = nb.getLong();
        if (count != nRows) {
            throw new TraceFormatException(where + ": " + count + " compressed rows, the index lists " + nRows);
        }
        ByteBuffer table = ByteBuffer.allocate(Math.multiplyExact(nRows, 24)).order(bo);
        TarIndex.readFully(ch, table, data.offset() + ZDATA_MARKER.length + 8, file);
        long payload = data.offset() + ZDATA_MARKER.length + 8 + 24L * nRows;
        byte[] out = new byte[rowBytes];
        Inflater inflater = new Inflater();
        return j -> {
            long start = table.getLong(24 * j + 8);
            long size = table.getLong(24 * j + 16);
            if (start < 0 || size < 0 || size > Integer.MAX_VALUE || payload + start + size > data.offset() + data.size()) {
                throw new TraceFormatException(where + ": compressed row " + j + " lies outside the member");
            }
            ByteBuffer in = ByteBuffer.allocate((int) size);
            TarIndex.readFully(ch, in, payload + start, file);
            inflater.reset();
            inflater.setInput(in.array());
            try {
                int got = inflater.inflate(out);
                if (got != rowBytes || !inflater.finished()) {
                    throw new TraceFormatException(where + ": compressed row " + j + " inflates to " + got
                            + " bytes, expected " + rowBytes);
                }
            } catch (DataFormatException e) {
                throw new TraceFormatException(where + ": compressed row " + j + " is not a zlib stream", e);
            }
            return ByteBuffer.wrap(out).order(bo);
        };
    }

    private static ByteOrder byteOrder(ByteBuffer ib, String where) throws TraceFormatException {
        int le = ib.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (le == 1) {
            return ByteOrder.LITTLE_ENDIAN;
        }
        if (Integer.reverseBytes(le) == 1) {
            return ByteOrder.BIG_ENDIAN;
        }
        throw new TraceFormatException(where + ": endianness marker is " + le + ", expected 1");
    }

    private static boolean startsWith(ByteBuffer b, byte[] marker) {
        if (b.limit() < marker.length) {
            return false;
        }
        for (int i = 0; i < marker.length; i++) {
            if (b.get(i) != marker[i]) {
                return false;
            }
        }
        return true;
    }

    private byte[] bytes(TarIndex.Member m) throws IOException {
        if (m.size() > Integer.MAX_VALUE - 16) {
            throw new TraceFormatException(file + "!" + m.name() + ": member of " + m.size() + " bytes is too large to load");
        }
        ByteBuffer b = ByteBuffer.allocate((int) m.size());
        TarIndex.readFully(ch, b, m.offset(), file);
        return b.array();
    }

    /**
     * The system-tree path above a location group, outermost first. A node named {@code class name} (Scalasca's
     * convention) keeps {@code name} as its name, so that writing it again gives the same display name.
     */
    private static List<dev.straggler.trace.SystemNode> hostPath(Anchor a, int node) {
        List<dev.straggler.trace.SystemNode> path = new ArrayList<>();
        for (int n = node; n >= 0 && path.size() <= a.nodes.size(); n = a.nodes.get(n).parent) {
            Anchor.NodeDef d = a.nodes.get(n);
            String name = d.name.equals(d.cls) ? "" : d.name.startsWith(d.cls + " ") ? d.name.substring(d.cls.length() + 1)
                    : d.name;
            path.add(0, new dev.straggler.trace.SystemNode(d.cls, name));
        }
        // nodes named only by their class ("machine", "node") are what a writer puts when it knows no host: unknown
        return path.stream().allMatch(n -> n.name().isEmpty()) ? List.of() : path;
    }
}
