package dev.straggler.experiments;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.callsite.CallsiteEntry;
import dev.straggler.patterns.callsite.CallsiteProfiler;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The experiment database on both engines — embedded DuckDB and a real PostgreSQL server the test starts — against
 * ground truth it did not compute: the simulator's closed forms, Scalasca's own per-location values of a real trace,
 * and the analysis it stored, read back value for value.
 */
class ExperimentDatabaseTest {
    @TempDir
    static Path tmp;

    /** GYRO-like runs: p = 32 divides the work (no waiting), p = 48 does not (Wait at N x N in the transpose). */
    static final Map<Integer, SeverityCube> CUBES = new HashMap<>();
    static final Map<Integer, CallsiteStatistics> SITES = new HashMap<>();
    static final Map<Integer, List<CommunicatorWaits>> COMMS = new HashMap<>();
    static final Map<Integer, ExpectedSeverities> EXPECTED = new HashMap<>();

    @BeforeAll
    static void runs() throws IOException {
        for (int p : new int[]{32, 48}) {
            MemoryTrace t = new MemoryTrace("gyro-like.p" + p);
            EXPECTED.put(p, Scenarios.byName("gyro-like").generate(ScenarioParams.of(p), t).expected());
            AnalysisResult r = Analysis.run(t, AnalysisOptions.defaults());
            CUBES.put(p, r.cube());
            COMMS.put(p, r.communicators());
            SITES.put(p, CallsiteProfiler.profile(t).callsites());
        }
    }

    private static int counter;

    /** A fresh, empty database of the engine. */
    static ExperimentDatabase open(String engine) throws Exception {
        return switch (engine) {
            case "duckdb" -> ExperimentDatabase.open(tmp.resolve("db" + (++counter) + ".duckdb").toString());
            case "postgresql" -> ExperimentDatabase.open(PostgresServer.get().newDatabase());
            default -> throw new IllegalArgumentException(engine);
        };
    }

    static ExperimentDatabase.NewTrial trial(int p, String hash) {
        return new ExperimentDatabase.NewTrial("gyro", "scaling", "gyro-like.p" + p, p, CUBES.get(p), SITES.get(p),
                COMMS.get(p), Map.of("units", "2048"), "/runs/gyro-like.p" + p, "trace", 1000, hash, false, "straggler test", "test");
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void storedAnalysisReadsBackValueForValue(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(trial(48, "h48")), false);
            ExperimentDatabase.TrialInfo info = db.list(Selection.all("x")).get(0);
            assertEquals(48, info.processes());
            assertEquals(Map.of("units", "2048"), info.parameters());
            ExperimentDatabase.LoadedTrial back = db.load(info);
            SeverityCube a = CUBES.get(48);
            SeverityCube b = back.cube();
            assertEquals(a.metrics(), b.metrics());
            assertEquals(a.regions(), b.regions());
            assertEquals(a.callPaths(), b.callPaths());
            assertEquals(a.attributes(), b.attributes());
            for (int m = 0; m < a.metrics().size(); m++) {
                for (int c = 0; c < a.callPaths().size(); c++) {
                    for (int l = 0; l < a.locations().size(); l++) {
                        // doubles are stored as DOUBLE PRECISION: bit for bit
                        assertEquals(a.get(m, c, l), b.get(m, c, l), 0.0, a.metrics().get(m).uniqueName());
                    }
                }
                assertEquals(a.cnodeId(0), b.cnodeId(0));
            }
            CallsiteStatistics s = SITES.get(48);
            CallsiteStatistics t = back.callsites();
            assertEquals(s.toScalingExperiment("x"), t.toScalingExperiment("x"));
            assertEquals(s.callsites().size(), t.callsites().size());
            for (int i = 0; i < s.callsites().size(); i++) {
                CallsiteEntry x = s.callsites().get(i);
                CallsiteEntry y = t.callsites().get(i);
                assertEquals(x.site(), y.site());
                assertEquals(x.perRank(), y.perRank());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void waitsPerCommunicatorReadBackValueForValueAndEqualTheClosedForm(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(trial(48, "h48")), false);
            ExperimentDatabase.LoadedTrial back = db.load(db.list(Selection.all("x")).get(0));
            assertEquals(ExperimentDatabase.Communicators.STORED, back.communicatorsStored());
            assertEquals("trace", back.sourceKind());
            List<CommunicatorWaits> a = COMMS.get(48);
            List<CommunicatorWaits> b = back.communicators();
            assertEquals(a.size(), b.size());
            for (int i = 0; i < a.size(); i++) {
                assertEquals(a.get(i).id(), b.get(i).id());
                assertEquals(a.get(i).name(), b.get(i).name());
                assertArrayEquals(a.get(i).ranks(), b.get(i).ranks());
                // same metrics, same order (metric-tree order), bit for bit
                assertEquals(List.copyOf(a.get(i).metrics().entrySet()), List.copyOf(b.get(i).metrics().entrySet()));
            }
            // the scenario's closed form: all of the run's Wait at N x N is in the transposes of communicators of 16
            double expected = EXPECTED.get(48).entries().stream().filter(e -> e.metric().equals("mpi_wait_nxn"))
                    .mapToDouble(ExpectedSeverities.Entry::value).sum();
            String csv = query(db, "SELECT size, SUM(seconds) AS waiting FROM communicator_totals "
                    + "WHERE metric = 'mpi_wait_nxn' GROUP BY size");
            String[] rows = csv.split("\n");
            assertEquals(2, rows.length, csv);
            assertEquals("16", rows[1].split(",")[0]);
            assertEquals(expected, Double.parseDouble(rows[1].split(",")[1]), 1e-12);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void aTrialWithoutACommunicatorDimensionIsToldFromOneStoredBeforeTheDatabaseKeptThem(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            ExperimentDatabase.NewTrial t = trial(32, "cubex");
            db.add(List.of(new ExperimentDatabase.NewTrial(t.application(), t.experiment(), t.name(), t.processes(),
                    t.cube(), null, null, t.parameters(), "/runs/p32.cubex", "cubex", 1, "cubex", false, "test",
                    "test")), false);
            ExperimentDatabase.LoadedTrial back = db.load(db.list(Selection.all("x")).get(0));
            assertEquals(ExperimentDatabase.Communicators.NOT_IN_INPUT, back.communicatorsStored());
            assertEquals(null, back.communicators());
            assertEquals("cubex", back.sourceKind());
        }
    }

    /** The database as {@code spec}, reached without Straggler: to make it what an older Straggler wrote. */
    private static void sql(String engine, String spec, String... statements) throws Exception {
        String url = engine.equals("duckdb") ? "jdbc:duckdb:" + spec : "jdbc:" + spec;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
             java.sql.Statement s = c.createStatement()) {
            for (String q : statements) {
                s.execute(q);
            }
        }
    }

