package dev.straggler.cli;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.report.AnalysisJson;
import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.filter.ScorepFilter;
import dev.straggler.trace.filter.TauSelectFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IncludeListCommandTest {
    @TempDir
    Path tmp;

    /** deep-calltree with 3 ranks and 6 steps as a store, and the scenario's closed-form filter ground truth. */
    private Path deepCallTree() {
        Path store = tmp.resolve("deep");
        if (Files.isDirectory(store)) {
            return store;
        }
        CliTest.Run r = run("generate", "deep-calltree", "-n", "3", "-p", "iterations=6", "-o", store.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        return store;
    }

    private static ExpectedSeverities.Filter truth() {
        return Scenarios.byName("deep-calltree").expected(new ScenarioParams(3, 1, Map.of("iterations", "6"))).filter();
    }

    @Test
    void scorepFilterDropsExactlyTheScenariosShortHelpers() throws Exception {
        Path filter = tmp.resolve("deep.filter");
        CliTest.Run r = run("include-list", deepCallTree().toString(), "--policy", "short-functions", "-o",
                filter.toString());
        assertEquals(0, r.code(), r.err());
        ScorepFilter f = ScorepFilter.read(filter);
        Set<String> excluded = new HashSet<>();
        f.regionRules().forEach(rule -> {
            assertTrue(rule.exclude());
            excluded.add(rule.pattern());
        });
        assertEquals(new HashSet<>(truth().exclude()), excluded);
        assertTrue(r.out().contains("wrote " + filter), r.out());
        assertTrue(r.out().contains("bytes, largest rank (max_buf)"), r.out());
    }

    @Test
    void tauIncludeListKeepsTheChainAndTheCommunicatingFunctions() throws Exception {
        Path select = tmp.resolve("select.tau");
        CliTest.Run r = run("include-list", deepCallTree().toString(), "--policy", "short-functions", "--format", "tau",
                "--list", "include",
                "-o", select.toString());
        assertEquals(0, r.code(), r.err());
        TauSelectFile f = TauSelectFile.read(select);
        assertEquals(new HashSet<>(truth().keep()), new HashSet<>(f.includeRoutines()));
        assertTrue(f.excludeRoutines().isEmpty());
    }

    @Test
    void tauReduceRulesSelectWhatToDrop() throws Exception {
        Path filter = tmp.resolve("rules.filter");
        // every helper is called 6 * 250 = 1500 times per rank, 4500 in all
        CliTest.Run r = run("include-list", deepCallTree().toString(), "--rule", "numcalls > 4000 & usecs/call < 2",
                "--explain", "-o", filter.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("rule: numcalls > 4000 & usecs/call < 2"), r.out());
        assertEquals(truth().exclude().size(), ScorepFilter.read(filter).regionRules().size());
        CliTest.Run none = run("include-list", deepCallTree().toString(), "--rule", "numcalls > 5000");
        assertTrue(none.out().contains("regions visited / kept"), none.out());
        assertTrue(none.out().lines().noneMatch(l -> l.startsWith("+")), none.out());
    }

    /** A plan that drops nothing changes no figure of the summary: each change prints "0.0 %", without a sign. */
    @Test
    void aPlanThatDropsNothingPrintsUnsignedZeroChanges() {
        CliTest.Run none = run("include-list", deepCallTree().toString(), "--rule", "numcalls > 5000");
        assertEquals(0, none.code(), none.err());
        assertTrue(none.out().contains("regions visited / kept"), none.out());
        assertTrue(none.out().lines().filter(l -> l.startsWith("  events ") || l.startsWith("  regions visited"))
                .allMatch(l -> l.endsWith(" 0.0 %") && !l.endsWith("+0.0 %")), none.out());
    }

    @Test
    void aRuleSyntaxErrorNamesTheLine() throws Exception {
        Path rules = tmp.resolve("rules.txt");
        Files.writeString(rules, "# comment\nnumcalls > 10\nusec ~ 3\n");
        CliTest.Run r = run("include-list", deepCallTree().toString(), "--rules", rules.toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains(rules + ":3: no operator"), r.err());
    }

    @Test
    void unreachableBudgetIsReportedWithItsOwnExitCode() {
        // MPI records alone take about 1 kB: 100 bytes cannot be reached
        CliTest.Run r = run("include-list", deepCallTree().toString(), "--budget", "100");
        assertEquals(3, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("out of reach"), r.out());
    }

    @Test
    void sizesUnderstandBinaryUnits() {
        assertEquals(4L << 30, IncludeListCommand.parseSize("4GB"));
        assertEquals(512L << 20, IncludeListCommand.parseSize("512MiB"));
        assertEquals(1000, IncludeListCommand.parseSize("1000"));
        assertEquals(1536, IncludeListCommand.parseSize("1.5k"));
    }

    @Test
    void anAnalysisDocumentIsAProfileInput() throws Exception {
        Path store = deepCallTree();
        Path json = tmp.resolve("analysis.json");
        try (TraceSource src = Traces.open(store)) {
            AnalysisJson.write(Analysis.run(src, AnalysisOptions.defaults()), json);
        }
        Path filter = tmp.resolve("from-json.filter");
        CliTest.Run r = run("include-list", json.toString(), "--policy", "short-functions", "-o", filter.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("scorep-score estimate"), r.out());
        Set<String> excluded = new HashSet<>();
        ScorepFilter.read(filter).regionRules().forEach(rule -> excluded.add(rule.pattern()));
        assertEquals(new HashSet<>(truth().exclude()), excluded);
        CliTest.Run both = run("include-list", json.toString(), "--analyze");
        assertEquals(1, both.code());
        assertTrue(both.err().contains("--analyze needs a trace"), both.err());
    }

    @Test
    void waitStatesFromOurAnalysisOrScalascasGiveTheSamePlanUnderABudget() {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path bt = Path.of(shared, "traces", "real", "npb-bt.S-4");
        Assumptions.assumeTrue(Files.isDirectory(bt), bt + " is absent");
        CliTest.Run ours = run("include-list", bt.toString(), "--budget", "0", "--analyze", "-r");
        CliTest.Run scalasca = run("include-list", bt.toString(), "--budget", "0", "--analysis",
                bt.resolve("scout.cubex").toString(), "-r");
        CliTest.Run assumed = run("include-list", bt.toString(), "--budget", "0", "-r");
        assertEquals(3, ours.code(), ours.err());
        assertEquals(ours.out(), scalasca.out());
        // knowing which call paths carry no wait states lets more functions go
        assertTrue(count(ours.out()) > count(assumed.out()), ours.out() + "\n" + assumed.out());
    }

    private static long count(String out) {
        return out.lines().filter(l -> l.startsWith("+ ") && !l.contains("FLT")).count();
    }

    @Test
    void scorePProfileWithAFilterGivesScorepScoresFilteredEstimate() {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path real = Path.of(shared, "traces", "real");
        Path profile = real.resolve("npb-bt.S-4").resolve("profile.cubex");
        Assumptions.assumeTrue(Files.isRegularFile(profile), profile + " is absent");
        CliTest.Run r = run("include-list", profile.toString(), "--apply", real.resolve("npb-W.filter").toString());
        assertEquals(0, r.code(), r.err());
        // scorep-score -r of the full run's profile, and of the run recorded with npb-W.filter
        assertTrue(r.out().lines().anyMatch(l -> l.matches(".*bytes, largest rank \\(max_buf\\)\\s+4,455,173\\s+212,909.*")),
                r.out());
    }

    // samples/late-sender.txt: main calls MPI and `compute`, which never communicates and runs 1-6 ms per visit;
    // on rank 0 it is the 5 ms excess before the send, i.e. all of the delay costs

    @Test
    void paperPolicyIsTheDefaultAndDropsALongFunctionThatNeverCommunicates() throws Exception {
        Path filter = tmp.resolve("paper.filter");
        CliTest.Run r = run("include-list", CliTest.SAMPLE.toString(), "-o", filter.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Policy: MPI and every function on a path to MPI (TAU/KOJAK paper)"), r.out());
        assertTrue(Files.readString(filter).contains("compute"), Files.readString(filter));
        CliTest.Run shortOnes = run("include-list", CliTest.SAMPLE.toString(), "--policy", "short-functions");
        assertTrue(shortOnes.out().contains("Policy: short user functions dropped"), shortOnes.out());
        assertTrue(shortOnes.out().contains("regions visited / kept"), shortOnes.out());
    }

    @Test
    void keepCausesKeepsTheFunctionWhoseDelayCausesTheWaiting() throws Exception {
        Path filter = tmp.resolve("causes.filter");
        CliTest.Run r = run("include-list", CliTest.SAMPLE.toString(), "--keep-causes", "10", "-o", filter.toString(),
                "--explain");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("compute: causes waiting: 100.0 % of all delay costs"), r.out());
        assertFalse(Files.readString(filter).contains("compute"), Files.readString(filter));
    }
}
