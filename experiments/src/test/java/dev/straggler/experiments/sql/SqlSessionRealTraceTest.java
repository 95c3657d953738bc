package dev.straggler.experiments.sql;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexReader;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The trace tables of {@code straggler sql} on NPB MG at 4 ranks, against independent sources: otf2-print (the OTF2
 * project's own reader) for events, messages and collectives; Scalasca's own cube ({@code scout.cubex}) for the
 * severities; python3-otf2 (the OTF2 project's Python reader, {@code otf2_events.py}) for events and messages.
 */
class SqlSessionRealTraceTest {
    private static Path dir;
    private static TraceSource source;
    private static SqlSession session;
    private static List<String[]> printed;

    @BeforeAll
    static void open() throws IOException {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        dir = Path.of(shared, "traces", "real", "npb-mg.S-4");
        Assumptions.assumeTrue(Files.isRegularFile(dir.resolve("traces.otf2")), "shared traces absent");
        source = Traces.open(dir.resolve("traces.otf2"));
        session = SqlSession.ofTrace(source, 2);
    }

    @AfterAll
    static void close() throws IOException {
        if (session != null) {
            session.close();
        }
        if (source != null) {
            source.close();
        }
    }

    static List<List<Object>> rows(String sql) throws IOException {
        List<List<Object>> out = new ArrayList<>();
        session.query(sql, new SqlSession.RowSink() {
            @Override
            public void columns(List<String> names, List<String> types) {
            }

            @Override
            public void row(Object[] values) {
                out.add(new ArrayList<>(java.util.Arrays.asList(values)));
            }
        });
        return out;
    }

    private static final Pattern RECORD = Pattern.compile("^([A-Z_]+)\\s+(\\d+)\\s+(\\d+)\\s*(.*)$");

    /** otf2-print's event lines: record, location, timestamp, attributes. */
    static List<String[]> otf2Print() throws IOException, InterruptedException {
        if (printed != null) {
            return printed;
        }
        Path tool = Path.of("/usr/bin/otf2-print");
        if (!Files.isExecutable(tool)) {
            tool = Path.of("/work/opt/scorep/bin/otf2-print");
        }
        Assumptions.assumeTrue(Files.isExecutable(tool), "otf2-print absent (apt-get install otf2-tools)");
        Process p = new ProcessBuilder(tool.toString(), dir.resolve("traces.otf2").toString()).redirectErrorStream(true)
                .start();
        List<String[]> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                Matcher m = RECORD.matcher(line);
                if (m.matches()) {
                    out.add(new String[]{m.group(1), m.group(2), m.group(3), m.group(4)});
                }
            }
        }
        assertEquals(0, p.waitFor());
        printed = out;
        return out;
    }

    @Test
    void eventCountsPerLocationAndKindEqualOtf2Print() throws Exception {
        Map<String, Long> expected = new TreeMap<>();
        Map<Long, Integer> indexOfId = new HashMap<>();
        for (List<Object> r : rows("SELECT source_id, id FROM locations")) {
            indexOfId.put(((Number) r.get(0)).longValue(), (Integer) r.get(1));
        }
        java.util.Set<String> kinds = new java.util.HashSet<>();
        for (dev.straggler.trace.EventKind k : dev.straggler.trace.EventKind.values()) {
            kinds.add(k.name());
        }
        for (String[] e : otf2Print()) {
            if (kinds.contains(e[0])) {
                expected.merge(indexOfId.get(Long.parseLong(e[1])) + " " + e[0], 1L, Long::sum);
            }
        }
        Map<String, Long> actual = new TreeMap<>();
        for (List<Object> r : rows("SELECT location, kind, COUNT(*) FROM events GROUP BY ALL")) {
            actual.put(r.get(0) + " " + r.get(1), (Long) r.get(2));
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected, actual);
    }

    @Test
    void firstEntersOfEveryLocationHaveOtf2PrintsRegionAndTimestamp() throws Exception {
        Map<String, List<String>> expected = new TreeMap<>();
        Map<Long, Integer> indexOfId = new HashMap<>();
        for (List<Object> r : rows("SELECT source_id, id FROM locations")) {
            indexOfId.put(((Number) r.get(0)).longValue(), (Integer) r.get(1));
        }
        Pattern region = Pattern.compile("Region: \"([^\"]*)\"");
        for (String[] e : otf2Print()) {
            if (e[0].equals("ENTER")) {
                List<String> l = expected.computeIfAbsent("" + indexOfId.get(Long.parseLong(e[1])), k -> new ArrayList<>());
                if (l.size() < 20) {
                    Matcher m = region.matcher(e[3]);
                    assertTrue(m.find());
                    l.add(e[2] + " " + m.group(1));
                }
            }
        }
        Map<String, List<String>> actual = new TreeMap<>();
        for (List<Object> r : rows("SELECT e.location, e.tick, r.name FROM events e JOIN regions r ON r.id = e.region "
                + "WHERE e.kind = 'ENTER' QUALIFY row_number() OVER (PARTITION BY e.location ORDER BY e.event) <= 20 "
                + "ORDER BY e.location, e.event")) {
            actual.computeIfAbsent("" + r.get(0), k -> new ArrayList<>()).add(r.get(1) + " " + r.get(2));
        }
        assertEquals(expected, actual);
    }

    @Test
    void callPathsAreTheAnalysisCubesCallPaths() throws Exception {
        SeverityCube cube = session.analysis().cube();
        List<String> expected = new ArrayList<>();
        for (int c = 0; c < cube.callPaths().size(); c++) {
            expected.add(c + " " + String.join("/", cube.pathNames(c)));
        }
        List<String> actual = new ArrayList<>();
        for (List<Object> r : rows("SELECT id, path FROM callpaths ORDER BY id")) {
            actual.add(r.get(0) + " " + r.get(1));
        }
        assertEquals(expected, actual);
    }

    @Test
    void severitiesPerMetricAndCallPathEqualScalascasCube() throws Exception {
        SeverityCube scout = CubexReader.read(dir.resolve("scout.cubex"));
        for (String metric : List.of("time", "visits", "mpi_latesender", "mpi_wait_nxn", "bytes_sent")) {
            int m = scout.metricIndex(metric);
            Map<String, Double> expected = new TreeMap<>();
            for (int c = 0; c < scout.callPaths().size(); c++) {
                double v = scout.sumOverLocations(m, c);
                if (v != 0) {
                    expected.put(String.join("/", scout.pathNames(c)), v);
                }
            }
            Map<String, Double> actual = new TreeMap<>();
            for (List<Object> r : rows("SELECT c.path, SUM(s.value) FROM severities s JOIN callpaths c ON c.id = s.callpath "
                    + "WHERE s.metric = '" + metric + "' GROUP BY c.path")) {
                actual.put((String) r.get(0), (Double) r.get(1));
            }
            assertEquals(expected.keySet(), actual.keySet(), metric);
            for (String k : expected.keySet()) {
                assertEquals(expected.get(k), actual.get(k), 1e-9 * Math.max(1, Math.abs(expected.get(k))), metric + " " + k);
            }
        }
    }

    @Test
    void waitStatesSummedPerPatternAndCallPathEqualTheCube() throws Exception {
        SeverityCube cube = session.analysis().cube();
        List<String> patterns = new ArrayList<>();
        for (List<Object> r : rows("SELECT DISTINCT pattern FROM wait_states ORDER BY 1")) {
            patterns.add((String) r.get(0));
        }
        assertTrue(patterns.contains("mpi_latesender") && patterns.contains("mpi_wait_nxn"), patterns.toString());
        for (String metric : patterns) {
            int m = cube.metricIndex(metric);
            Map<Integer, Double> expected = new TreeMap<>();
            for (int c = 0; c < cube.callPaths().size(); c++) {
                double v = cube.sumOverLocations(m, c);
                if (v != 0) {
                    expected.put(c, v);
                }
            }
            Map<Integer, Double> actual = new TreeMap<>();
            for (List<Object> r : rows("SELECT callpath, SUM(severity) FROM wait_states WHERE pattern = '" + metric
                    + "' GROUP BY callpath")) {
                actual.put((Integer) r.get(0), (Double) r.get(1));
            }
            assertEquals(expected.keySet(), actual.keySet(), metric);
            for (Integer k : expected.keySet()) {
                assertEquals(expected.get(k), actual.get(k), 1e-9 * Math.max(1, expected.get(k)), metric + " " + k);
            }
        }
    }

    @Test
    void messagesEqualOtf2PrintsSendsPerSenderAndTag() throws Exception {
        Pattern recv = Pattern.compile("Tag: (\\d+), Length: (\\d+)");
        Map<String, long[]> expected = new TreeMap<>();
        for (String[] e : otf2Print()) {
            if (e[0].equals("MPI_SEND") || e[0].equals("MPI_ISEND")) {
                Matcher m = recv.matcher(e[3]);
                assertTrue(m.find(), e[3]);
                long[] v = expected.computeIfAbsent(e[1] + ">" + m.group(1), k -> new long[2]);
                v[0]++;
                v[1] += Long.parseLong(m.group(2));
            }
        }
        Map<String, long[]> actual = new TreeMap<>();
        for (List<Object> r : rows("SELECT l.source_id, m.tag, COUNT(*), SUM(m.bytes) FROM messages m "
                + "JOIN locations l ON l.id = m.send_location GROUP BY ALL")) {
            actual.put(r.get(0) + ">" + r.get(1), new long[]{((Number) r.get(2)).longValue(), ((Number) r.get(3)).longValue()});
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected.keySet(), actual.keySet());
        for (String k : expected.keySet()) {
            assertEquals(List.of(expected.get(k)[0], expected.get(k)[1]), List.of(actual.get(k)[0], actual.get(k)[1]), k);
        }
    }

    @Test
    void collectivesEqualOtf2PrintsCollectiveEndsPerOperationAndRank() throws Exception {
        Pattern op = Pattern.compile("Operation: ([A-Z_]+), Communicator: \"[^\"]*\" <(\\d+)>");
        Map<String, Long> expected = new TreeMap<>();
        for (String[] e : otf2Print()) {
            if (e[0].equals("MPI_COLLECTIVE_END")) {
                Matcher m = op.matcher(e[3]);
                assertTrue(m.find(), e[3]);
                expected.merge(e[1] + " " + m.group(1), 1L, Long::sum);
            }
        }
        Map<String, Long> actual = new TreeMap<>();
        for (List<Object> r : rows("SELECT l.source_id, c.op, COUNT(*) FROM collectives c JOIN locations l ON l.id = c.location "
                + "GROUP BY ALL")) {
            actual.put(r.get(0) + " " + r.get(1), (Long) r.get(2));
        }
        assertEquals(expected, actual);
    }

    private static List<String[]> pythonOtf2;

    /** The facts otf2_events.py prints for the trace, read by python3-otf2; skips when that module is absent. */
    static List<String[]> pythonOtf2() throws IOException, InterruptedException {
        if (pythonOtf2 != null) {
            return pythonOtf2;
        }
        Path python = Path.of("/usr/bin/python3");
        Assumptions.assumeTrue(Files.isExecutable(python), "/usr/bin/python3 absent (apt-get install python3-otf2)");
        Process probe = new ProcessBuilder(python.toString(), "-c", "import otf2").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        Assumptions.assumeTrue(probe.waitFor() == 0, "python3-otf2 absent (apt-get install python3-otf2)");
        Path script = Files.createTempFile("otf2_events", ".py");
        try (var in = SqlSessionRealTraceTest.class.getResourceAsStream("otf2_events.py")) {
            Files.write(script, in.readAllBytes());
        }
        Process p = new ProcessBuilder(python.toString(), script.toString(), dir.resolve("traces.otf2").toString(),
                String.valueOf(FIRST)).start();
        List<String[]> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.add(line.split(" "));
            }
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), err);
        Files.delete(script);
        pythonOtf2 = out;
        return out;
    }

    private static final int FIRST = 200;

    private static java.util.Set<String> eventKinds() {
        java.util.Set<String> kinds = new java.util.HashSet<>();
        for (dev.straggler.trace.EventKind k : dev.straggler.trace.EventKind.values()) {
            kinds.add(k.name());
        }
        return kinds;
    }

    /** Every record kind python3-otf2 reads that the events table has: the same count per location. */
    @Test
    void eventCountsPerLocationAndKindEqualPythonOtf2s() throws Exception {
        java.util.Set<String> kinds = eventKinds();
        Map<String, Long> expected = new TreeMap<>();
        for (String[] f : pythonOtf2()) {
            if (f[0].equals("count") && kinds.contains(f[2])) {
                expected.put(f[1] + " " + f[2], Long.parseLong(f[3]));
            }
        }
        Map<String, Long> actual = new TreeMap<>();
        for (List<Object> r : rows("SELECT l.source_id, e.kind, COUNT(*) FROM events e JOIN locations l "
                + "ON l.id = e.location GROUP BY ALL")) {
            actual.put(r.get(0) + " " + r.get(1), (Long) r.get(2));
        }
        assertTrue(expected.size() >= 4 * 6, expected.toString());
        assertEquals(expected, actual);
    }

    /**
     * The first records of each location as python3-otf2 reads them (those of a kind the events table has): the same
     * kinds in the same order, the same ticks, and times equal to the double python computes from the trace's clock.
     */
    @Test
    void firstEventsOfEveryLocationHavePythonOtf2sKindTickAndTime() throws Exception {
        java.util.Set<String> kinds = eventKinds();
        Map<String, List<String>> expected = new TreeMap<>();
        for (String[] f : pythonOtf2()) {
            if (f[0].equals("first") && kinds.contains(f[2])) {
                expected.computeIfAbsent(f[1], k -> new ArrayList<>())
                        .add(f[2] + " " + f[3] + " " + Double.parseDouble(f[4]));
            }
        }
        Map<String, List<String>> actual = new TreeMap<>();
        for (String loc : expected.keySet()) {
            for (List<Object> r : rows("SELECT e.kind, e.tick, e.time FROM events e JOIN locations l ON l.id = e.location "
                    + "WHERE l.source_id = " + Long.parseLong(loc) + " ORDER BY e.event LIMIT " + expected.get(loc).size())) {
                actual.computeIfAbsent(loc, k -> new ArrayList<>()).add(r.get(0) + " " + r.get(1) + " " + r.get(2));
            }
        }
        assertEquals(4, expected.size(), expected.keySet().toString());
        assertEquals(expected, actual);
    }

    /**
     * Every matched message is a send and a receive python3-otf2 reads with the same sending and receiving locations,
     * tag and length, and every one it reads is matched: the messages per (sender, receiver, tag, bytes) equal its
     * sends and its receives alike.
     */
    @Test
    void messagesEqualPythonOtf2sSendsAndReceives() throws Exception {
        Map<String, Long> sends = new TreeMap<>();
        Map<String, Long> receives = new TreeMap<>();
        for (String[] f : pythonOtf2()) {
            if (f[0].equals("send") || f[0].equals("recv")) {
                (f[0].equals("send") ? sends : receives).merge(f[1] + ">" + f[2] + " tag " + f[3] + " " + f[4] + " B",
                        1L, Long::sum);
            }
        }
        Map<String, Long> actual = new TreeMap<>();
        for (List<Object> r : rows("SELECT s.source_id, r.source_id, m.tag, m.bytes, COUNT(*) FROM messages m "
                + "JOIN locations s ON s.id = m.send_location JOIN locations r ON r.id = m.recv_location GROUP BY ALL")) {
            actual.put(r.get(0) + ">" + r.get(1) + " tag " + r.get(2) + " " + r.get(3) + " B", (Long) r.get(4));
        }
        assertFalse(sends.isEmpty());
        assertEquals(sends, actual);
        assertEquals(receives, actual);
    }
}
