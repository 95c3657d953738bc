package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code study db:...} against {@code study} of the same traces, on the GYRO-like runs at p = 32 and 48 (2048 work
 * units: 48 does not divide them, so its run waits in Wait at N×N inside its communicators of 16, caused by the
 * extra units of nl_compute): the database must give the same root causes and the same waiting by communicator size,
 * and say in one line why when the trials it holds cannot.
 */
class StudyFromDatabaseTest {
    @TempDir
    static Path tmp;
    static List<String> traces = new ArrayList<>();
    static Path withCauses;
    static Run fromTraces;
    static JsonNode tracesDoc;
    static String tracesHtml;

    @BeforeAll
    static void runs() throws Exception {
        Path dir = tmp.resolve("runs");
        Run g = run("generate", "gyro-like", "-n", "32,48", "-o", dir.toString(), "-q");
        assertEquals(0, g.code(), g.err());
        for (int p : new int[]{32, 48}) {
            traces.add(dir.resolve("gyro-like.p" + p + ".r0").toString());
        }
        withCauses = tmp.resolve("causes.duckdb");
        add(withCauses, true);
        Path out = tmp.resolve("from-traces");
        List<String> args = new ArrayList<>(List.of("study", "-o", out.toString(), "-q"));
        args.addAll(traces);
        fromTraces = run(args.toArray(String[]::new));
        assertEquals(0, fromTraces.code(), fromTraces.err());
        tracesDoc = json(out);
        tracesHtml = Files.readString(out.resolve("study.html"));
    }

    private static void add(Path db, boolean rootCauses) {
        List<String> args = new ArrayList<>(List.of("db", "add", "--db", db.toString(), "--app", "gyro", "-q"));
        if (!rootCauses) {
            args.add("--no-root-causes");
        }
        args.addAll(traces);
        Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
    }

    private static JsonNode json(Path out) throws Exception {
        return new ObjectMapper().readTree(out.resolve("study.json").toFile());
    }

    /** The study of a database's trials: its terminal output, JSON and HTML. */
    private record Study(Run run, JsonNode doc, String html) {
    }

    private static Study study(Path db, String name) throws Exception {
        Path out = tmp.resolve(name);
        Run r = run("study", "-o", out.toString(), "-q", "db:" + db + "?app=gyro");
        assertEquals(0, r.code(), r.err());
        return new Study(r, json(out), Files.readString(out.resolve("study.html")));
    }

    /** One section of a report, from its opening tag to its end. */
    static String section(String html, String id) {
        int from = html.indexOf("<section id=\"" + id + "\"");
        assertTrue(from >= 0, "no section " + id);
        return html.substring(from, html.indexOf("</section>", from));
    }

    private static List<String> causes(JsonNode doc) {
        List<String> out = new ArrayList<>();
        doc.get("runs").forEach(r -> out.add(r.path("cause").asText(null)));
        return out;
    }

    @Test
    void communicatorSizesFromTheDatabaseEqualThoseFromTheTraces() throws Exception {
        Study s = study(withCauses, "db");
        JsonNode expected = tracesDoc.get("growth").get("communicatorSizes");
        assertEquals(16, expected.get(0).get("size").asInt(), "the trace study finds the communicators of 16");
        assertEquals(expected, s.doc().get("growth").get("communicatorSizes"));
        assertEquals(section(tracesHtml, "study-communicators"), section(s.html(), "study-communicators"));
        assertTrue(s.run().out().contains("waiting grew most in communicators of 16 processes"), s.run().out());
        assertFalse(s.doc().get("growth").has("communicatorSizesMissing"));
    }

    @Test
    void rootCausesFromTheDatabaseEqualThoseFromTheTraces() throws Exception {
        Study s = study(withCauses, "db-causes");
        List<String> expected = causes(tracesDoc);
        assertTrue(expected.get(1).contains("nl_compute"), expected.toString());
        assertEquals(expected, causes(s.doc()));
        assertEquals(section(tracesHtml, "study-causes"), section(s.html(), "study-causes"));
        assertTrue(s.run().out().contains("Why, in gyro-like.p48.r0: 100.0 % of all Wait at N\u00d7N"), s.run().out());
        assertFalse(s.doc().has("rootCausesMissing"));
    }

