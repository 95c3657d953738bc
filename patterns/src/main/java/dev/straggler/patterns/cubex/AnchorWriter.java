package dev.straggler.patterns.cubex;

import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.Metric;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import dev.straggler.trace.Region;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes anchor.xml the way CubeW's {@code cube_write_def} does (reference §3.2): one element per line, no
 * indentation, attributes before documentation, then metrics, program and system. CubeLib parses the
 * anchor with a token grammar ({@code Cube4Parser.yy}), so element order and spelling follow that writer
 * exactly.
 *
 * <p>The caller supplies the id orders: metrics and cnodes in depth-first pre-order (metric ids are positions in
 * that order, after Scalasca's ghost metric where the cube has Scalasca's metric tree), locations grouped by rank.
 */
final class AnchorWriter {
    /** Scalasca's pattern documentation; metric URLs point into it as Scalasca's own reports do. */
    static final String MIRROR = "http://apps.fz-juelich.de/scalasca/releases/scalasca/2.6/help/";
    static final String CREATOR = "Straggler";
    /**
     * Attributes that describe the library which wrote a file (or, for CLUSTER*, call-tree clustering
     * this writer does not reproduce); copying them from a cube read elsewhere would misdescribe our file.
     */
    private static final Set<String> WRITER_ATTRIBUTES = Set.of("Cube Version", "CUBE Library version",
            "Cube anchor.xml syntax version", "CubePL Version", "CUBE_CT_AGGR");

    private final SeverityCube cube;
    private final StringBuilder sb = new StringBuilder(1 << 16);

    private AnchorWriter(SeverityCube cube) {
        this.cube = cube;
    }

    /**
     * @param metricOrder metric indices in pre-order of the metric tree; a metric's id is its position here
     * @param metricIsInteger per metric index, whether it is written with dtype INTEGER
     * @param cnodeOrder  call path ids in pre-order of the call tree; a cnode's id is its position here
     * @param locationOrder location indices grouped by rank; a location's id is its position here
     */
    static String write(SeverityCube cube, int[] metricOrder, boolean[] metricIsInteger, int[] cnodeOrder,
                        int[] locationOrder) {
        AnchorWriter w = new AnchorWriter(cube);
        w.header();
        w.metrics(metricOrder, metricIsInteger, CubexWriter.hasGhostBytesReceived(cube));
        w.program(cnodeOrder);
        w.system(locationOrder);
        w.sb.append("</cube>\n");
        return w.sb.toString();
    }