    /** A fresh database's spec (a DuckDB file or a PostgreSQL URL). */
    private static String newSpec(String engine) throws Exception {
        return engine.equals("duckdb") ? tmp.resolve("db" + (++counter) + ".duckdb").toString()
                : PostgresServer.get().newDatabase();
    }

    /** Version 1 had none of the communicator tables: what version 2 added, taken away again. */
    private static void makeVersion1(String engine, String spec) throws Exception {
        sql(engine, spec, "DROP VIEW communicator_totals", "DROP TABLE communicator_waits",
                "DROP TABLE communicator_members", "DROP TABLE communicators", "DROP TABLE communicator_runs",
                "UPDATE schema_version SET version = 1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void aVersion1DatabaseIsReadAsItIsAndUpgradedByTheNextAdd(String engine) throws Exception {
        String spec = newSpec(engine);
        try (ExperimentDatabase db = ExperimentDatabase.open(spec)) {
            db.add(List.of(trial(32, "a")), false);
        }
        makeVersion1(engine, spec);
        try (ExperimentDatabase db = ExperimentDatabase.openExisting(spec)) {
            assertEquals(1, db.schemaVersion());
            ExperimentDatabase.LoadedTrial old = db.load(db.list(Selection.all("x")).get(0));
            assertEquals(ExperimentDatabase.Communicators.ADDED_BEFORE_KEPT, old.communicatorsStored());
            assertEquals(null, old.communicators());
            assertEquals(CUBES.get(32).total(0), old.cube().total(0), 0.0, "the rest of the trial is there");
            Map<String, Long> counts = db.rowCounts();
            // a failed add (the same run again) leaves the database at version 1, rows and all
            assertThrows(IOException.class, () -> db.add(List.of(trial(48, "a")), false));
            assertEquals(1, db.schemaVersion());
            assertEquals(counts, db.rowCounts());
        }
        try (ExperimentDatabase db = ExperimentDatabase.openExisting(spec)) {
            assertEquals(1, db.schemaVersion(), "reading did not change it");
            db.add(List.of(trial(48, "b")), false);
            assertEquals(Schema.VERSION, db.schemaVersion());
        }
        try (ExperimentDatabase db = ExperimentDatabase.openExisting(spec)) {
            assertEquals(Schema.VERSION, db.schemaVersion());
            List<ExperimentDatabase.TrialInfo> trials = db.list(Selection.all("x"));
            assertEquals(ExperimentDatabase.Communicators.ADDED_BEFORE_KEPT, db.load(trials.get(0)).communicatorsStored());
            assertEquals(ExperimentDatabase.Communicators.STORED, db.load(trials.get(1)).communicatorsStored());
            // adding the old trial again (--replace) stores what it lacked
            db.add(List.of(trial(32, "a")), true);
            ExperimentDatabase.TrialInfo again = db.list(Selection.all("x")).stream().filter(t -> t.processes() == 32)
                    .findFirst().orElseThrow();
            assertEquals(COMMS.get(32).size(), db.load(again).communicators().size());
            db.remove(db.list(Selection.all("x")).stream().map(ExperimentDatabase.TrialInfo::id).toList());
            assertTrue(db.rowCounts().values().stream().allMatch(n -> n == 0), db.rowCounts().toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void removingFromAVersion1DatabaseLeavesItAtVersion1(String engine) throws Exception {
        String spec = newSpec(engine);
        try (ExperimentDatabase db = ExperimentDatabase.open(spec)) {
            db.add(List.of(trial(32, "a"), trial(48, "b")), false);
        }
        makeVersion1(engine, spec);
        try (ExperimentDatabase db = ExperimentDatabase.openExisting(spec)) {
            assertEquals(1, db.remove(List.of(1)));
            assertEquals(1, db.list(Selection.all("x")).size());
            assertEquals(1, db.schemaVersion());
        }
    }

    @Test
    void aDatabaseOfANewerVersionIsRefusedNamingBoth() throws Exception {
        String spec = newSpec("duckdb");
        ExperimentDatabase.open(spec).close();
        sql("duckdb", spec, "UPDATE schema_version SET version = " + (Schema.VERSION + 1));
        IOException e = assertThrows(IOException.class, () -> ExperimentDatabase.openExisting(spec));
        assertEquals(spec + ": experiment database of schema version " + (Schema.VERSION + 1) + "; this Straggler reads "
                + "versions 1 to " + Schema.VERSION, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void metricTotalsEqualTheScenariosClosedForm(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(trial(32, "h32"), trial(48, "h48")), false);
            for (int p : new int[]{32, 48}) {
                double expected = EXPECTED.get(p).entries().stream().filter(e -> e.metric().equals("mpi_wait_nxn"))
                        .mapToDouble(ExpectedSeverities.Entry::value).sum();
                String csv = query(db, "SELECT value FROM metric_totals WHERE metric = 'mpi_wait_nxn' AND processes = " + p);
                assertEquals(expected, Double.parseDouble(csv.split("\n")[1]), 1e-12, "p = " + p);
            }
            assertTrue(EXPECTED.get(48).entries().stream().anyMatch(e -> e.metric().equals("mpi_wait_nxn")),
                    "48 does not divide the 2048 work units: there is waiting to find");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void metricTotalsOfARealTraceEqualScalascasOwnValues(String engine) throws Exception {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path dir = Path.of(shared, "traces", "real", "npb-cg.S-4");
        Assumptions.assumeTrue(Files.isRegularFile(dir.resolve("scalasca_dump.csv")), "shared traces absent");
        SeverityCube cube;
        try (TraceSource s = Traces.open(dir.resolve("traces.otf2"))) {
            cube = Analysis.run(s, AnalysisOptions.defaults()).cube();
        }
        Map<String, Double> dump = dumpTotals(dir.resolve("scalasca_dump.csv"));
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(new ExperimentDatabase.NewTrial("cg", "npb", "npb-cg.S-4", 4, cube, null, null, Map.of(), dir.toString(),
                    "trace", 0, "cg4", false, "straggler test", "test")), false);
            for (String metric : List.of("visits", "mpi_latereceiver", "mpi_wait_nxn", "mpi_barrier_wait", "bytes_sent")) {
                String csv = query(db, "SELECT value FROM metric_totals WHERE metric = '" + metric + "'");
                double actual = Double.parseDouble(csv.split("\n")[1]);
                // the dump prints each value to 8 decimals, so its sum is off by up to a few 1e-8 s
                assertEquals(dump.get(metric), actual, 1e-6 * Math.abs(dump.get(metric)) + 1e-8, metric);
            }
        }
    }

    private static Map<String, Double> dumpTotals(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        String[] head = lines.get(0).split(",");
        Map<String, Double> out = new HashMap<>();
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",");
            for (int i = 2; i < head.length && i < f.length; i++) {
                out.merge(head[i].trim(), Double.parseDouble(f[i]), Double::sum);
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void addingTheSameRunTwiceIsRefusedAndChangesNothing(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(trial(32, "same")), false);
            Map<String, Long> before = db.rowCounts();
            IOException e = assertThrows(IOException.class, () -> db.add(List.of(trial(48, "same")), false));
            assertTrue(e.getMessage().contains("already stored as trial 1"), e.getMessage());
            assertEquals(before, db.rowCounts());
            db.add(List.of(trial(48, "same")), true);
            assertEquals(48, db.list(Selection.all("x")).get(0).processes(), "--replace replaced it");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void failedAddLeavesTheDatabaseUnchanged(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            Map<String, Long> empty = db.rowCounts();
            // the third run repeats the first: found inside the same transaction, which is rolled back whole
            assertThrows(IOException.class, () -> db.add(List.of(trial(32, "a"), trial(48, "b"), trial(32, "a")), false));
            assertEquals(empty, db.rowCounts());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void removeDeletesEveryRowOfTheTrial(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            Map<String, Long> empty = db.rowCounts();
            db.add(List.of(trial(32, "a")), false);
            Map<String, Long> one = db.rowCounts();
            int second = db.add(List.of(trial(48, "b")), false).get(0);
            assertEquals(1, db.remove(List.of(second)));
            assertEquals(one, db.rowCounts());
            db.remove(List.of(1));
            assertEquals(empty, db.rowCounts(), "the application and experiment left without trials go too");
            assertThrows(IOException.class, () -> db.remove(List.of(99)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void everyExampleQueryOfTheDocsRuns(String engine) throws Exception {
        Path doc = Path.of(System.getProperty("user.dir")).getParent().resolve("docs").resolve("experiment-database.md");
        Matcher m = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(doc));
        List<String> queries = new ArrayList<>();
        while (m.find()) {
            queries.add(m.group(1).trim());
        }
        assertTrue(queries.size() >= 5, "docs hold example queries: " + queries.size());
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(trial(32, "a"), trial(48, "b")), false);
            for (String q : queries) {
                String csv = query(db, q);
                assertTrue(csv.split("\n").length >= 2, "no rows from the example query:\n" + q + "\n" + csv);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void aQueryNeverChangesTheDatabase(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(trial(32, "q1")), false);
            assertThrows(IOException.class, () -> query(db, "DROP TABLE severities CASCADE"));
            assertThrows(IOException.class, () -> query(db, "DELETE FROM trials"));
            assertEquals("n\n1\n", query(db, "SELECT count(*) AS n FROM trials"));
            assertTrue(query(db, "SELECT count(*) AS n FROM severities").matches("n\n[1-9][0-9]*\n"));
        }
    }

    /** A statement the database refuses is reported in the database's own words, in one line. */
    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void aFailedQueryReportsTheDatabasesOwnMessage(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            IOException table = assertThrows(IOException.class, () -> query(db, "SELECT nothing FROM nowhere"));
            IOException column = assertThrows(IOException.class, () -> query(db, "SELECT nothing FROM trials"));
            for (IOException e : List.of(table, column)) {
                assertTrue(!e.getMessage().contains("pending query result") && !e.getMessage().contains("\n"),
                        e.getMessage());
            }
            assertTrue(table.getMessage().matches(".*(Table with name nowhere does not exist|relation \"nowhere\" does "
                    + "not exist).*"), table.getMessage());
            assertTrue(column.getMessage().matches(".*(Referenced column \"nothing\" not found|column \"nothing\" does "
                    + "not exist).*"), column.getMessage());
            // and the connection still answers
            assertEquals("n\n0\n", query(db, "SELECT count(*) AS n FROM trials"));
        }
    }

    /**
     * Numbers come out as the shortest text that reads back to the stored value: a DECIMAL without the zeros of its
     * scale, a double without Java 17's exponent or extra digits, whole doubles without ".0", zero without a sign.
     */
    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void queriedNumbersAreTheShortestTextThatReadsBack(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            assertEquals("d,x,s,w,z,t\n0.00021603,0.000093502,0.30000000000000004,1024,0,2e23\n", query(db,
                    "SELECT CAST(0.00021603 AS DECIMAL(20,20)) AS d, CAST(9.3502e-5 AS FLOAT8) AS x, "
                            + "CAST(0.1 AS FLOAT8) + CAST(0.2 AS FLOAT8) AS s, CAST(1024 AS FLOAT8) AS w, "
                            + "CAST(-0.0 AS FLOAT8) AS z, CAST(2e23 AS FLOAT8) AS t"));
        }
    }

    /** Every stored severity reads back from the query's text as the very double the analysis computed. */
    @ParameterizedTest
    @ValueSource(strings = {"duckdb", "postgresql"})
    void queriedSeveritiesReadBackAsTheAnalysedDoubles(String engine) throws Exception {
        try (ExperimentDatabase db = open(engine)) {
            db.add(List.of(trial(48, "v48")), false);
            SeverityCube c = CUBES.get(48);
            String csv = query(db, "SELECT metric_id, call_path_id, location_id, value FROM severities");
            List<String> rows = csv.lines().skip(1).toList();
            assertTrue(rows.size() > 100, csv);
            for (String row : rows) {
                String[] f = row.split(",");
                assertTrue(!f[3].contains("E") && !f[3].matches(".*\\.\\d*0"), row);
                double stored = c.rowOrNull(Integer.parseInt(f[0]), Integer.parseInt(f[1]))[Integer.parseInt(f[2])];
                assertEquals(stored, Double.parseDouble(f[3]), row);
            }
        }
    }

    @Test
    void aMissingDatabaseFileIsNamedNotCreated() {
        Path missing = tmp.resolve("absent.duckdb");
        IOException e = assertThrows(IOException.class, () -> ExperimentDatabase.openExisting(missing.toString()));
        assertTrue(e.getMessage().startsWith(missing + ": no such experiment database"), e.getMessage());
        assertTrue(!Files.exists(missing));
    }

    @Test
    void selectionsNameTheirDatabaseAndKeys() {
        Selection s = Selection.parse("db:runs.duckdb?app=cg&processes=16&param.class=W");
        assertEquals("runs.duckdb", s.database());
        assertEquals("cg", s.application());
        assertEquals(16, s.processes());
        assertEquals(Map.of("class", "W"), s.parameters());
        Selection pg = Selection.parse("db:postgresql://h/db?user=u#app=cg");
        assertEquals("postgresql://h/db?user=u", pg.database());
        assertEquals("cg", pg.application());
        assertEquals("db:postgresql://h/db?user=u#trial=3", pg.ofTrial(3));
        assertEquals("db:runs.duckdb?trial=3", s.ofTrial(3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Selection.parse("db:x?colour=red"));
        assertTrue(e.getMessage().startsWith("db:x?colour=red: unknown key 'colour'"), e.getMessage());
    }

    @Test
    void aPostgresqlSelectionGivenAsAPathKeepsItsUrl() {
        // commands take runs as paths, and Path.of collapses the URL's "//"
        for (String url : List.of("postgresql://h:5432/db?user=u", "postgres://h/db", "jdbc:postgresql://h/db?user=u")) {
            String asPath = Path.of("db:" + url + "#app=cg").toString();
            assertTrue(!asPath.contains("//"), asPath);
            Selection s = Selection.parse(asPath);
            assertEquals(url, s.database());
            assertEquals("cg", s.application());
        }
    }

    @Test
    void aStudyOperandOnPostgresqlReachesItsTrials() throws Exception {
        String url = PostgresServer.get().newDatabase();
        try (ExperimentDatabase db = ExperimentDatabase.open(url)) {
            db.add(List.of(trial(32, "a"), trial(48, "b")), false);
        }
        Selection s = Selection.parse(Path.of("db:" + url + "#processes=48").toString());
        try (ExperimentDatabase db = ExperimentDatabase.openExisting(s.database())) {
            List<ExperimentDatabase.TrialInfo> trials = db.list(s);
            assertEquals(1, trials.size());
            assertEquals(48, trials.get(0).processes());
            assertEquals(COMMS.get(48).size(), db.load(trials.get(0)).communicators().size());
        }
    }

    static String query(ExperimentDatabase db, String sql) throws IOException {
        StringWriter w = new StringWriter();
        db.queryCsv(sql, w);
        return w.toString();
    }
}
