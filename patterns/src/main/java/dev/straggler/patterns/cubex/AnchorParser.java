package dev.straggler.patterns.cubex;

import dev.straggler.trace.TraceFormatException;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Reads a CUBE4 anchor.xml (reference §3.2) into an {@link Anchor}. Tolerates the optional parts (attributes,
 * documentation, titles, topologies, cnode parameters) and fails with the file and line on structural
 * errors. Cube 3 files (severities inside the XML) are rejected.
 */
final class AnchorParser {
    private final String source;
    private XMLStreamReader r;

    private AnchorParser(String source) {
        this.source = source;
    }

    static Anchor parse(InputStream in, String source) throws TraceFormatException {
        return new AnchorParser(source).run(in);
    }

    private Anchor run(InputStream in) throws TraceFormatException {
        XMLInputFactory f = XMLInputFactory.newFactory();
        // the anchor is untrusted input: no DTDs, no external entities
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        Anchor a = new Anchor();
        // what the open elements are, to know whose <name>/<rank>/... a leaf belongs to
        Deque<Object> owners = new ArrayDeque<>();
        Deque<Integer> nodeStack = new ArrayDeque<>();
        Deque<Integer> metricStack = new ArrayDeque<>();
        Deque<Integer> cnodeStack = new ArrayDeque<>();
        int groupIndex = -1;
        boolean sawCube = false;
        try {
            r = f.createXMLStreamReader(in, "UTF-8");
            while (r.hasNext()) {
                int ev = r.next();
                if (ev == XMLStreamConstants.END_ELEMENT) {
                    switch (r.getLocalName()) {
                        case "metric" -> {
                            metricStack.pop();
                            owners.pop();
                        }
                        case "cnode" -> cnodeStack.pop();
                        case "region", "location", "locationgroup" -> owners.pop();
                        case "systemtreenode" -> {
                            owners.pop();
                            nodeStack.pop();
                        }
                        default -> {
                        }
                    }
                    continue;
                }
                if (ev != XMLStreamConstants.START_ELEMENT) {
                    continue;
                }
                String el = r.getLocalName();
                switch (el) {
                    case "cube" -> {
                        String v = attr("version");
                        if (v == null || !v.startsWith("4")) {
                            throw error("unsupported Cube version " + v + " (only CUBE4 .cubex files are read)");
                        }
                        sawCube = true;
                    }
                    case "attr" -> {
                        if (owners.isEmpty() && metricStack.isEmpty() && cnodeStack.isEmpty()) {
                            a.attributes.put(required("key"), required("value"));
                        }
                    }
                    case "metric" -> {
                        Anchor.MetricDef m = new Anchor.MetricDef();
                        m.fileId = intAttr("id", -1);
                        m.type = orEmpty(attr("type"));
                        m.ghost = "GHOST".equalsIgnoreCase(attr("viztype"));
                        m.parent = metricStack.isEmpty() ? -1 : metricStack.peek();
                        a.metrics.add(m);
                        metricStack.push(a.metrics.size() - 1);
                        owners.push(m);
                    }
                    case "region" -> {
                        Anchor.RegionDef g = new Anchor.RegionDef();
                        g.fileId = intAttr("id", -1);
                        g.mod = orEmpty(attr("mod"));
                        g.begin = intAttr("begin", -1);
                        g.end = intAttr("end", -1);
                        a.regions.add(g);
                        owners.push(g);
                    }
                    case "cnode" -> {
                        Anchor.CnodeDef c = new Anchor.CnodeDef();
                        c.fileId = intAttr("id", -1);
                        c.calleeId = intAttr("calleeId", -1);
                        c.line = intAttr("line", -1);
                        c.mod = orEmpty(attr("mod"));
                        c.parent = cnodeStack.isEmpty() ? -1 : cnodeStack.peek();
                        if (c.fileId < 0 || c.calleeId < 0) {
                            throw error("cnode without id or calleeId");
                        }
                        a.cnodes.add(c);
                        cnodeStack.push(a.cnodes.size() - 1);
                    }
                    case "systemtreenode" -> {
                        Anchor.NodeDef n = new Anchor.NodeDef();
                        n.parent = nodeStack.isEmpty() ? -1 : nodeStack.peek();
                        a.nodes.add(n);
                        nodeStack.push(a.nodes.size() - 1);
                        owners.push(n);
                    }
                    case "locationgroup" -> {
                        Anchor.GroupDef g = new Anchor.GroupDef();
                        g.fileId = intAttr("Id", -1);
                        g.node = nodeStack.isEmpty() ? -1 : nodeStack.peek();
                        a.groups.add(g);
                        groupIndex = a.groups.size() - 1;
                        owners.push(g);
                    }
                    case "location" -> {
                        if (groupIndex < 0) {
                            throw error("location outside a locationgroup");
                        }
                        Anchor.LocationDef l = new Anchor.LocationDef();
                        l.fileId = intAttr("Id", -1);
                        l.group = groupIndex;
                        if (l.fileId < 0) {
                            throw error("location without Id");
                        }
                        a.locations.add(l);
                        owners.push(l);
                    }
                    case "disp_name", "uniq_name", "dtype", "uom", "url", "descr", "cubepl", "name",
                         "mangled_name", "paradigm", "role", "rank", "type", "class" -> leaf(el, owners.peek());
                    default -> {
                    }
                }
            }
        } catch (XMLStreamException e) {
            throw new TraceFormatException(source + ": malformed XML: " + e.getMessage(), e);
        }
        if (!sawCube) {
            throw new TraceFormatException(source + ": no <cube> element");
        }
        return a;
    }

