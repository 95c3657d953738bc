package dev.straggler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.cli.CliTest.Run;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code straggler db} and {@code db:} selections, end to end on the graph500-like family at p = 2, 4, 8, 16: what the
 * scaling commands compute from the database equals what they compute from the traces themselves.
 */
class DbCommandTest {
    @TempDir
    static Path tmp;
    static List<String> traces = new ArrayList<>();
    static Path db;

    @BeforeAll
    static void family() {
        Path out = tmp.resolve("g");
        Run g = run("generate", "graph500-like", "-n", "2,4,8,16", "-o", out.toString(), "-q");
        assertEquals(0, g.code(), g.err());
        for (int p : new int[]{2, 4, 8, 16}) {
            traces.add(out.resolve("graph500-like.p" + p + ".r0").toString());
        }
        db = tmp.resolve("runs.duckdb");
        List<String> args = new ArrayList<>(List.of("db", "add", "--db", db.toString(), "--app", "graph500",
                "--param", "scale=20", "-q"));
        args.addAll(traces);
        Run r = run(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("trial 4: graph500-like.p16.r0 (p = 16), application graph500"), r.out());
    }

    private static JsonNode json(Path f) throws Exception {
        return new ObjectMapper().readTree(f.toFile());
    }

    @Test
    void scalingFromTheDatabaseEqualsScalingFromTheTraces() throws Exception {
        Path fromTraces = tmp.resolve("traces.json");
        List<String> args = new ArrayList<>(List.of("scaling", "--json", fromTraces.toString(), "-q"));
        args.addAll(traces);
        assertEquals(0, run(args.toArray(String[]::new)).code());
        Path fromDb = tmp.resolve("db.json");
        Run r = run("scaling", "--json", fromDb.toString(), "-q", "db:" + db + "?app=graph500");
        assertEquals(0, r.code(), r.err());
        assertEquals(json(fromTraces), json(fromDb));
    }

    @Test
    void modelFromTheDatabaseEqualsModelFromTheTraces() throws Exception {
        Path fromTraces = tmp.resolve("mt.json");
        List<String> args = new ArrayList<>(List.of("model", "--json", fromTraces.toString(), "-q"));
        args.addAll(traces);
        assertEquals(0, run(args.toArray(String[]::new)).code());
        Path fromDb = tmp.resolve("md.json");
        Run r = run("model", "--json", fromDb.toString(), "-q", "db:" + db + "?param.scale=20");
        assertEquals(0, r.code(), r.err());
        assertEquals(json(fromTraces).get("medya"), json(fromDb).get("medya"));
    }

    @Test
    void diffTakesOneTrialPerOperand() {
        Run ok = run("diff", "db:" + db + "?processes=16", "db:" + db + "?processes=2", "-q");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().startsWith("A: graph500-like.p16.r0 (16 ranks)"), ok.out());
        Run many = run("diff", "db:" + db + "?app=graph500", "db:" + db + "?processes=2", "-q");
        assertEquals(1, many.code());
        assertEquals("straggler: db:" + db + "?app=graph500 matches 4 trials where one is needed; narrow it with "
                + "trial=ID or processes=P", many.err().strip());
        Run none = run("diff", "db:" + db + "?app=cg", "db:" + db + "?processes=2", "-q");
        assertEquals(1, none.code());
        assertTrue(none.err().startsWith("straggler: db:" + db + "?app=cg matches no trial"), none.err());
    }

    @Test
    void addingARunAgainIsRefusedInOneLine() throws Exception {
        String before = run("db", "query", "--db", db.toString(), "SELECT COUNT(*) AS n FROM severities").out();
        Run r = run("db", "add", "--db", db.toString(), "--app", "graph500", "-q", traces.get(0));
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("straggler: " + db + ": ") && r.err().contains("is already stored as trial 1"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
        assertEquals(before, run("db", "query", "--db", db.toString(), "SELECT COUNT(*) AS n FROM severities").out());
    }

    @Test
    void queryPrintsCsvThatNamesItsColumns() {
        Run r = run("db", "query", "--db", db.toString(),
                "SELECT processes, metric FROM metric_totals WHERE metric = 'time' ORDER BY processes");
        assertEquals(0, r.code(), r.err());
        assertEquals("processes,metric\n2,time\n4,time\n8,time\n16,time\n", r.out());
        Run bad = run("db", "query", "--db", db.toString(), "SELECT nothing FROM nowhere");
        assertEquals(1, bad.code());
        assertTrue(bad.err().startsWith("straggler: " + db + ": "), bad.err());
        assertEquals(1, bad.err().strip().split("\n").length, bad.err());
    }

    @Test
    void listAndRemoveWorkOnACopy() throws Exception {
        Path copy = tmp.resolve("copy.duckdb");
        Files.copy(db, copy);
        Run list = run("db", "list", "--db", copy.toString());
        assertTrue(list.out().contains("{scale=20}") && list.out().contains("4 trial(s)"), list.out());
        Run rm = run("db", "remove", "--db", copy.toString(), "2", "3");
        assertEquals(0, rm.code(), rm.err());
        assertTrue(run("db", "list", "--db", copy.toString()).out().contains("2 trial(s)"));
        assertEquals(0, run("db", "remove", "--db", copy.toString(), "--app", "graph500").code());
        assertEquals("n\n0\n", run("db", "query", "--db", copy.toString(), "SELECT COUNT(*) AS n FROM severities").out());
    }

    @Test
    void studyRunsFromTheDatabase() throws Exception {
        Path out = tmp.resolve("study");
        Run r = run("study", "--no-root-causes", "-o", out.toString(), "-q", "db:" + db + "?app=graph500");
        assertEquals(0, r.code(), r.err());
        ObjectNode doc = (ObjectNode) json(out.resolve("study.json"));
        assertEquals(4, doc.get("runs").size());
        assertEquals(16, doc.get("runs").get(3).get("processes").asInt());
    }
}
