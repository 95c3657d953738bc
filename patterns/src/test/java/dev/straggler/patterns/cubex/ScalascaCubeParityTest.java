package dev.straggler.patterns.cubex;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.scalasca.RealTraces;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Our cube of each shared real trace against the {@code trace.cubex} Scalasca 2.6 wrote for it, read byte-wise from
 * both archives (an anchor parser and a row decoder of this test, not {@link CubexReader}): the metric tree element by
 * element (id, unique and display name, type, dtype, unit, ghost), and every stored value of every metric, cnode and
 * location, including what Scalasca's remapper derives (visit-count masks, the computational imbalance heuristic).
 */
class ScalascaCubeParityTest {
    @TempDir
    static Path tmp;

    /** Our file per trace folder, analysed once (with root causes, as Scalasca's trace analysis has them). */
    private static final Map<String, Path> OURS = new HashMap<>();

    static Stream<String> folders() throws IOException {
        Optional<Path> dir = RealTraces.tracesDir();
        if (dir.isEmpty()) {
            return Stream.of("(shared traces absent)");
        }
        return RealTraces.mpiParityFolders("trace.cubex").stream().map(p -> p.getFileName().toString());
    }

    private static Path folder(String name) {
        Optional<Path> dir = RealTraces.tracesDir();
        Assumptions.assumeTrue(dir.isPresent(), "shared traces absent (../shared/traces/real)");
        Path real = dir.get().resolve("real").resolve(name);
        return Files.isDirectory(real) ? real : dir.get().resolve("hpcg").resolve(name);
    }

    private static synchronized Path ours(String name) throws IOException {
        Path cached = OURS.get(name);
        if (cached != null) {
            return cached;
        }
        Optional<TraceSource> src = RealTraces.openOtf2(folder(name).resolve("traces.otf2"));
        Assumptions.assumeTrue(src.isPresent(), name + ": OTF2 trace not readable here");
        Path out = tmp.resolve(name + ".cubex");
        try (TraceSource s = src.get()) {
            CubexWriter.write(Analysis.run(s, AnalysisOptions.defaults().withRootCauses(true)).cube(), out);
        }
        OURS.put(name, out);
        return out;
    }

    @ParameterizedTest
    @MethodSource("folders")
    void metricTreeEqualsScalascas(String name) throws Exception {
        Path theirs = folder(name).resolve("trace.cubex");
        List<String> expected = metricTree(ScalascaSystemTreeTest.anchor(theirs));
        assertTrue(expected.size() > 100, expected.toString());
        assertEquals(expected, metricTree(ScalascaSystemTreeTest.anchor(ours(name))));
    }

    @ParameterizedTest
    @MethodSource("folders")
    void everyStoredValueEqualsScalascas(String name) throws Exception {
        Map<String, double[][]> expected = values(folder(name).resolve("trace.cubex"));
        Map<String, double[][]> actual = values(ours(name));
        assertEquals(expected.keySet(), actual.keySet());
        int compared = 0;
        for (Map.Entry<String, double[][]> e : expected.entrySet()) {
            double[][] a = e.getValue();
            double[][] b = actual.get(e.getKey());
            assertEquals(a.length, b.length, e.getKey() + ": rows");
            for (int pos = 0; pos < a.length; pos++) {
                for (int l = 0; l < a[pos].length; l++) {
                    double x = a[pos][l];
                    double y = b[pos][l];
                    // Scalasca stores full doubles; sums in another order differ in the last bits only. The imbalance
                    // heuristic subtracts a mean from a time of the same size, so its last bits are those of the operands:
                    // 1e-12 s absolute, a thousandth of the finest clock tick
                    if (Math.abs(x - y) > 1e-9 * Math.max(Math.abs(x), Math.abs(y)) + 1e-12) {
                        fail(name + ": " + e.getKey() + " at inclusive row " + pos + ", location " + l + ": Scalasca "
                                + x + ", ours " + y);
                    }
                    compared++;
                }
            }
        }
        assertTrue(compared > 1000, "only " + compared + " values compared");
    }

    /** Every metric as one line: depth, id, unique name, display name, type, dtype, unit, viztype. */
    static List<String> metricTree(Document d) {
        List<String> out = new ArrayList<>();
        walk((Element) d.getElementsByTagName("metrics").item(0), 0, out);
        return out;
    }

    private static void walk(Element e, int depth, List<String> out) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element m && m.getTagName().equals("metric")) {
                out.add(depth + " id=" + m.getAttribute("id") + " " + text(m, "uniq_name") + " '" + text(m, "disp_name")
                        + "' type=" + m.getAttribute("type") + " dtype=" + text(m, "dtype") + " uom=" + text(m, "uom")
                        + " viztype=" + m.getAttribute("viztype"));
                walk(m, depth + 1, out);
            }
        }
    }

    /** Per metric unique name, the dense rows (position of the file's enumeration × location) of its data member. */
    static Map<String, double[][]> values(Path cubex) throws Exception {
        Document d = ScalascaSystemTreeTest.anchor(cubex);
        int locations = d.getElementsByTagName("location").getLength();
        int cnodes = d.getElementsByTagName("cnode").getLength();
        Map<String, byte[]> members = members(cubex);
        Map<String, double[][]> out = new LinkedHashMap<>();
        var metrics = d.getElementsByTagName("metric");
        for (int i = 0; i < metrics.getLength(); i++) {
            Element m = (Element) metrics.item(i);
            String base = ("GHOST".equals(m.getAttribute("viztype")) ? "ghost_" : "") + m.getAttribute("id");
            boolean integer = switch (text(m, "dtype")) {
                case "INTEGER", "INT64" -> true;
                default -> false;
            };
            ByteBuffer index = ByteBuffer.wrap(members.get(base + ".index")).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer data = ByteBuffer.wrap(members.get(base + ".data")).order(ByteOrder.LITTLE_ENDIAN);
            index.position(11 + 4 + 2);
            int format = index.get();
            int[] positions;
            if (format == 1) {
                positions = new int[index.getInt()];
                for (int j = 0; j < positions.length; j++) {
                    positions[j] = index.getInt();
                }
            } else {
                positions = java.util.stream.IntStream.range(0, cnodes).toArray();
            }
            data.position("CUBEX.DATA".length());
            double[][] rows = new double[cnodes][locations];
            for (int pos : positions) {
                for (int l = 0; l < locations; l++) {
                    rows[pos][l] = integer ? data.getLong() : data.getDouble();
                }
            }
            out.put(text(m, "uniq_name"), rows);
        }
        return out;
    }

    /** The members of a ustar archive by name. */
    private static Map<String, byte[]> members(Path tar) throws IOException {
        byte[] all = Files.readAllBytes(tar);
        Map<String, byte[]> out = new HashMap<>();
        int off = 0;
        while (off + 512 <= all.length) {
            String name = new String(all, off, 100, StandardCharsets.US_ASCII).replace("\0", "").trim();
            if (name.isEmpty()) {
                break;
            }
            long size = Long.parseLong(new String(all, off + 124, 12, StandardCharsets.US_ASCII).replace("\0", "").trim(), 8);
            out.put(name, java.util.Arrays.copyOfRange(all, off + 512, off + 512 + (int) size));
            off += 512 + (int) ((size + 511) / 512 * 512);
        }
        return out;
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
