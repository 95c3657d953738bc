package dev.straggler.patterns.cubex;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.scalasca.RealTraces;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The system and call trees of our cube for each shared real trace, element by element against the ones Scalasca
 * 2.6 wrote into its {@code trace.cubex} for the same trace: names, classes, types, ranks and ids of every
 * system-tree node, location group and location, the "Process x Thread" topology, and every cnode's id, place and
 * region. This is what cube_diff and cube_merge compare before they pair two cubes.
 */
class ScalascaSystemTreeTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"npb-mg.S-4", "npb-mg.S-16", "npb-bt.S-4", "npb-cg.S-4", "lulesh-s8-8"})
    void systemTreeEqualsScalascas(String folder) throws Exception {
        Optional<Path> traces = RealTraces.tracesDir();
        Assumptions.assumeTrue(traces.isPresent(), "shared traces absent");
        Path dir = traces.get().resolve("real").resolve(folder);
        Assumptions.assumeTrue(Files.isRegularFile(dir.resolve("trace.cubex")), folder + "/trace.cubex absent");
        Optional<TraceSource> src = RealTraces.openOtf2(dir.resolve("traces.otf2"));
        Assumptions.assumeTrue(src.isPresent());
        Path ours = tmp.resolve(folder + ".cubex");
        try (TraceSource s = src.get()) {
            CubexWriter.write(Analysis.run(s, AnalysisOptions.defaults()).cube(), ours);
        }
        Document theirs = anchor(dir.resolve("trace.cubex"));
        Document mine = anchor(ours);
        List<String> expected = systemTree(theirs);
        assertTrue(expected.size() > 5, expected.toString());
        assertEquals(expected, systemTree(mine));
        // the call tree too: the same cnode ids in the same places, calling the same regions
        List<String> calls = callTree(theirs);
        assertTrue(calls.size() > 20, calls.toString());
        assertEquals(calls, callTree(mine));
    }

    /** Every cnode as "depth id region-name", in document order. */
    static List<String> callTree(Document d) {
        java.util.Map<String, String> regions = new java.util.HashMap<>();
        Element program = (Element) d.getElementsByTagName("program").item(0);
        for (Node n = program.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element r && r.getTagName().equals("region")) {
                regions.put(r.getAttribute("id"), text(r, "name"));
            }
        }
        List<String> out = new ArrayList<>();
        cnodes(program, 0, regions, out);
        return out;
    }

    private static void cnodes(Element e, int depth, java.util.Map<String, String> regions, List<String> out) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals("cnode")) {
                out.add(depth + " " + c.getAttribute("id") + " " + regions.get(c.getAttribute("calleeId")));
                cnodes(c, depth + 1, regions, out);
            }
        }
    }

    /** anchor.xml of a .cubex (a tar archive), read with the JDK's tar-free way: scanning the ustar headers. */
    static Document anchor(Path cubex) throws Exception {
        byte[] all = Files.readAllBytes(cubex);
        int off = 0;
        while (off + 512 <= all.length) {
            String name = new String(all, off, 100, StandardCharsets.US_ASCII).replace("\0", "").trim();
            if (name.isEmpty()) {
                break;
            }
            String sizeField = new String(all, off + 124, 12, StandardCharsets.US_ASCII).replace("\0", "").trim();
            long size = Long.parseLong(sizeField, 8);
            if (name.equals("anchor.xml")) {
                String xml = new String(all, off + 512, (int) size, StandardCharsets.UTF_8);
                return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                        .parse(new InputSource(new StringReader(xml)));
            }
            off += 512 + (int) ((size + 511) / 512 * 512);
        }
        throw new AssertionError(cubex + " has no anchor.xml");
    }

    /** Every element of the system dimension as one line, in document order. */
    static List<String> systemTree(Document d) {
        List<String> out = new ArrayList<>();
        Element system = (Element) d.getElementsByTagName("system").item(0);
        walk(system, 0, out);
        return out;
    }

    private static void walk(Element e, int depth, List<String> out) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element c)) {
                continue;
            }
            switch (c.getTagName()) {
                case "systemtreenode", "locationgroup", "location" -> {
                    out.add(depth + " " + c.getTagName() + " id=" + c.getAttribute("Id") + " name=" + text(c, "name")
                            + " class=" + text(c, "class") + " rank=" + text(c, "rank") + " type=" + text(c, "type"));
                    walk(c, depth + 1, out);
                }
                case "topologies", "cart" -> {
                    if (c.getTagName().equals("cart")) {
                        out.add("cart " + c.getAttribute("name") + " ndims=" + c.getAttribute("ndims"));
                    }
                    walk(c, depth + 1, out);
                }
                case "dim" -> out.add("dim " + c.getAttribute("name") + " size=" + c.getAttribute("size")
                        + " periodic=" + c.getAttribute("periodic"));
                case "coord" -> out.add("coord " + c.getAttribute("locId") + " " + c.getTextContent().trim());
                default -> {
                }
            }
        }
    }

    private static String text(Element e, String child) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(child)) {
                return c.getTextContent().trim();
            }
        }
        return "";
    }
}
