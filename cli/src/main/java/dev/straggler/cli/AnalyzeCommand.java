package dev.straggler.cli;

import dev.straggler.cli.report.HtmlReport;
import dev.straggler.cli.report.TimelinesSection;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisEngine;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.TraceSummary;
import dev.straggler.patterns.cubex.CubexWriter;
import dev.straggler.patterns.report.AnalysisJson;
import dev.straggler.patterns.report.TextReport;
import dev.straggler.trace.CommunicationMatrix;
import dev.straggler.trace.TraceSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = "Replays a trace and finds its wait states (Scalasca's patterns): where time is lost waiting, and "
                + "why.%nPrints the metric tree and the worst call paths and ranks; writes JSON, CUBE4 and HTML on "
                + "request.")
final class AnalyzeCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE", description = "OTF2 anchor, store directory or text trace.")
    Path trace;

    @Option(names = "--csv", paramLabel = "FILE.csv", description = "Write every value of the cube as one flat table "
            + "(metric, call path, rank, thread, value) that pandas.read_csv reads as is.")
    Path csv;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the result as JSON (schema straggler.analysis/1).")
    Path json;

    @Option(names = "--cube", paramLabel = "FILE.cubex", description = "Write the severity cube as CUBE4 for the Cube tools.")
    Path cube;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write a self-contained HTML report.")
    Path html;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", description = "Replay threads, 1 to 4096 (default: one per core).")
    Integer threads;

    @Option(names = "--root-causes", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also find why the waiting happens: delay costs on the processes waited for, how waiting "
            + "propagates, the critical path (on by default; --no-root-causes for the wait states alone).")
    boolean rootCauses;

    @Option(names = "--engine", paramLabel = "local|spark", defaultValue = "local", description = "Where the replay "
            + "runs: this process's threads (local, the default) or Apache Spark (spark; see --master). Both give the "
            + "same result.")
    String engine;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master for --engine spark: local[N], "
            + "spark://HOST:PORT, and under a cluster's spark-submit also yarn and k8s://... (default: spark.master "
            + "when run by spark-submit, else local[*]). Every executor must read TRACE at the same path.")
    String master;

    @Option(names = "--partitions", paramLabel = "N", description = "Location partitions for --engine spark "
            + "(default: three per executor core; one with root causes).")
    Integer partitions;

    @Mixin
    FocusOption focus;

    @Option(names = "--all", description = "List every call path and rank of each wait state, every root cause and "
            + "every call path on the critical path in the report printed (default: the largest few of each, with a "
            + "line counting the rest).")
    boolean all;

    @Option(names = "--width", paramLabel = "COLUMNS", description = "Report width in columns, 60 to 1000 (default: the terminal's, else 100).")
    Integer width;

    @Override
    public Integer call() throws IOException {
        int nThreads = Ranges.threads(threads);
        int columns = width == null ? terminalWidth() : Ranges.between("--width", width, 60, 1000);
        boolean distributed = !"local".equals(engine);
        if (distributed && !"spark".equals(engine)) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--engine must be local or spark, not '" + engine + "'");
        }
        if (!distributed && (master != null || partitions != null)) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                    "--master and --partitions need --engine spark");
        }
        try (TraceSource src = Inputs.open(trace, common)) {
            try {
                AnalysisEngine.Outcome outcome = distributed ? onEngine(src, nThreads)
                        : new AnalysisEngine.Outcome(analyse(src, nThreads, common.quiet, rootCauses), null,
                        java.util.List.of());
                Inputs.noteSkipped(outcome.skipped());
                AnalysisResult result = outcome.result();
                result.warnings().forEach(w -> System.err.println("straggler: warning: " + w));
                System.out.print(TextReport.render(result, columns, all, focus.get()));
                boolean written = distributed && cubeByEngine();
                writeOutputs(result, outcome.matrix(), src, json, written ? null : cube, html);
                if (written) {
                    System.out.println("wrote " + cube);
                }
                if (csv != null) {
                    dev.straggler.patterns.report.CubeCsv.write(result.cube(), csv);
                    System.out.println("wrote " + csv);
                }
            } finally {
                Inputs.reportSkipped(src);
            }
        }
        return 0;
    }

    /** Runs the analysis on a distributed engine found on the class path ({@link AnalysisEngine}). */
    private AnalysisEngine.Outcome onEngine(TraceSource src, int threads) throws IOException {
        AnalysisEngine found = null;
        for (AnalysisEngine e : java.util.ServiceLoader.load(AnalysisEngine.class)) {
            if (e.name().equals(engine)) {
                found = e;
            }
        }
        if (found == null) {
            throw new IOException("the " + engine + " engine is not on the class path: run it through bin/straggler "
                    + "(which adds Apache Spark), or submit straggler-spark.jar with spark-submit");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        if (master != null) {
            settings.put("master", master);
        }
        if (partitions != null) {
            settings.put("partitions", Integer.toString(Ranges.between("--partitions", partitions, 1, 1 << 20)));
        }
        settings.put("quiet", Boolean.toString(common.quiet));
        if (html != null) {
            // counted by the engine's workers: the driver must not read every event again
            settings.put(AnalysisEngine.COMMUNICATION_MATRIX, "true");
        }
        if (cubeByEngine()) {
            // the engine's workers write the cube's rows; the driver keeps the sums the report reads
            settings.put(AnalysisEngine.CUBE_FILE, cube.toAbsolutePath().toString());
            if (!common.quiet) {
                System.err.println("straggler: " + cube + " is written by the " + engine + " workers, row by row; "
                        + "the driver keeps only the sums the report reads (--json, --csv, --html or a --focus on a "
                        + "call path need the whole cube on the driver)");
            }
        }
        int n = src.definitions().locations().size();
        // each location is read, then analysed, then (with root causes) replayed backwards: a step per location each
        try (Progress p = Progress.start("analyze (" + engine + ")", (rootCauses ? 3L : 2L) * n, "location steps",
                common.quiet)) {
            AnalysisOptions o = AnalysisOptions.defaults().withRootCauses(rootCauses).withProgress((phase, done, total) -> {
                if ("read".equals(phase)) {
                    p.stepTo(done);
                } else if ("patterns".equals(phase)) {
                    p.stepTo(n + done);
                } else if ("root causes".equals(phase)) {
                    p.stepTo(2L * n + done);
                }
            });
            return found.analyze(trace, common.lenient, threads > 0 ? o.withThreads(threads) : o, settings);
        }
    }

    /**
     * Whether the engine writes the cube itself, never holding it whole: when it is the only file asked for (JSON,
     * CSV and HTML read every value) and the report's focus is the default or the whole run (the sums the engine keeps
     * cover those; another focus reads values of the call paths it names).
     */
    private boolean cubeByEngine() {
        dev.straggler.patterns.focus.Focus.Kind k = focus.get().kind();
        return cube != null && json == null && csv == null && html == null
                && k != dev.straggler.patterns.focus.Focus.Kind.PATH;
    }

    static AnalysisResult analyse(TraceSource src, int threads, boolean quiet) throws IOException {
        return analyse(src, threads, quiet, true);
    }

    static AnalysisResult analyse(TraceSource src, int threads, boolean quiet, boolean rootCauses)
            throws IOException {
        long events = src.eventCount();
        try (Progress.Phases p = new Progress.Phases("analyze", events, quiet)) {
            AnalysisOptions o = AnalysisOptions.defaults().withProgress(p).withRootCauses(rootCauses);
            return Analysis.run(src, threads > 0 ? o.withThreads(threads) : o);
        }
    }

    static void writeOutputs(AnalysisResult result, TraceSource src, Path json, Path cube, Path html) throws IOException {
        writeOutputs(result, null, src, json, cube, html);
    }

    /** As above; {@code matrix} is the communication matrix when already computed, else null (read from src). */
    static void writeOutputs(AnalysisResult result, CommunicationMatrix matrix, TraceSource src, Path json, Path cube,
                             Path html) throws IOException {
        if (json != null) {
            AnalysisJson.write(result, json);
            System.out.println("wrote " + json);
        }
        if (cube != null) {
            CubexWriter.write(result.cube(), cube);
            System.out.println("wrote " + cube);
        }
        if (html != null) {
            CommunicationMatrix m = matrix != null ? matrix : CommunicationMatrix.compute(src);
            TraceSummary s = result.summary();
            Map<String, String> facts = new LinkedHashMap<>();
            facts.put("Trace", s.origin());
            facts.put("Ranks", Integer.toString(s.ranks()));
            facts.put("Events", String.format("%,d", s.events()));
            facts.put("Duration", String.format("%.6f s", s.durationSeconds()));
            facts.put("Messages", String.format("%,d", s.messages()));
            facts.put("Collective operations", String.format("%,d", s.collectiveOperations()));
            facts.put("Clock-condition violations", result.violations().total() == 0 ? "none"
                    : result.violations().pointToPoint() + " point-to-point, " + result.violations().collective()
                    + " collective (waiting times clipped)");
            facts.put("Root causes", rootCauseFact(result.cube()));
            HtmlReport.of(result.cube())
                    .title("Straggler: " + (s.application().isEmpty() ? "wait-state analysis" : s.application()))
                    .subtitle("Wait-state analysis of " + s.origin())
                    .summary(facts)
                    .communication(m.messages(), m.bytes())
                    .communicators(result.communicators())
                    .timelines(TimelinesSection.of(src, result, s.origin(),
                            dev.straggler.patterns.Analysis.rootCausesAnalysed(result.cube()),
                            TimelinesSection.DEFAULT_BUDGET))
                    .write(html);
            System.out.println("wrote " + html);
        }
    }

    /** The HTML summary's line on the root-cause stage: computed, turned off, or why it could not run. */
    static String rootCauseFact(dev.straggler.patterns.cube.SeverityCube cube) {
        String problem = dev.straggler.patterns.Analysis.rootCausesProblem(cube);
        if (problem != null) {
            return "could not be computed: " + problem + " (the wait states do not depend on them)";
        }
        if (!dev.straggler.patterns.Analysis.rootCausesAnalysed(cube)) {
            return "not analysed (--no-root-causes)";
        }
        return dev.straggler.patterns.openmp.OpenMpAnalysis.spentTimeInOpenMp(cube)
                ? "computed across processes and threads: delay costs of MPI and OpenMP waiting and of idle threads,"
                + " propagation and the critical path (sections below)"
                : "computed: delay costs, propagation and the critical path (sections below)";
    }

    static int terminalWidth() {
        try {
            String cols = System.getenv("COLUMNS");
            if (cols != null) {
                return Math.max(60, Integer.parseInt(cols.strip()));
            }
        } catch (NumberFormatException ignored) {
            // fall through to the default
        }
        return 100;
    }
}
