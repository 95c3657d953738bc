package dev.straggler.patterns.scalasca;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scalasca 2.6's analysis of one real trace, as stored next to it in {@code shared/traces/real/<name>/}
 * (see real/README.md): the call tree and system tree of {@code scout.cubex}, every value of
 * {@code scalasca_dump.csv} (call-path exclusive, metric-tree inclusive, 6 significant digits), the hierarchy
 * totals, the clock-condition violation counts of {@code scout.log} and the instance counts of {@code trace.stat}.
 * An independent oracle: nothing here comes from our code.
 */
public final class ScalascaReference {
    private final List<String> metrics = new ArrayList<>();
    private final Map<String, Integer> metricIndex = new HashMap<>();
    /** [cnode][location][metric]. */
    private final Map<Long, double[]> values = new HashMap<>();
    private final List<String> regionNames = new ArrayList<>();
    private final List<String> regionParadigms = new ArrayList<>();
    private final List<Integer> cnodeParent = new ArrayList<>();
    private final List<Integer> cnodeRegion = new ArrayList<>();
    private final Map<Integer, int[]> locationRankThread = new LinkedHashMap<>();
    private final Map<String, Double> treeTotals = new LinkedHashMap<>();
    private final Map<String, Long> instanceCounts = new LinkedHashMap<>();
    private final Map<String, List<StatInstance>> mostSevere = new LinkedHashMap<>();

    /** A most severe instance of trace.stat: waiting time, call path id of scout.cubex, rank, enter/exit. */
    public record StatInstance(int cnode, double enter, double exit, double duration, int rank) {
    }
    private long ccvP2p;
    private long ccvColl;

    private ScalascaReference() {
    }

    public static ScalascaReference load(Path dir) throws IOException {
        ScalascaReference r = new ScalascaReference();
        r.readAnchor(anchor(dir, "scout"));
        r.readDump(dir.resolve("scalasca_dump.csv"));
        r.readTreeTotals(dir.resolve("scalasca_tree_totals.csv"));
        r.readLog(dir.resolve("scout.log"));
        r.readStat(dir.resolve("trace.stat"));
        return r;
    }

    /**
     * The remapped analysis users see ({@code trace.cubex} and its dump {@code trace_dump.csv}, beside the hybrid
     * traces): the metric tree with the hierarchy's derived metrics per call path and location.
     */
    public static ScalascaReference loadRemapped(Path dir) throws IOException {
        ScalascaReference r = new ScalascaReference();
        r.readAnchor(anchor(dir, "trace"));
        r.readDump(dir.resolve("trace_dump.csv"));
        return r;
    }

    /**
     * The call tree and system tree of a report: {@code NAME.cubex}'s anchor.xml, or that member alone where the
     * report is kept as {@code NAME.anchor.xml} (the recorded samples: the dumps hold every value).
     */
    static byte[] anchor(Path dir, String name) throws IOException {
        Path alone = dir.resolve(name + ".anchor.xml");
        return Files.exists(alone) ? Files.readAllBytes(alone) : tarMember(dir.resolve(name + ".cubex"), "anchor.xml");
    }

