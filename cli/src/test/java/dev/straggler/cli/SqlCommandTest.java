package dev.straggler.cli;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code straggler sql}: its outputs, its errors in one line, and the documented example questions. */
class SqlCommandTest {
    @TempDir
    static Path tmp;
    static Path store;

    @BeforeAll
    static void generate() {
        store = tmp.resolve("ls");
        CliTest.Run g = run("generate", "late-sender", "-n", "4", "-o", store.toString(), "-q");
        assertEquals(0, g.code(), g.err());
    }

    private static Path mg() {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path dir = Path.of(shared, "traces", "real", "npb-mg.S-4", "traces.otf2");
        Assumptions.assumeTrue(Files.isRegularFile(dir), "shared traces absent");
        return dir;
    }

    private static void oneLineError(CliTest.Run r, String contains) {
        assertNotEquals(0, r.code(), r.out());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("straggler: ") && r.err().contains(contains), r.err());
    }

    @Test
    void badSqlIsOneLineAndExitOne() {
        oneLineError(run("sql", store.toString(), "SELEC kind FROM events"), "Parser Error");
    }

    @Test
    void unknownTableIsOneLineNamingIt() {
        oneLineError(run("sql", store.toString(), "SELECT * FROM evnts"), "evnts");
    }

    @Test
    void statementsThatChangeSomethingAreRefused() {
        oneLineError(run("sql", store.toString(), "DELETE FROM regions"), "only queries run here");
        Path out = tmp.resolve("copied.csv");
        oneLineError(run("sql", store.toString(), "COPY regions TO '" + out + "'"), "only queries run here");
        assertTrue(!Files.exists(out));
    }

    @Test
    void aDamagedTraceIsOneLine() throws Exception {
        Path damaged = tmp.resolve("damaged");
        CliTest.Run g = run("generate", "late-sender", "-n", "2", "-o", damaged.toString(), "-q");
        assertEquals(0, g.code(), g.err());
        Path events = Files.list(damaged.resolve("events")).sorted().findFirst().orElseThrow();
        byte[] b = Files.readAllBytes(events);
        Files.write(events, java.util.Arrays.copyOf(b, b.length / 2));
        CliTest.Run r = run("sql", damaged.toString(), "SELECT COUNT(*) FROM events");
        assertNotEquals(0, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void eventCountEqualsInfo() throws Exception {
        CliTest.Run info = run("info", store.toString(), "--json", "-q");
        long events = new com.fasterxml.jackson.databind.ObjectMapper().readTree(info.out()).get("analysedEvents").asLong();
        CliTest.Run r = run("sql", store.toString(), "SELECT COUNT(*) AS n FROM events", "-q");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(" " + events + "\n") || r.out().contains("\n" + events + "\n"), r.out());
        assertTrue(r.out().strip().endsWith("(1 row)"), r.out());
    }

    @Test
    void parquetIsReadBackByDuckDbWithTheCsvsValues() throws Exception {
        String q = "SELECT location, kind, COUNT(*) AS n, SUM(time) AS t FROM events GROUP BY ALL ORDER BY ALL";
        Path csv = tmp.resolve("r.csv");
        Path parquet = tmp.resolve("r.parquet");
        assertEquals(0, run("sql", store.toString(), q, "--csv", csv.toString(), "-q").code());
        CliTest.Run p = run("sql", store.toString(), q, "--parquet", parquet.toString(), "-q");
        assertEquals(0, p.code(), p.err());
        List<String> fromParquet = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM read_parquet('" + parquet + "')")) {
            while (rs.next()) {
                fromParquet.add(rs.getInt(1) + "," + rs.getString(2) + "," + rs.getLong(3) + ","
                        + SqlCommand.text(rs.getDouble(4)));
            }
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals("location,kind,n,t", lines.get(0));
        assertEquals(lines.subList(1, lines.size()), fromParquet);
    }

    /**
     * pandas reads the CSV and JSON outputs with the same values (its Parquet reader needs pyarrow, which Debian does
     * not package; the Parquet output is read back by DuckDB above).
     */
    @Test
    void csvAndJsonAreReadByPandasWithTheSameValues() throws Exception {
        Assumptions.assumeTrue(python("import pandas").isEmpty(), "pandas absent: apt-get install python3-pandas");
        String q = "SELECT kind, COUNT(*) AS n FROM events GROUP BY kind ORDER BY kind";
        Path csv = tmp.resolve("p.csv");
        Path json = tmp.resolve("p.json");
        assertEquals(0, run("sql", store.toString(), q, "--csv", csv.toString(), "-q").code());
        assertEquals(0, run("sql", store.toString(), q, "--json", json.toString(), "-q").code());
        String out = python("import pandas as pd\nc = pd.read_csv('" + csv + "')\nj = pd.read_json('" + json
                + "')\nprint(int(c['n'].sum()), int(j['n'].sum()), list(c['kind']) == list(j['kind']))");
        CliTest.Run n = run("sql", store.toString(), "SELECT COUNT(*) FROM events", "--csv", tmp.resolve("n.csv").toString());
        assertEquals(0, n.code());
        String total = Files.readAllLines(tmp.resolve("n.csv")).get(1);
        assertEquals(total + " " + total + " True", out.strip());
    }

    private static String python(String script) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/python3", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor() == 0 ? out.isEmpty() ? "" : out : "failed: " + out;
    }

    /** A second read of the statement's events stream would answer from no rows: refused in one line instead. */
    @Test
    void aStatementThatReadsEventsTwiceIsRefusedInWordsNotAnsweredEmpty() {
        CliTest.Run r = run("sql", CliTest.SAMPLE.toString(),
                "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM events WHERE kind = 'ENTER')");
        assertEquals(1, r.code(), r.out());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("`events` can be read once per statement"), r.err());
    }

    /** A self-join is answered from one read of the view: the sample has 17 events per location, 2 · 17² pairs. */
    @Test
    void aSelfJoinOnEventsIsAnsweredFromOneRead() throws Exception {
        Path csv = tmp.resolve("self.csv");
        CliTest.Run r = run("sql", CliTest.SAMPLE.toString(),
                "SELECT count(*) AS n FROM events a JOIN events b ON a.location = b.location", "--csv", csv.toString(),
                "-q");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("n", "578"), Files.readAllLines(csv));
    }

    @Test
    void jsonHasOneObjectPerRow() throws Exception {
        Path json = tmp.resolve("r.json");
        assertEquals(0, run("sql", store.toString(), "SELECT id, name FROM regions ORDER BY id", "--json",
                json.toString(), "-q").code());
        var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        assertTrue(tree.isArray() && tree.size() > 0);
        assertEquals(0, tree.get(0).get("id").asInt());
    }

    @Test
    void queryFileAndPromptGiveTheSameAnswer() throws Exception {
        Path q = tmp.resolve("q.sql");
        Files.writeString(q, "SELECT kind, COUNT(*) AS n FROM events GROUP BY kind ORDER BY kind;\n");
        CliTest.Run fromFile = run("sql", store.toString(), "--query-file", q.toString(), "-q");
        assertEquals(0, fromFile.code(), fromFile.err());
        InputStream old = System.in;
        CliTest.Run prompt;
        try {
            // two statements over events: each gets its own stream
            System.setIn(new ByteArrayInputStream(("SELECT kind, COUNT(*) AS n\nFROM events GROUP BY kind ORDER BY kind;\n"
                    + "SELECT kind, COUNT(*) AS n FROM events GROUP BY kind ORDER BY kind;\n.quit\n")
                    .getBytes(StandardCharsets.UTF_8)));
            prompt = run("sql", store.toString(), "-q");
        } finally {
            System.setIn(old);
        }
        assertEquals(0, prompt.code(), prompt.err());
        assertEquals(fromFile.out() + fromFile.out(), prompt.out());
    }

    @Test
    void aDatabaseIsOpenedReadOnly() throws Exception {
        Path db = tmp.resolve("runs.duckdb");
        assertEquals(0, run("db", "add", "--db", db.toString(), "--no-root-causes", "-q", store.toString()).code());
        CliTest.Run r = run("sql", "db:" + db, "SELECT COUNT(*) AS trials FROM trials");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("     1\n"), r.out());
        oneLineError(run("sql", "db:" + db, "DELETE FROM trials"), "only queries run here");
        CliTest.Run still = run("sql", "db:" + db, "SELECT COUNT(*) AS trials FROM trials");
        assertEquals(r.out(), still.out());
    }

    /** The ```sql blocks of docs/sql.md. */
    static List<String> documentedQueries() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "sql.md"));
        Matcher m = Pattern.compile("```sql\n(.*?)```", Pattern.DOTALL).matcher(doc);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    @Test
    void everyDocumentedQueryRunsOnMg() throws Exception {
        Path trace = mg();
        List<String> queries = documentedQueries();
        assertTrue(queries.size() >= 6, queries.toString());
        for (String q : queries) {
            CliTest.Run r = run("sql", trace.toString(), q, "--csv", tmp.resolve("doc.csv").toString(), "-q");
            assertEquals(0, r.code(), q + "\n" + r.err());
            assertTrue(Files.readAllLines(tmp.resolve("doc.csv")).size() > 1 || q.contains("1048576"), q);
        }
    }

    /** The example: the ten longest Late Sender instances, each with the call path that delayed its sender. */
    @Test
    void theTenLongestLateSendersExampleNamesTheDelayingCallPath() throws Exception {
        Path trace = mg();
        String q = documentedQueries().stream().filter(s -> s.contains("delayed_by")).findFirst().orElseThrow();
        Path csv = tmp.resolve("delayed.csv");
        CliTest.Run r = run("sql", trace.toString(), q, "--csv", csv.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals("severity,rank,late_sender,start_time,waited_in,delay,propagated,delayed_by", lines.get(0));
        assertEquals(11, lines.size(), lines.toString());
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            double severity = Double.parseDouble(f[0]);
            double delay = Double.parseDouble(f[5]);
            double propagated = Double.parseDouble(f[6]);
            assertTrue(f.length == 8 && f[7].startsWith("mg.S.x/"), line);
            assertTrue(delay >= 0 && propagated >= 0 && delay + propagated <= severity + 1e-12, line);
        }
    }

    /**
     * late-receiver-nonblocking: the sender's MPI_Wait completing an Isend waits for the receiver, which worked
     * {@code extra} = 0.05 s longer in do_work since their previous exchange; the whole wait (extra less the send
     * overhead of 0.5 us) is charged to rank 1's do_work, nothing propagated. The instances are found by the Wait
     * that completes each Isend, which comes after the Isend's own row.
     */
    @Test
    void aNonBlockingLateReceiverIsChargedToTheReceiversExtraWork() throws Exception {
        Path lr = tmp.resolve("lrn");
        assertEquals(0, run("generate", "late-receiver-nonblocking", "-n", "2", "-o", lr.toString(), "--param",
                "reps=4", "-q").code());
        Path csv = tmp.resolve("lrn.csv");
        CliTest.Run r = run("sql", lr.toString(), "SELECT w.severity, w.delay_rank, w.delay, w.propagated, c.path "
                + "FROM wait_states w LEFT JOIN callpaths c ON c.id = w.delay_callpath "
                + "WHERE w.pattern = 'mpi_latereceiver'", "--csv", csv.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals(5, lines.size(), lines.toString());
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            assertEquals(0.0499995, Double.parseDouble(f[0]), 1e-12, line);
            assertEquals("1", f[1], line);
            assertEquals(0.0499995, Double.parseDouble(f[2]), 1e-12, line);
            assertEquals(0.0, Double.parseDouble(f[3]), 1e-12, line);
            assertTrue(f[4].endsWith("/do_work"), line);
        }
    }

    @Test
    void noRootCausesLeavesTheDelayColumnsNull() {
        String q = "SELECT COUNT(*) AS n, COUNT(delay) AS explained FROM wait_states WHERE pattern = 'mpi_latesender'";
        CliTest.Run with = run("sql", store.toString(), q, "--csv", tmp.resolve("with.csv").toString(), "-q");
        CliTest.Run without = run("sql", store.toString(), q, "--no-root-causes", "--csv",
                tmp.resolve("without.csv").toString(), "-q");
        assertEquals(0, with.code(), with.err());
        assertEquals(0, without.code(), without.err());
        try {
            String[] w = Files.readAllLines(tmp.resolve("with.csv")).get(1).split(",");
            String[] wo = Files.readAllLines(tmp.resolve("without.csv")).get(1).split(",");
            assertTrue(Long.parseLong(w[0]) > 0 && w[0].equals(w[1]), String.join(",", w));
            assertEquals(List.of(w[0], "0"), List.of(wo));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void thePapersQuestionEqualsTheBuiltInPerCommunicatorTable() throws Exception {
        Path trace = mg();
        String q = documentedQueries().stream().filter(s -> s.contains("FROM communicator_waits")).findFirst()
                .orElseThrow();
        Path csv = tmp.resolve("paper.csv");
        assertEquals(0, run("sql", trace.toString(), q, "--csv", csv.toString(), "-q").code());
        Map<Integer, String> actual = new TreeMap<>();
        for (String line : Files.readAllLines(csv).subList(1, Files.readAllLines(csv).size())) {
            String[] f = line.split(",");
            actual.put(Integer.parseInt(f[0]), f[1] + "," + f[2]);
        }
        Map<Integer, String> expected = new TreeMap<>();
        try (TraceSource s = Traces.open(trace)) {
            for (CommunicatorWaits.SizeClass c : CommunicatorWaits.bySize(Analysis.run(s, AnalysisOptions.defaults())
                    .communicators())) {
                expected.put(c.size(), c.communicators() + "," + SqlCommand.text(c.waiting()));
            }
        }
        assertTrue(!expected.isEmpty());
        assertEquals(expected.keySet(), actual.keySet());
        for (int size : expected.keySet()) {
            String[] e = expected.get(size).split(",");
            String[] a = actual.get(size).split(",");
            assertEquals(e[0], a[0], "communicators of size " + size);
            assertEquals(Double.parseDouble(e[1]), Double.parseDouble(a[1]), 1e-12, "waiting at size " + size);
        }
    }
}
