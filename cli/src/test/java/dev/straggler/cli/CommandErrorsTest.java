package dev.straggler.cli;

import dev.straggler.cli.CliTest.Run;
import dev.straggler.trace.TraceFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Errors the user can act on: one line, the tool's own words or the database's, non-zero exit, before any work. */
class CommandErrorsTest {
    @TempDir
    Path tmp;

    private Path database() {
        Path out = tmp.resolve("g");
        assertEquals(0, run("generate", "late-sender", "-n", "2", "-o", out.toString(), "-q").code());
        Path db = tmp.resolve("runs.duckdb");
        Run add = run("db", "add", "--db", db.toString(), "-q", out.toString());
        assertEquals(0, add.code(), add.err());
        return db;
    }

    @Test
    void dbQueryOfAnUnknownTableOrColumnGivesDuckDbsOwnMessageInOneLine() {
        Path db = database();
        Run table = run("db", "query", "--db", db.toString(), "SELECT * FROM nowhere");
        assertEquals(1, table.code());
        assertEquals("straggler: " + db + ": Catalog Error: Table with name nowhere does not exist!", table.err().strip());
        Run column = run("db", "query", "--db", db.toString(), "SELECT nothing FROM trials");
        assertEquals(1, column.code());
        assertEquals("straggler: " + db + ": Binder Error: Referenced column \"nothing\" not found in FROM clause!",
                column.err().strip());
    }

    /** The README promises --debug for every command: each one that runs something accepts it. */
    @Test
    void everyCommandAcceptsDebug() {
        List<String> without = new ArrayList<>();
        walk(new CommandLine(new Main()), (name, cl) -> {
            boolean runs = cl.getCommandSpec().userObject() instanceof java.util.concurrent.Callable
                    || cl.getSubcommands().isEmpty();
            if (runs && !name.endsWith(" help") && cl.getCommandSpec().findOption("--debug") == null) {
                without.add(name);
            }
        });
        assertEquals(List.of(), without);
    }

    @Test
    void dbQueryWithDebugAddsTheStackTrace() {
        Path db = database();
        Run r = run("db", "query", "--debug", "--db", db.toString(), "SELECT * FROM nowhere");
        assertEquals(1, r.code());
        List<String> lines = r.err().lines().toList();
        assertEquals("straggler: " + db + ": Catalog Error: Table with name nowhere does not exist!", lines.get(0));
        assertTrue(lines.size() > 3 && lines.get(1).startsWith("java.io.IOException"), r.err());
    }

    /**
     * Every output option is checked before the command reads its input: here the input does not even exist, and the
     * error names the output option and its path.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "analyze MISSING --html OUT",
            "analyze MISSING --json OUT",
            "analyze MISSING --csv OUT",
            "analyze MISSING --cube OUT",
            "diff MISSING MISSING --json OUT",
            "callsites MISSING --json OUT",
            "scaling MISSING MISSING --html OUT",
            "model MISSING MISSING --extrap OUT",
            "pop MISSING --json OUT",
            "phases MISSING --phase main --html OUT",
            "bandwidth MISSING --table-out OUT --from-traces",
            "include-list MISSING -o OUT",
            "merge MISSING MISSING -o OUT",
            "db query --db MISSING SELECT -o OUT",
            "db add --db OUT MISSING"})
    void anOutputInADirectoryThatDoesNotExistIsRefusedBeforeTheInputIsRead(String line) {
        Path missing = tmp.resolve("no-such-input");
        Path out = tmp.resolve("no-such-dir").resolve("x.out");
        String[] args = line.replace("MISSING", missing.toString()).replace("OUT", out.toString()).split(" ");
        Run r = run(args);
        assertEquals(1, r.code(), r.out() + r.err());
        String option = args[List.of(args).indexOf(out.toString()) - 1];
        assertEquals("straggler: " + (option.equals("-o") ? "--output" : option) + " " + out + ": there is no directory "
                + out.getParent() + " to write it in", r.err().strip());
    }

    @Test
    void anOutputThatIsADirectoryIsRefused() {
        Run r = run("analyze", CliTest.SAMPLE.toString(), "-q", "--html", tmp.toString());
        assertEquals(1, r.code());
        assertEquals("straggler: --html " + tmp + ": is a directory; give the name of a file to write", r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void aDirectoryToCreateUnderAFileIsRefused() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        Run r = run("study", CliTest.SAMPLE.toString(), CliTest.SAMPLE.toString(), "-q", "-o",
                file.resolve("study").toString());
        assertEquals(1, r.code());
        assertEquals("straggler: --output " + file.resolve("study") + ": " + file + " is a file, not a directory to "
                + "create it in", r.err().strip());
    }

    /**
     * Every path option of every command is either an output the check knows ({@link OutputPaths#kind}) or one of the
     * inputs below: a new output option cannot slip past the check unnoticed.
     */
    @Test
    void everyPathOptionIsAKnownOutputOrInput() {
        Map<String, String> kinds = new TreeMap<>();
        walk(new CommandLine(new Main()), (name, cl) -> {
            for (CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
                if (o.type() == Path.class) {
                    OutputPaths.Kind k = OutputPaths.kind(cl.getCommandSpec(), o);
                    kinds.put(name + " " + o.longestName(), k == null ? "input" : k.name());
                }
            }
        });
        Map<String, String> inputs = new TreeMap<>(kinds);
        inputs.values().removeIf(v -> !v.equals("input"));
        assertEquals(List.of("straggler filter --filter", "straggler include-list --analysis",
                "straggler include-list --apply", "straggler include-list --rules", "straggler sql --query-file"),
                List.copyOf(inputs.keySet()));
        assertEquals("DIRECTORY", kinds.get("straggler timeline --otf2"));
        assertEquals("DIRECTORY", kinds.get("straggler study --output"));
        assertEquals("DIRECTORY", kinds.get("straggler import --output"));
        assertEquals("FILE", kinds.get("straggler merge --output"));
        assertEquals("FILE", kinds.get("straggler db query --output"));
    }

    private static void walk(CommandLine cl, java.util.function.BiConsumer<String, CommandLine> visit) {
        walk(cl, cl.getCommandName(), visit);
    }

    private static void walk(CommandLine cl, String name, java.util.function.BiConsumer<String, CommandLine> visit) {
        visit.accept(name, cl);
        cl.getSubcommands().forEach((n, sub) -> walk(sub, name + " " + n, visit));
    }

    /** A strict read stopped by damage says, in its one line, that --lenient reads past it. */
    @Test
    void aStrictReadStoppedByDamageMentionsLenient() {
        Path bad = BadInputCorpusTest.corpus("timestamp-bit-flip");
        Run r = run("analyze", bad.toString(), "-q");
        assertEquals(1, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().strip().endsWith("; " + TraceFormatException.LENIENT_HINT), r.err());
        assertTrue(run("analyze", bad.toString(), "-q", "--lenient").code() == 0);
    }

    /** Damage no lenient read gets past (a definition) does not send the user to --lenient. */
    @Test
    void damageLenientCannotSkipDoesNotMentionLenient() {
        Path bad = BadInputCorpusTest.corpus("negative-communicator-member");
        Run r = run("analyze", bad.toString(), "-q");
        assertEquals(1, r.code());
        assertFalse(r.err().contains("--lenient"), r.err());
        assertEquals(1, run("analyze", bad.toString(), "-q", "--lenient").code());
    }
}