    /** Extracts one member of a POSIX tar archive (a .cubex file). */
    static byte[] tarMember(Path tar, String member) throws IOException {
        try (InputStream in = Files.newInputStream(tar)) {
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512) {
                String name = new String(header, 0, 100, StandardCharsets.US_ASCII).replace("\0", "").trim();
                if (name.isEmpty()) {
                    break;
                }
                String sizeField = new String(header, 124, 12, StandardCharsets.US_ASCII).replace("\0", "").trim();
                long size = Long.parseLong(sizeField, 8);
                byte[] data = in.readNBytes((int) size);
                long pad = (512 - size % 512) % 512;
                in.skipNBytes(pad);
                if (name.equals(member)) {
                    return data;
                }
            }
        }
        throw new IOException(tar + ": no member " + member);
    }

    private void readAnchor(byte[] xml) throws IOException {
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(false);
            doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        } catch (Exception e) {
            throw new IOException("cannot parse anchor.xml: " + e.getMessage(), e);
        }
        NodeList regions = doc.getElementsByTagName("region");
        for (int i = 0; i < regions.getLength(); i++) {
            Element e = (Element) regions.item(i);
            int id = Integer.parseInt(e.getAttribute("id"));
            while (regionNames.size() <= id) {
                regionNames.add(null);
                regionParadigms.add(null);
            }
            regionNames.set(id, text(e, "name"));
            regionParadigms.set(id, text(e, "paradigm"));
        }
        Element program = (Element) doc.getElementsByTagName("program").item(0);
        for (Node c = program.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element e && e.getTagName().equals("cnode")) {
                readCnode(e, -1);
            }
        }
        NodeList locs = doc.getElementsByTagName("location");
        for (int i = 0; i < locs.getLength(); i++) {
            Element e = (Element) locs.item(i);
            Element group = (Element) e.getParentNode();
            int id = Integer.parseInt(e.getAttribute("Id"));
            int rank = Integer.parseInt(text(group, "rank"));
            int thread = Integer.parseInt(text(e, "rank"));
            locationRankThread.put(id, new int[]{rank, thread});
        }
    }

    private void readCnode(Element e, int parent) {
        int id = Integer.parseInt(e.getAttribute("id"));
        while (cnodeParent.size() <= id) {
            cnodeParent.add(-2);
            cnodeRegion.add(-1);
        }
        cnodeParent.set(id, parent);
        cnodeRegion.set(id, Integer.parseInt(e.getAttribute("calleeId")));
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element ce && ce.getTagName().equals("cnode")) {
                readCnode(ce, id);
            }
        }
    }

    private static String text(Element e, String tag) {
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element ce && ce.getTagName().equals(tag)) {
                return ce.getTextContent().trim();
            }
        }
        return "";
    }

    private void readDump(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        String[] header = lines.get(0).split(",");
        for (int i = 2; i < header.length; i++) {
            metricIndex.put(header[i].trim(), metrics.size());
            metrics.add(header[i].trim());
        }
        for (int li = 1; li < lines.size(); li++) {
            String[] f = lines.get(li).split(",");
            if (f.length < 2) {
                continue;
            }
            int cnode = Integer.parseInt(f[0].trim());
            int loc = Integer.parseInt(f[1].trim());
            double[] v = new double[metrics.size()];
            for (int i = 2; i < f.length; i++) {
                v[i - 2] = Double.parseDouble(f[i].trim());
            }
            values.put(key(cnode, loc), v);
        }
    }

    private void readTreeTotals(Path csv) throws IOException {
        if (!Files.exists(csv)) {
            return;
        }
        List<String> lines = Files.readAllLines(csv);
        String[] header = lines.get(0).split(",");
        String[] row = lines.get(1).split(",");
        for (int i = 1; i < header.length && i < row.length; i++) {
            treeTotals.put(header[i].trim(), Double.parseDouble(row[i].trim()));
        }
    }

    private void readLog(Path log) throws IOException {
        if (!Files.exists(log)) {
            return;
        }
        String s = Files.readString(log);
        Matcher p = Pattern.compile("Point-to-point:\\s+(\\d+)").matcher(s);
        Matcher c = Pattern.compile("Collective\\s+:\\s+(\\d+)").matcher(s);
        ccvP2p = p.find() ? Long.parseLong(p.group(1)) : 0;
        ccvColl = c.find() ? Long.parseLong(c.group(1)) : 0;
    }

    private void readStat(Path stat) throws IOException {
        if (!Files.exists(stat)) {
            return;
        }
        Pattern line = Pattern.compile("^(mpi_\\w+)\\s+(\\d+)\\s");
        Pattern inst = Pattern.compile("^- cnode (\\d+) enter: (\\S+) exit: (\\S+) duration: (\\S+) rank: (\\d+)");
        String current = null;
        for (String l : Files.readAllLines(stat)) {
            Matcher m = line.matcher(l);
            if (m.find()) {
                current = m.group(1);
                instanceCounts.put(current, Long.parseLong(m.group(2)));
                mostSevere.put(current, new ArrayList<>());
                continue;
            }
            Matcher i = inst.matcher(l);
            if (i.find() && current != null) {
                mostSevere.get(current).add(new StatInstance(Integer.parseInt(i.group(1)),
                        Double.parseDouble(i.group(2)), Double.parseDouble(i.group(3)),
                        Double.parseDouble(i.group(4)), Integer.parseInt(i.group(5))));
            }
        }
    }

    private static long key(int cnode, int loc) {
        return ((long) cnode << 32) | loc;
    }

    public List<String> metrics() {
        return metrics;
    }

    public boolean hasMetric(String m) {
        return metricIndex.containsKey(m);
    }

    public int cnodeCount() {
        return cnodeParent.size();
    }

    public int parent(int cnode) {
        return cnodeParent.get(cnode);
    }

    public String regionName(int cnode) {
        return regionNames.get(cnodeRegion.get(cnode));
    }

    /** The paradigm Scalasca's cube gives the cnode's region ("mpi", "compiler", "measurement", ...). */
    public String regionParadigm(int cnode) {
        return regionParadigms.get(cnodeRegion.get(cnode));
    }

    /** Region names from the root to the cnode. */
    public List<String> path(int cnode) {
        List<String> p = new ArrayList<>();
        for (int c = cnode; c >= 0; c = cnodeParent.get(c)) {
            p.add(0, regionName(c));
        }
        return p;
    }

    /**
     * Call paths created late: in the tree's depth-first order (children by id) some call path after them has a
     * smaller id, as for a call path first visited on a later rank. Scalasca's remapping walks ids in order.
     */
    public java.util.Set<Integer> lateCnodes() {
        List<List<Integer>> children = new ArrayList<>();
        List<Integer> roots = new ArrayList<>();
        for (int k = 0; k < cnodeParent.size(); k++) {
            children.add(new ArrayList<>());
        }
        for (int k = 0; k < cnodeParent.size(); k++) {
            if (cnodeParent.get(k) < 0) {
                roots.add(k);
            } else {
                children.get(cnodeParent.get(k)).add(k);
            }
        }
        List<Integer> order = new ArrayList<>();
        java.util.ArrayDeque<Integer> stack = new java.util.ArrayDeque<>();
        for (int r = roots.size() - 1; r >= 0; r--) {
            stack.push(roots.get(r));
        }
        while (!stack.isEmpty()) {
            int k = stack.pop();
            order.add(k);
            List<Integer> ch = children.get(k);
            for (int i = ch.size() - 1; i >= 0; i--) {
                stack.push(ch.get(i));
            }
        }
        java.util.Set<Integer> late = new java.util.TreeSet<>();
        int minAfter = Integer.MAX_VALUE;
        for (int i = order.size() - 1; i >= 0; i--) {
            if (order.get(i) > minAfter) {
                late.add(order.get(i));
            }
            minAfter = Math.min(minAfter, order.get(i));
        }
        return late;
    }

    /** Cube location ids with their (rank, thread). */
    public Map<Integer, int[]> locations() {
        return locationRankThread;
    }

    public double value(String metric, int cnode, int location) {
        double[] v = values.get(key(cnode, location));
        return v == null ? 0 : v[metricIndex.get(metric)];
    }

    public double total(String metric) {
        int m = metricIndex.get(metric);
        double s = 0;
        for (double[] v : values.values()) {
            s += v[m];
        }
        return s;
    }

    /** Whole-run totals of the remapped hierarchy (scalasca_tree_totals.csv); NaN when absent. */
    public double treeTotal(String metric) {
        return treeTotals.getOrDefault(metric, Double.NaN);
    }

    public long clockViolationsP2p() {
        return ccvP2p;
    }

    public long clockViolationsCollective() {
        return ccvColl;
    }

    /** The most severe instances trace.stat lists per pattern, as printed (most severe first). */
    public Map<String, List<StatInstance>> mostSevere() {
        return mostSevere;
    }

    /** Instance counts of trace.stat by pattern; absent patterns had none. */
    public Map<String, Long> instanceCounts() {
        return instanceCounts;
    }
}
