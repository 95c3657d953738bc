package dev.straggler.cli;

import dev.straggler.experiments.ContentHash;
import dev.straggler.experiments.ExperimentDatabase;
import dev.straggler.experiments.Selection;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code straggler db}: the experiment database (docs/experiment-database.md). */
@Command(name = "db", mixinStandardHelpOptions = true,
        description = "The experiment database: analyses of many runs in one DuckDB file (or a shared PostgreSQL "
                + "server), to query with SQL and to give to diff, scaling, model, pop and study as db:FILE?app=NAME. "
                + "docs/experiment-database.md.",
        subcommands = {DbCommand.Add.class, DbCommand.ListTrials.class, DbCommand.Query.class, DbCommand.Remove.class})
final class DbCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    static final String DB_HELP = "The database: a DuckDB file (created when absent) or postgresql://HOST[:PORT]/DB?user=U.";

    @Command(name = "add", mixinStandardHelpOptions = true,
            description = "Analyses runs (traces; or reads .cubex and analysis JSON) and stores them as trials, all in "
                    + "one transaction: when one fails, nothing is added. A run already stored (same content, same "
                    + "application) is refused unless --replace.")
    static final class Add implements Callable<Integer> {
        @Mixin
        ReadingOptions common;

        @Option(names = "--db", required = true, paramLabel = "FILE|URL", description = DB_HELP)
        String db;

        @Parameters(arity = "1..*", paramLabel = "EXP", description = "Runs: traces, .cubex or analysis JSON.")
        List<Path> runs;

        @Option(names = "--app", paramLabel = "NAME", description = "Application (default: the trace's application name).")
        String app;

        @Option(names = "--experiment", paramLabel = "NAME", defaultValue = "default",
                description = "Experiment the trials belong to, e.g. a study on one machine (default ${DEFAULT-VALUE}).")
        String experiment;

        @Option(names = "--param", paramLabel = "KEY=VALUE", description = "A parameter of these runs (repeatable), e.g. size=W.")
        List<String> params = new ArrayList<>();

        @Option(names = "--root-causes", negatable = true, defaultValue = "true", fallbackValue = "true",
                description = "Analyse traces with root causes (delay costs, propagation, critical path); on by "
                + "default (--no-root-causes for the wait states alone).")
        boolean rootCauses = true;

        @Option(names = "--replace", description = "Replace a run that is already stored instead of refusing it.")
        boolean replace;

        @Override
        public Integer call() throws IOException {
            if (ExperimentDatabase.isFile(db)) {
                // written after the analysis: checked before it, as every output is (OutputPaths)
                OutputPaths.file("--db", Path.of(db));
            }
            Map<String, String> parameters = new LinkedHashMap<>();
            for (String kv : params) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--param takes KEY=VALUE, not '" + kv + "'");
                }
                parameters.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            for (Path p : runs) {
                if (Experiments.isMpip(p)) {
                    throw new IllegalArgumentException(p + ": an mpiP report has no analysis cube to store; add the trace");
                }
                if (!Files.exists(p)) {
                    throw new java.nio.file.NoSuchFileException(p.toString());
                }
            }
            long t0 = System.nanoTime();
            List<Experiments.Run> loaded = Experiments.load(runs, common, true,
                    AnalysisOptions.defaults().withRootCauses(rootCauses));
            List<ExperimentDatabase.NewTrial> trials = new ArrayList<>();
            for (Experiments.Run r : loaded) {
                ContentHash h = ContentHash.of(r.path());
                String application = app != null ? app : r.cube().attributes().getOrDefault("application", r.label());
                String kind = Experiments.isCube(r.path()) ? (r.path().toString().endsWith(".json") ? "analysis-json" : "cubex")
                        : "trace";
                trials.add(new ExperimentDatabase.NewTrial(application, experiment, r.label(), r.tasks(), r.cube(),
                        r.callsites(), r.communicators(), parameters, r.path().toAbsolutePath().normalize().toString(), kind, h.bytes(),
                        h.hex(), Analysis.rootCausesAnalysed(r.cube()), Main.VERSION,
                        "straggler db add " + String.join(" ", runs.stream().map(Path::toString).toList())));
            }
            long t1 = System.nanoTime();
            try (ExperimentDatabase d = ExperimentDatabase.open(db)) {
                int opened = d.schemaVersion();
                List<Integer> ids = d.add(trials, replace);
                if (d.schemaVersion() != opened) {
                    // the upgrade only adds tables; trials stored before it still lack what they add
                    System.err.printf(Locale.ROOT, "straggler: %s: schema upgraded from version %d to %d; trials "
                            + "added before keep no per-communicator waiting (db add --replace with their runs stores "
                            + "it)%n", db, opened, d.schemaVersion());
                }
                long t2 = System.nanoTime();
                for (int i = 0; i < ids.size(); i++) {
                    ExperimentDatabase.NewTrial t = trials.get(i);
                    System.out.printf(Locale.ROOT, "trial %d: %s (p = %d), application %s, experiment %s%n", ids.get(i),
                            t.name(), t.processes(), t.application(), t.experiment());
                }
                if (!common.quiet) {
                    System.err.printf(Locale.ROOT, "straggler: analysed in %.1f s, stored in %.1f s%n", (t1 - t0) / 1e9,
                            (t2 - t1) / 1e9);
                }
            }
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the trials (optionally a selection).")
    static final class ListTrials implements Callable<Integer> {
        @Mixin
        CommonOptions common;

        @Option(names = "--db", required = true, paramLabel = "FILE|URL", description = DB_HELP)
        String db;

        @Option(names = "--app", paramLabel = "NAME", description = "Only this application.")
        String app;

        @Override
        public Integer call() throws IOException {
            try (ExperimentDatabase d = ExperimentDatabase.openExisting(db)) {
                List<ExperimentDatabase.TrialInfo> trials = d.list(new Selection(db, app, null, null, null, Map.of()));
                System.out.printf(Locale.ROOT, "%5s  %-16s %-12s %-28s %6s  %-19s  %s%n", "trial", "application",
                        "experiment", "name", "p", "added", "parameters");
                for (ExperimentDatabase.TrialInfo t : trials) {
                    String added = t.addedAt() == null ? "" : t.addedAt().substring(0, Math.min(19, t.addedAt().length()));
                    System.out.printf(Locale.ROOT, "%5d  %-16s %-12s %-28s %6d  %-19s  %s%n", t.id(), t.application(),
                            t.experiment(), t.name(), t.processes(), added, t.parameters().isEmpty() ? ""
                                    : t.parameters().toString());
                }
                System.out.printf(Locale.ROOT, "%d trial(s)%n", trials.size());
            }
            return 0;
        }
    }

    @Command(name = "query", mixinStandardHelpOptions = true,
            description = "Runs an SQL query and prints the result as CSV (views: trial_overview, metric_totals, "
                    + "callpath_totals, callsite_totals, communicator_totals; tables in docs/experiment-database.md).")
    static final class Query implements Callable<Integer> {
        @Mixin
        CommonOptions common;

        @Option(names = "--db", required = true, paramLabel = "FILE|URL", description = DB_HELP)
        String db;

        @Parameters(index = "0", paramLabel = "SQL")
        String sql;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE.csv", description = "Write the CSV here instead of to stdout.")
        Path output;

        @Override
        public Integer call() throws IOException {
            try (ExperimentDatabase d = ExperimentDatabase.openExisting(db)) {
                if (output != null) {
                    try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                        long n = d.queryCsv(sql, w);
                        System.err.println("straggler: " + n + " row(s) written to " + output);
                    }
                } else {
                    Writer w = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
                    d.queryCsv(sql, w);
                    w.flush();
                }
            }
            return 0;
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true,
            description = "Removes trials and everything stored for them, in one transaction.")
    static final class Remove implements Callable<Integer> {
        @Mixin
        CommonOptions common;

        @Option(names = "--db", required = true, paramLabel = "FILE|URL", description = DB_HELP)
        String db;

        @Parameters(arity = "0..*", paramLabel = "TRIAL", description = "Trial ids (see db list).")
        List<Integer> trials = new ArrayList<>();

        @Option(names = "--app", paramLabel = "NAME", description = "Every trial of this application.")
        String app;

        @Override
        public Integer call() throws IOException {
            if (trials.isEmpty() == (app == null)) {
                throw new IllegalArgumentException("give trial ids or --app NAME (one of them)");
            }
            try (ExperimentDatabase d = ExperimentDatabase.openExisting(db)) {
                List<Integer> ids = new ArrayList<>(trials);
                if (app != null) {
                    for (ExperimentDatabase.TrialInfo t : d.list(new Selection(db, app, null, null, null, Map.of()))) {
                        ids.add(t.id());
                    }
                    if (ids.isEmpty()) {
                        throw new IllegalArgumentException(db + ": no trial of application " + app);
                    }
                }
                int n = d.remove(ids);
                System.out.println("removed " + n + " trial(s)");
            }
            return 0;
        }
    }
}