    @Test
    void trialsStoredWithoutRootCausesSaySoAndHowToAddThem() throws Exception {
        Path db = tmp.resolve("plain.duckdb");
        add(db, false);
        Study s = study(db, "db-plain");
        String line = "Root causes missing for all 2 runs (trials stored with --no-root-causes: add them again "
                + "with db add --replace).";
        assertTrue(s.run().out().contains("\n" + line + "\n"), s.run().out());
        assertTrue(section(s.html(), "study-causes").contains(line), section(s.html(), "study-causes"));
        assertEquals(line, s.doc().get("rootCausesMissing").asText());
        // the communicators are stored all the same
        assertEquals(tracesDoc.get("growth").get("communicatorSizes"), s.doc().get("growth").get("communicatorSizes"));
    }

    @Test
    void aDatabaseWrittenBeforeItKeptCommunicatorsStillGivesTheStudyAndSaysWhatIsMissing() throws Exception {
        Path db = tmp.resolve("version1.duckdb");
        Files.copy(withCauses, db);
        // what Straggler wrote before schema version 2: version 1's tables only
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
            for (String q : List.of("DROP VIEW communicator_totals", "DROP TABLE communicator_waits",
                    "DROP TABLE communicator_members", "DROP TABLE communicators", "DROP TABLE communicator_runs",
                    "UPDATE schema_version SET version = 1")) {
                st.execute(q);
            }
        }
        Study s = study(db, "db-v1");
        String line = "Waiting by communicator size missing for all 2 runs (trials stored before the database kept "
                + "per-communicator waiting: add them again with db add --replace).";
        assertTrue(s.run().out().contains("  " + line + "\n"), s.run().out());
        assertTrue(section(s.html(), "study-communicators").contains(line), section(s.html(), "study-communicators"));
        assertEquals(line, s.doc().get("growth").get("communicatorSizesMissing").asText());
        assertFalse(s.doc().get("growth").has("communicatorSizes"));
        // everything else the trials hold is there: the root causes as from the traces
        assertEquals(causes(tracesDoc), causes(s.doc()));

        // adding the runs again stores what they lacked, and the study equals the traces' again
        List<String> args = new ArrayList<>(List.of("db", "add", "--db", db.toString(), "--app", "gyro", "-q",
                "--root-causes", "--replace"));
        args.addAll(traces);
        Run again = run(args.toArray(String[]::new));
        assertEquals(0, again.code(), again.err());
        assertTrue(again.err().contains("schema upgraded from version 1 to 2"), again.err());
        Study after = study(db, "db-v1-replaced");
        assertEquals(tracesDoc.get("growth").get("communicatorSizes"), after.doc().get("growth").get("communicatorSizes"));
    }

    @Test
    void diffOfTwoTrialsGivesTheChangePerCommunicatorSizeOfTheTraces() throws Exception {
        Path fromTraces = tmp.resolve("diff-traces.json");
        Run t = run("diff", "--json", fromTraces.toString(), "-q", traces.get(1), traces.get(0));
        assertEquals(0, t.code(), t.err());
        Path fromDb = tmp.resolve("diff-db.json");
        Run d = run("diff", "--json", fromDb.toString(), "-q", "db:" + withCauses + "?processes=48",
                "db:" + withCauses + "?processes=32");
        assertEquals(0, d.code(), d.err());
        JsonNode expected = new ObjectMapper().readTree(fromTraces.toFile()).get("communicatorSizes");
        assertEquals(16, expected.get(0).get("size").asInt(), expected.toString());
        assertEquals(expected, new ObjectMapper().readTree(fromDb.toFile()).get("communicatorSizes"));
    }

    @Test
    void aCubexRunHasNoCommunicatorDimensionAndTheTerminalSaysSo() throws Exception {
        Path cube = tmp.resolve("gyro-like.p48.cubex");
        Run a = run("analyze", "--cube", cube.toString(), "-q", traces.get(1));
        assertEquals(0, a.code(), a.err());
        Path out = tmp.resolve("cubex");
        Run r = run("study", "-o", out.toString(), "-q", traces.get(0), cube.toString());
        assertEquals(0, r.code(), r.err());
        String line = "Waiting by communicator size missing for gyro-like.p48.cubex (a .cubex has no communicator dimension).";
        assertTrue(r.out().contains("  " + line + "\n"), r.out());
        assertTrue(section(Files.readString(out.resolve("study.html")), "study-communicators").contains(line));
    }
}