    private void header() {
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<cube version=\"4.4\">\n");
        Map<String, String> attrs = new LinkedHashMap<>();
        // the CUBE release whose tools (cube_info, cube_dump, cube_diff, cube_merge) read these files as Scalasca's
        attrs.put("Cube Version", "4.8.2");
        attrs.put("CubePL Version", "1.1");
        attrs.put("Creator", CREATOR);
        attrs.put("CUBE_CT_AGGR", "SUM");
        for (Map.Entry<String, String> e : cube.attributes().entrySet()) {
            String key = e.getKey();
            if (key.equals("Creator")) {
                // a cube read from another tool's file keeps that origin, but this file is written by us
                if (!CREATOR.equals(e.getValue())) {
                    attrs.put("Source creator", e.getValue());
                }
            } else if (!WRITER_ATTRIBUTES.contains(key) && !key.startsWith("CLUSTER")) {
                attrs.put(key, e.getValue());
            }
        }
        for (Map.Entry<String, String> e : attrs.entrySet()) {
            sb.append("<attr key=\"").append(esc(e.getKey())).append("\" value=\"").append(esc(e.getValue())).append("\"/>\n");
        }
        sb.append("<doc>\n<mirrors>\n<murl>").append(MIRROR).append("</murl>\n</mirrors>\n</doc>\n");
    }

    /**
     * Every metric as Scalasca's remapped report declares it: type INCLUSIVE (values inclusive along the call tree),
     * dtype FLOAT or INTEGER for a root and DOUBLE or INT64 below it, ids in pre-order after the ghost metrics.
     */
    private void metrics(int[] order, boolean[] integer, boolean ghost) {
        sb.append("<metrics>\n");
        List<Metric> metrics = cube.metrics();
        int firstId = ghost ? 1 : 0;
        // nesting follows the pre-order: close elements until the open one is the next metric's parent
        int[] open = new int[order.length];
        int depth = 0;
        for (int k = 0; k < order.length; k++) {
            Metric m = metrics.get(order[k]);
            while (depth > 0 && !metrics.get(open[depth - 1]).uniqueName().equals(m.parent())) {
                sb.append("</metric>\n");
                depth--;
            }
            sb.append("<metric id=\"").append(firstId + k).append("\" type=\"INCLUSIVE\">\n");
            leaf("disp_name", m.displayName());
            leaf("uniq_name", m.uniqueName());
            leaf("dtype", CubexWriter.dtype(integer[order[k]], m.parent() == null));
            leaf("uom", m.unit());
            leaf("url", "@mirror@scalasca_patterns.html#" + m.uniqueName());
            leaf("descr", m.description());
            open[depth++] = order[k];
        }
        while (depth-- > 0) {
            sb.append("</metric>\n");
        }
        if (ghost) {
            // Scalasca's remap specification declares it so that a merged runtime summary's "Bytes received" stays
            // hidden; it holds no values
            sb.append("<metric id=\"0\" type=\"INCLUSIVE\" viztype=\"GHOST\">\n");
            leaf("disp_name", "Bytes received");
            leaf("uniq_name", CubexWriter.GHOST_BYTES_RECEIVED);
            leaf("dtype", "INTEGER");
            leaf("uom", "bytes");
            leaf("url", "");
            leaf("descr", "Number of bytes received in communication operations");
            sb.append("</metric>\n");
        }
        sb.append("</metrics>\n");
    }

    private void program(int[] cnodeOrder) {
        sb.append("<program>\n");
        List<Region> regions = cube.regions();
        for (int i = 0; i < regions.size(); i++) {
            Region r = regions.get(i);
            sb.append("<region id=\"").append(i).append("\" mod=\"").append(esc(r.sourceFile()))
                    .append("\" begin=\"").append(r.beginLine() > 0 ? r.beginLine() : -1)
                    .append("\" end=\"").append(r.endLine() > 0 ? r.endLine() : -1).append("\">\n");
            leaf("name", r.name());
            leaf("mangled_name", r.canonicalName());
            leaf("paradigm", CubeRegionNames.paradigmName(r.paradigm()));
            leaf("role", CubeRegionNames.roleName(r.role()));
            leaf("url", "");
            leaf("descr", "");
            sb.append("</region>\n");
        }
        List<CallPath> paths = cube.callPaths();
        int[] open = new int[cnodeOrder.length];
        int depth = 0;
        for (int id = 0; id < cnodeOrder.length; id++) {
            CallPath c = paths.get(cnodeOrder[id]);
            while (depth > 0 && open[depth - 1] != c.parent()) {
                sb.append("</cnode>\n");
                depth--;
            }
            // the id the call tree's maker gave it (Scalasca: creation order), else its position in tree order; the
            // data rows follow tree order either way
            int fileId = cube.cnodeId(cnodeOrder[id]);
            sb.append("<cnode id=\"").append(fileId >= 0 ? fileId : id).append("\" ");
            if (c.callsite() > 0) {
                sb.append("line=\"").append(c.callsite()).append("\" ");
            }
            sb.append("calleeId=\"").append(c.region()).append("\">\n");
            open[depth++] = c.id();
        }
        while (depth-- > 0) {
            sb.append("</cnode>\n");
        }
        sb.append("</program>\n");
    }

    /**
     * The system tree as Scalasca writes it: the trace's system-tree nodes, each named {@code class name} ("machine
     * Linux", "node vm") with its class, holding the processes that ran there ("MPI Rank r", type process) and
     * their threads; then the "Process x Thread" topology. With no system tree in the trace: one machine, one node.
     * Node ids are given in document order; location ids are the column order of the data.
     */
    private void system(int[] locationOrder) {
        List<SystemLocation> locs = cube.locations();
        // the tree of host paths, children in order of first appearance
        TreeNode root = new TreeNode(null);
        for (int id = 0; id < locationOrder.length; id++) {
            SystemLocation l = locs.get(locationOrder[id]);
            List<dev.straggler.trace.SystemNode> host = l.host().isEmpty()
                    ? List.of(new dev.straggler.trace.SystemNode("machine", ""), new dev.straggler.trace.SystemNode("node", ""))
                    : l.host();
            TreeNode n = root;
            for (dev.straggler.trace.SystemNode h : host) {
                n = n.child(h);
            }
            n.locations.add(id);
        }
        sb.append("<system>\n");
        int[] nodeId = {0};
        int[] groupId = {0};
        for (TreeNode n : root.children) {
            writeNode(n, locationOrder, nodeId, groupId);
        }
        // Scalasca's "Process x Thread" topology: one coordinate per location
        int processes = (int) locs.stream().mapToInt(SystemLocation::rank).distinct().count();
        int threads = locs.stream().mapToInt(SystemLocation::thread).max().orElse(0) + 1;
        List<Integer> ranks = locs.stream().map(SystemLocation::rank).distinct().sorted().toList();
        sb.append("<topologies>\n<cart name=\"Process x Thread\" ndims=\"2\">\n");
        sb.append("<dim name=\"Process\" size=\"").append(processes).append("\" periodic=\"false\"/>\n");
        sb.append("<dim name=\"Thread\" size=\"").append(threads).append("\" periodic=\"false\"/>\n");
        for (int id = 0; id < locationOrder.length; id++) {
            SystemLocation l = locs.get(locationOrder[id]);
            sb.append("<coord locId=\"").append(id).append("\">").append(ranks.indexOf(l.rank())).append(' ')
                    .append(l.thread()).append("</coord>\n");
        }
        sb.append("</cart>\n</topologies>\n</system>\n");
    }

    private void writeNode(TreeNode n, int[] locationOrder, int[] nodeId, int[] groupId) {
        sb.append("<systemtreenode Id=\"").append(nodeId[0]++).append("\">\n");
        leaf("name", n.node.displayName());
        leaf("class", n.node.className());
        List<SystemLocation> locs = cube.locations();
        int groupRank = Integer.MIN_VALUE;
        boolean open = false;
        for (int id : n.locations) {
            SystemLocation l = locs.get(locationOrder[id]);
            if (!open || l.rank() != groupRank) {
                if (open) {
                    sb.append("</locationgroup>\n");
                }
                open = true;
                groupRank = l.rank();
                sb.append("<locationgroup Id=\"").append(groupId[0]++).append("\">\n");
                leaf("name", "MPI Rank " + l.rank());
                leaf("rank", Integer.toString(l.rank()));
                leaf("type", "process");
            }
            sb.append("<location Id=\"").append(id).append("\">\n");
            String name = l.name() == null || l.name().isBlank()
                    ? (l.thread() == 0 ? "Master thread" : "Thread " + l.thread()) : l.name();
            leaf("name", name);
            leaf("rank", Integer.toString(l.thread()));
            leaf("type", "thread");
            sb.append("</location>\n");
        }
        if (open) {
            sb.append("</locationgroup>\n");
        }
        for (TreeNode c : n.children) {
            writeNode(c, locationOrder, nodeId, groupId);
        }
        sb.append("</systemtreenode>\n");
    }

    /** A system-tree node with the locations directly under it (ids) and its child nodes. */
    private static final class TreeNode {
        final dev.straggler.trace.SystemNode node;
        final List<Integer> locations = new java.util.ArrayList<>();
        final List<TreeNode> children = new java.util.ArrayList<>();

        TreeNode(dev.straggler.trace.SystemNode node) {
            this.node = node;
        }

        TreeNode child(dev.straggler.trace.SystemNode h) {
            for (TreeNode c : children) {
                if (c.node.equals(h)) {
                    return c;
                }
            }
            TreeNode c = new TreeNode(h);
            children.add(c);
            return c;
        }
    }

    private void leaf(String tag, String text) {
        sb.append('<').append(tag).append('>').append(esc(text)).append("</").append(tag).append(">\n");
    }

    /** XML-escapes text; characters XML 1.0 cannot carry at all become '?'. */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            String rep = switch (ch) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&apos;";
                default -> (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || ch == 0xFFFE || ch == 0xFFFF ? "?" : null;
            };
            if (rep != null && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null) {
                if (rep != null) {
                    out.append(rep);
                } else {
                    out.append(ch);
                }
            }
        }
        return out == null ? s : out.toString();
    }
}