    private void leaf(String el, Object owner) throws XMLStreamException, TraceFormatException {
        if (owner == null) {
            return;
        }
        String text = r.getElementText().trim();
        if (owner instanceof Anchor.MetricDef m) {
            switch (el) {
                case "disp_name" -> m.displayName = text;
                case "uniq_name" -> m.uniqueName = text;
                case "dtype" -> m.dtype = text;
                case "uom" -> m.uom = text;
                case "url" -> m.url = text;
                case "descr" -> m.descr = text;
                case "cubepl" -> m.expression = text;
                default -> {
                }
            }
        } else if (owner instanceof Anchor.RegionDef g) {
            switch (el) {
                case "name" -> g.name = text;
                case "mangled_name" -> g.mangledName = text;
                case "paradigm" -> g.paradigm = text;
                case "role" -> g.role = text;
                default -> {
                }
            }
        } else if (owner instanceof Anchor.NodeDef n) {
            switch (el) {
                case "name" -> n.name = text;
                case "class" -> n.cls = text;
                default -> {
                }
            }
        } else if (owner instanceof Anchor.GroupDef g) {
            switch (el) {
                case "name" -> g.name = text;
                case "rank" -> g.rank = parseInt(text, "rank");
                case "type" -> g.type = text;
                default -> {
                }
            }
        } else if (owner instanceof Anchor.LocationDef l) {
            switch (el) {
                case "name" -> l.name = text;
                case "rank" -> l.rank = parseInt(text, "rank");
                case "type" -> l.type = text;
                default -> {
                }
            }
        }
    }

    private String attr(String name) {
        return r.getAttributeValue(null, name);
    }

    private String required(String name) throws TraceFormatException {
        String v = attr(name);
        if (v == null) {
            throw error("<" + r.getLocalName() + "> without attribute " + name);
        }
        return v;
    }

    private int intAttr(String name, int absent) throws TraceFormatException {
        String v = attr(name);
        return v == null ? absent : parseInt(v, name);
    }

    private int parseInt(String v, String what) throws TraceFormatException {
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw error("bad " + what + " '" + v + "'");
        }
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private TraceFormatException error(String msg) {
        return new TraceFormatException(source + " line " + r.getLocation().getLineNumber() + ": " + msg);
    }
}
