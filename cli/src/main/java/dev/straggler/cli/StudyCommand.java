package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.cli.report.HtmlPage;
import dev.straggler.cli.report.ModelSection;
import dev.straggler.cli.report.PopSection;
import dev.straggler.cli.report.RunSummary;
import dev.straggler.cli.report.ScalingSection;
import dev.straggler.cli.report.StudyReport;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.algebra.CommunicatorDiff;
import dev.straggler.patterns.algebra.DiffJson;
import dev.straggler.patterns.algebra.DiffReport;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.cube.PathNames;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.focus.Focus;
import dev.straggler.patterns.pop.PopMetrics;
import dev.straggler.patterns.pop.PopText;
import dev.straggler.patterns.reduce.CallTreeProfile;
import dev.straggler.patterns.reduce.CubeProfiles;
import dev.straggler.patterns.reduce.FilterFiles;
import dev.straggler.patterns.reduce.ReductionOptions;
import dev.straggler.patterns.reduce.ReductionPlan;
import dev.straggler.patterns.reduce.ReductionPlanner;
import dev.straggler.patterns.reduce.RegionStatistics;
import dev.straggler.patterns.reduce.SizeModel;
import dev.straggler.patterns.reduce.WaitStates;
import dev.straggler.patterns.scaling.MeasurementSeries;
import dev.straggler.patterns.scaling.MedyaModel;
import dev.straggler.patterns.scaling.ModelPoint;
import dev.straggler.patterns.scaling.ModelSearch;
import dev.straggler.patterns.scaling.PmnfModel;
import dev.straggler.patterns.scaling.PmnfModeler;
import dev.straggler.patterns.scaling.RankCorrelation;
import dev.straggler.patterns.scaling.ScalingExperiment;
import dev.straggler.patterns.scaling.ScalingInputs;
import dev.straggler.patterns.scaling.ScalingJson;
import dev.straggler.patterns.scaling.ScalingText;
import dev.straggler.patterns.scaling.WaitStateScaling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

@Command(name = "study", mixinStandardHelpOptions = true,
        description = "A scaling study in one command, from runs at several process counts: each run side by side, "
                + "the growth from the smallest to the largest run by wait state, call path and communicator size, "
                + "the rank correlation of callsites and wait states with p (Vetter & McCracken), Medya and "
                + "normal-form (Extra-P) models with predictions and the crossover, the root causes per run, and the "
                + "include list to record the next larger run with.%nWrites one self-contained HTML report, a JSON "
                + "document and the filter file into the output directory, and prints a summary.%nRuns: traces "
                + "(analysed with root causes unless --no-root-causes), .cubex, analysis JSON or mpiP reports.")
final class StudyCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    static final String SCHEMA = "straggler.study/1";

    @Mixin
    ReadingOptions common;

    @Parameters(arity = "1..*", paramLabel = "EXP", description = "Runs: traces, .cubex, analysis JSON, mpiP reports, or db:FILE?app=NAME (trials of an experiment database).")
    List<Path> experiments;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", defaultValue = "straggler-study",
            description = "Directory for study.html, study.json and the filter file (default ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--root-causes", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Analyse traces with root causes (delay costs, propagation, critical path); on by default, "
                    + "since a study asks why. --no-root-causes takes about a third of the time (docs/root-causes.md).")
    boolean rootCauses;

    @Option(names = "--next", paramLabel = "P",
            description = "Process count of the next run, for the include list and the predictions (default: twice the largest).")
    Integer next;

    @Option(names = "--predict", split = ",", paramLabel = "P", description = "More process counts to predict at.")
    int[] predict = new int[0];

    @Option(names = "--format", defaultValue = "scorep", paramLabel = "scorep|tau",
            description = "Filter file format for the next run: Score-P filter file (default) or TAU selective instrumentation file.")
    String format;

    @Option(names = "--keep-causes", defaultValue = "5", paramLabel = "PERCENT",
            description = "The include list also keeps every function with at least this share of the largest run's "
                    + "delay costs (default ${DEFAULT-VALUE} %%), so that the next trace still explains why.")
    double keepCauses;

    @Option(names = "--threshold", defaultValue = "0.01",
            description = "Rank correlation: report a callsite or wait state whose share of MPI time reaches this in some run (default ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--search", paramLabel = "straggler|extra-p", defaultValue = "straggler",
            description = "Which search chooses the normal-form models (see straggler model --help).")
    String search;

    @Option(names = "--scaling", defaultValue = "strong", paramLabel = "strong|weak",
            description = "How the runs scale, for the POP computation scaling: strong (same problem; default) or weak.")
    String scaling;

    @Mixin
    FocusOption focusOption;

    /** Rows of the growth table. */
    static final int TOP_GROWTH = 8;

    private void checkRanges() {
        Ranges.between("--threshold", threshold, 0, 1);
        Ranges.between("--keep-causes", keepCauses, 0, 100);
        Ranges.processCounts("--predict", predict);
        if (next != null) {
            Ranges.processCounts("--next", new int[]{next});
        }
    }

    @Override
    public Integer call() throws IOException {
        Experiments.requireTwo(experiments, spec);
        checkRanges();
        FilterFiles.Format filterFormat = switch (format.toLowerCase(Locale.ROOT)) {
            case "scorep" -> FilterFiles.Format.SCOREP;
            case "tau" -> FilterFiles.Format.TAU;
            default -> throw new IllegalArgumentException("--format must be scorep or tau, not '" + format + "'");
        };
        ModelSearch.Search how = switch (search) {
            case "straggler" -> ModelSearch.Search.STRAGGLER;
            case "extra-p", "extrap" -> ModelSearch.Search.EXTRA_P;
            default -> throw new IllegalArgumentException("--search takes straggler or extra-p, not " + search);
        };
        if (Files.exists(output) && !Files.isDirectory(output)) {
            throw new IllegalArgumentException(output + " exists and is not a directory");
        }
        List<Experiments.Run> runs = new ArrayList<>(Experiments.load(experiments, common, true,
                AnalysisOptions.defaults().withRootCauses(rootCauses)));
        runs.sort(Comparator.comparingInt(Experiments.Run::tasks));
        List<Experiments.Run> withCube = runs.stream().filter(r -> r.cube() != null).toList();
        Set<Integer> sizes = new TreeSet<>();
        withCube.forEach(r -> sizes.add(r.tasks()));
        if (withCube.size() < 2 || sizes.size() < 2) {
            throw new IllegalArgumentException("study needs runs at two or more process counts with wait states (traces, "
                    + ".cubex or analysis JSON); got " + withCube.size() + " run(s) at " + sizes.size() + " process count(s)");
        }
        Files.createDirectories(output);
        int largestP = withCube.get(withCube.size() - 1).tasks();
        int nextP = next != null ? next : 2 * largestP;

        Focus focus = focusOption.get();
        List<SeverityCube> wholes = withCube.stream().map(Experiments.Run::cube).toList();
        // every run-level figure below covers the focus, applied once per run; the root causes and the include list
        // look at whole runs
        List<Focus.Selection> selections = wholes.stream().map(focus::select).toList();
        List<SeverityCube> cubes = selections.stream().map(Focus.Selection::cube).toList();
        int[] tasks = withCube.stream().mapToInt(Experiments.Run::tasks).toArray();
        List<String> labels = withCube.stream().map(Experiments.Run::label).toList();
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        doc.put("schema", SCHEMA);
        doc.put("focus", focus.description());
        HtmlPage page = new HtmlPage("Straggler: scaling study", withCube.size() + " runs, p = "
                + String.join(", ", sizes.stream().map(String::valueOf).toList()));
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Scaling study of %d runs at p = %s%n", runs.size(),
                String.join(", ", runs.stream().map(r -> String.valueOf(r.tasks())).toList())));
        String focusNote = focusNote(focus);
        out.append(focusNote).append("\n\n");
        page.add(StudyReport.focus(focusNote));

        // 0. the POP assessment heads the study, as in POP's own reports
        PopMetrics.Scaling popScaling = switch (scaling.toLowerCase(Locale.ROOT)) {
            case "strong" -> PopMetrics.Scaling.STRONG;
            case "weak" -> PopMetrics.Scaling.WEAK;
            default -> throw new IllegalArgumentException("--scaling must be strong or weak, not '" + scaling + "'");
        };
        List<PopMetrics> pop = new ArrayList<>();
        List<dev.straggler.patterns.pop.PopHybrid> hybrid = new ArrayList<>();
        for (int i = 0; i < withCube.size(); i++) {
            pop.add(PopCommand.of(withCube.get(i), selections.get(i)));
            hybrid.add(dev.straggler.patterns.pop.PopHybrid.of(selections.get(i)));
        }
        pop = PopMetrics.scaling(pop, popScaling);
        page.add(new PopSection(pop, popScaling));
        doc.set("pop", PopText.toJson(pop, popScaling));
        out.append(PopText.render(pop, PopCommand.colour(), popScaling, hybrid)).append('\n');

        // 1. the runs side by side
        List<RunSummary> summaries = new ArrayList<>();
        ArrayNode runsJson = doc.putArray("runs");
        int width = Math.max(3, labels.stream().mapToInt(String::length).max().orElse(3));
        out.append(RunSummary.header(width, focus)).append('\n');
        for (int i = 0; i < withCube.size(); i++) {
            Experiments.Run r = withCube.get(i);
            RunSummary s = RunSummary.of(r.label(), r.tasks(), selections.get(i));
            summaries.add(s);
            out.append(s.line(width, focus)).append('\n');
            ObjectNode j = runsJson.addObject();
            j.put("label", s.label());
            j.put("path", dev.straggler.experiments.Selection.asWritten(r.path().toString()));
            j.put("processes", s.processes());
            DiffJson.num(j, "timePerProcess", s.timePerProcess());
            DiffJson.num(j, "computationShare", s.computation());
            DiffJson.num(j, "mpiShare", s.mpi());
            DiffJson.num(j, "waitingShare", s.waiting());
            if (focus.outsideHeading() != null) {
                DiffJson.num(j, "outsideFocusShare", s.outside());
            }
            if (s.largestWait() != null) {
                j.put("largestWaitState", s.largestWait());
                DiffJson.num(j, "largestWaitSeconds", s.largestSeconds());
            }
            if (s.cause() != null) {
                j.put("cause", s.cause());
            }
        }
        page.add(StudyReport.runs(summaries, focus));

        // 2. growth: the largest run minus the smallest
        Experiments.Run small = withCube.get(0);
        Experiments.Run large = withCube.get(withCube.size() - 1);
        DiffReport growth = DiffReport.of(cubes.get(cubes.size() - 1), cubes.get(0));
        List<DiffReport.Entry> top = topGrowth(growth);
        CommunicatorDiff comms = small.communicators() != null && large.communicators() != null
                ? CommunicatorDiff.of(large.communicators(), small.communicators()) : null;
        out.append(String.format(Locale.ROOT, "%nGrowth of the time in the focus from %s (p = %d) to %s (p = %d): %s%n", small.label(), small.tasks(),
                large.label(), large.tasks(), growth.headline()));
        for (DiffReport.Entry e : top.subList(0, Math.min(5, top.size()))) {
            out.append(String.format(Locale.ROOT, "  %8s of the growth  %s%s%n", Double.isNaN(e.change().share()) ? ""
                    : StudyReport.shareOfGrowth(e.change().share()), e.displayName(),
                    e.path().isEmpty() ? "" : " at " + PathNames.join(e.path())));
        }
        if (comms != null) {
            CommunicatorDiff.Row most = comms.rows().stream().max(Comparator.comparingDouble(CommunicatorDiff.Row::change))
                    .orElse(null);
            if (most != null && most.change() > 0) {
                out.append(String.format(Locale.ROOT, "  waiting grew most in communicators of %d processes: %s -> %s%n",
                        most.size(), RunSummary.seconds(most.b()), RunSummary.seconds(most.a())));
            }
        }
        String commsMissing = StudyMissing.communicators(withCube);
        if (commsMissing != null) {
            out.append("  ").append(commsMissing).append('\n');
        }
        ObjectNode g = DiffJson.toJson(growth, 50);
        if (comms != null) {
            g.set("communicatorSizes", comms.toJson());
        }
        if (commsMissing != null) {
            g.put("communicatorSizesMissing", commsMissing);
        }
        doc.set("growth", g);
        page.add(StudyReport.growth(growth, comms, top));

        // 3. rank correlations
        RankCorrelation.Options ro = new RankCorrelation.Options(threshold);
        List<ScalingExperiment> sites = new ArrayList<>();
        List<CallsiteStatistics> siteRuns = new ArrayList<>();
        for (Experiments.Run r : runs) {
            if (r.callsites() != null) {
                sites.add(r.callsites().toScalingExperiment(r.label()));
                siteRuns.add(r.callsites());
            }
        }
        ObjectNode scaling = doc.putObject("scaling");
        out.append('\n');
        if (sites.size() >= 2) {
            RankCorrelation.Result rc = RankCorrelation.analyse(sites, ro);
            ObjectNode j = ScalingJson.toJson(rc, "callsite");
            scaling.set("callsites", j);
            page.add(new ScalingSection("scaling-callsites", "Callsite scaling", j));
            out.append(topCorrelations("Callsites", rc));
        }
        WaitStateScaling.Result ws = WaitStateScaling.analyse(cubes, tasks, ro);
        ObjectNode wsj = ScalingJson.toJson(ws);
        scaling.set("waitStates", wsj);
        page.add(new ScalingSection("scaling-wait-states", "Wait-state scaling", wsj));
        // the rows include the delays that cause them when every run carries root causes: the label says so
        boolean delays = ws.keys().values().stream().anyMatch(k -> k.metric().startsWith("delay_"));
        out.append(topCorrelations(delays ? "Wait states and their delays" : "Wait states", ws.analysis()));

        // 4. models
        List<Integer> at = new ArrayList<>();
        at.add(nextP);
        for (int p : predict) {
            if (!at.contains(p)) {
                at.add(p);
            }
        }
        int[] predictAt = at.stream().mapToInt(Integer::intValue).toArray();
        List<ModelPoint> points = ScalingInputs.modelPointsIn(selections, tasks);
        List<MeasurementSeries> series = new ArrayList<>(ScalingInputs.patternSeriesIn(selections, tasks));
        if (siteRuns.size() >= 2) {
            series.addAll(ScalingInputs.callsiteSeries(siteRuns));
        }
        List<ModelSearch.SeriesModel> models = ModelSearch.fitAll(series, PmnfModeler.Options.defaults(), how);
        double horizon = Math.max(nextP, at.stream().mapToInt(Integer::intValue).max().orElse(nextP));
        out.append('\n');
        if (sizes.size() >= 3) {
            MedyaModel.Report medya = MedyaModel.analyse(points, predictAt);
            ObjectNode model = ScalingJson.toJson(medya, models, Math.max(horizon, 2 * largestP), ModelCommand.LEVEL);
            model.put("search", how == ModelSearch.Search.EXTRA_P ? "extra-p" : "straggler");
            model.put("searchDescription", how.description());
            doc.set("model", model);
            page.add(new ModelSection(model));
            out.append(ScalingText.render(medya));
        } else {
            String why = "models: Medya's three coefficients need runs at three or more process counts; these runs have "
                    + sizes.size();
            out.append(why).append('\n');
            doc.put("modelNote", why);
        }
        out.append(growingModels(models, largestP, nextP));

        // 5. root causes per run and 6. waiting per communicator size
        String causesMissing = StudyMissing.rootCauses(withCube, rootCauses, false);
        page.add(StudyReport.causes(labels, wholes, causesMissing));
        if (causesMissing != null) {
            doc.put("rootCausesMissing", causesMissing);
        }
        RunSummary last = summaries.get(summaries.size() - 1);
        // the terminal keeps its own line for --no-root-causes and says the other reasons after it
        boolean notAnalysed = StudyMissing.analysedWithoutRootCauses(withCube, rootCauses);
        String otherwise = StudyMissing.rootCauses(withCube, rootCauses, true);
        StringBuilder why = new StringBuilder();
        if (last.cause() != null) {
            why.append(String.format(Locale.ROOT, "Why, in %s: %s%n", last.label(), last.cause()));
        }
        if (notAnalysed) {
            why.append(String.format(Locale.ROOT, "Root causes not analysed (--no-root-causes).%n"));
        }
        if (otherwise != null) {
            why.append(otherwise).append('\n');
        }
        if (!why.isEmpty()) {
            out.append('\n').append(why);
        }
        List<List<CommunicatorWaits>> perRun = withCube.stream().map(Experiments.Run::communicators).toList();
        page.add(StudyReport.communicators(labels, perRun, commsMissing));

        // 7. the include list for the next run
        out.append(includeList(withCube, nextP, filterFormat, doc, page));

        Path html = output.resolve("study.html");
        Path json = output.resolve("study.json");
        page.write(html);
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), doc);
        out.append(String.format(Locale.ROOT, "%nwrote %s, %s%n", html, json));
        System.out.print(out);
        return 0;
    }

    /** Which part of the runs the study's figures cover, in one line for the terminal and the page. */
    static String focusNote(Focus focus) {
        String what = switch (focus.kind()) {
            case DEFAULT -> "the runs without MPI_Init/MPI_Finalize (their time is the Init/Fin column and the "
                    + "init_finalize series; --focus all for the whole runs)";
            case ALL -> "the whole runs, MPI_Init and MPI_Finalize included";
            case PATH -> focus.description() + " (the rest of each run is the 'outside' column)";
        };
        return "Focus: " + what + ". The POP table, the runs, the growth, the rank correlations and the models cover it; "
                + "the root causes and the include list look at the whole runs.";
    }

    /** The (wait state or computation, call path) entries with the largest positive share of the time growth. */
    static List<DiffReport.Entry> topGrowth(DiffReport d) {
        Set<String> metrics = new java.util.HashSet<>();
        metrics.add("comp");
        for (String[] w : WAIT_STATES) {
            metrics.add(w[0]);
        }
        return d.entries().stream()
                .filter(e -> metrics.contains(e.metric()) && !Double.isNaN(e.change().share()) && e.change().diff() > 0)
                .sorted(Comparator.comparingDouble((DiffReport.Entry e) -> -e.change().share()))
                .limit(TOP_GROWTH).toList();
    }

    /** The wait states a study ranks growth by (the disjoint waiting parts of Scalasca's patterns). */
    static final String[][] WAIT_STATES = {{"mpi_latesender"}, {"mpi_latereceiver"}, {"mpi_wait_nxn"},
            {"mpi_barrier_wait"}, {"mpi_latebroadcast"}, {"mpi_earlyreduce"}, {"mpi_earlyscan"},
            {"mpi_init_completion"}, {"mpi_finalize_wait"}, {"mpi_barrier_completion"}, {"mpi_nxn_completion"}};

    private static String topCorrelations(String what, RankCorrelation.Result rc) {
        StringBuilder sb = new StringBuilder();
        List<RankCorrelation.Row> rising = rc.rows().stream().filter(r -> !Double.isNaN(r.rs()) && r.rs() > 0).toList();
        sb.append(String.format(Locale.ROOT, "%s whose share of MPI time grows with p: %d of %d%n", what,
                rising.size(), rc.rows().size()));
        for (RankCorrelation.Row r : rising.subList(0, Math.min(3, rising.size()))) {
            sb.append(String.format(Locale.ROOT, "  r_s %+.2f (p-value %.3g), share up to %s  %s%n", r.rs(), r.pValue(),
                    RunSummary.percent(Math.min(1, r.maxShare())), r.key()));
        }
        return sb.toString();
    }

    /** The three series the models predict to grow most from the largest run to the next. */
    private static String growingModels(List<ModelSearch.SeriesModel> models, int largestP, int nextP) {
        record Growth(ModelSearch.SeriesModel m, double now, double then) {
        }
        List<Growth> grow = new ArrayList<>();
        for (ModelSearch.SeriesModel m : models) {
            PmnfModel pm = m.model();
            if (pm == null || m.series().metric().equals("time")) {
                continue;
            }
            double now = pm.predict(largestP);
            double then = pm.predict(nextP);
            if (then > now && then > 0 && now >= 0) {
                grow.add(new Growth(m, now, then));
            }
        }
        grow.sort(Comparator.comparingDouble((Growth x) -> -(x.then() - x.now())));
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Normal-form models growing most from p = %d to p = %d:%n", largestP, nextP));
        if (grow.isEmpty()) {
            sb.append("  none\n");
        }
        for (Growth x : grow.subList(0, Math.min(3, grow.size()))) {
            PmnfModel.TurnOver turn = x.m().model().turnOver(x.m().series().p());
            sb.append(String.format(Locale.ROOT, "  %s -> %s  %s = %s%s%n", RunSummary.seconds(x.now()),
                    RunSummary.seconds(x.then()), x.m().series().label(), x.m().model().formula(),
                    turn == null ? "" : " (" + turn.text() + ")"));
        }
        return sb.toString();
    }

    /**
     * The include list for the next run: the TAU/KOJAK paper's policy (keep MPI and every function on a path to it,
     * drop the rest) applied to the largest run's call tree, keeping call paths with wait states and the functions
     * carrying {@code --keep-causes} of its delay costs; the size it gives every run, and the next run's size projected
     * from them.
     */
    private String includeList(List<Experiments.Run> runs, int nextP, FilterFiles.Format f, ObjectNode doc,
                               HtmlPage page) throws IOException {
        Experiments.Run large = runs.get(runs.size() - 1);
        ReductionOptions o = ReductionOptions.defaults().withPolicy(ReductionOptions.Policy.PAPER)
                .withCauses(dev.straggler.patterns.reduce.CauseFunctions.of(large.cube(), keepCauses));
        CallTreeProfile profile = CubeProfiles.fromCube(large.cube(), large.label());
        RegionStatistics stats = RegionStatistics.of(profile, SizeModel.SCOREP);
        ReductionPlan plan = ReductionPlanner.plan(stats, o, WaitStates.fromCube(large.cube(), profile));
        String name = f == FilterFiles.Format.SCOREP ? "next-run.filter" : "next-run.tau";
        Path file = output.resolve(name);
        String comment = String.format(Locale.ROOT, "Written by straggler study from %s (p = %d) for the run at p = %d%n"
                + "%d of %d regions dropped", large.label(), large.tasks(), nextP, plan.excludedNames().size(),
                plan.decisions().size());
        Files.writeString(file, FilterFiles.write(plan, f, FilterFiles.ListKind.EXCLUDE, comment), StandardCharsets.UTF_8);

        // every run's size as recorded and with the list (the same names dropped), Score-P's estimate from its profile
        List<Object[]> rows = new ArrayList<>();
        double[] p = new double[runs.size()];
        double[] before = new double[runs.size()];
        double[] after = new double[runs.size()];
        Set<String> dropped = Set.copyOf(plan.excludedNames());
        for (int i = 0; i < runs.size(); i++) {
            Experiments.Run r = runs.get(i);
            RegionStatistics s = i == runs.size() - 1 ? stats
                    : RegionStatistics.of(CubeProfiles.fromCube(r.cube(), r.label()), SizeModel.SCOREP);
            ReductionPlan applied = ReductionPlanner.evaluate(s, region -> dropped.contains(region.name()),
                    "the include list");
            rows.add(new Object[]{r.label(), r.tasks(), applied.before().bytes(), applied.after().bytes()});
            p[i] = r.tasks();
            before[i] = applied.before().bytes();
            after[i] = applied.after().bytes();
        }
        String projection = projection(p, before, after, nextP);
        List<String> keptUser = plan.decisions().stream()
                .filter(d -> !d.excluded() && d.type().filterable()).map(ReductionPlan.Decision::name).toList();
        page.add(StudyReport.includeList(plan.policy(), file.toString(), rows, projection, plan.excludedNames(), keptUser));

        ObjectNode j = doc.putObject("includeList");
        j.put("file", file.toString());
        j.put("format", f == FilterFiles.Format.SCOREP ? "scorep" : "tau");
        j.put("nextProcesses", nextP);
        j.put("policy", plan.policy());
        j.put("projection", projection);
        ArrayNode names = j.putArray("dropped");
        plan.excludedNames().forEach(names::add);
        ArrayNode sizes = j.putArray("runs");
        for (Object[] r : rows) {
            ObjectNode n = sizes.addObject();
            n.put("label", (String) r[0]);
            n.put("processes", (Integer) r[1]);
            n.put("bytes", (Long) r[2]);
            n.put("bytesWithList", (Long) r[3]);
        }
        return String.format(Locale.ROOT, "%nInclude list for the next run (p = %d): %s drops %d of %d regions; %s%n",
                nextP, file, plan.excludedNames().size(), plan.decisions().size(), projection);
    }

    /**
     * The trace size at {@code nextP}, with and without the list: a normal-form model of each over the runs (three
     * or more process counts), else the largest run's size per process times {@code nextP}.
     */
    static String projection(double[] p, double[] before, double[] after, int nextP) {
        int n = p.length;
        double b;
        double a;
        String how;
        long distinct = java.util.Arrays.stream(p).distinct().count();
        PmnfModel mb = null;
        PmnfModel ma = null;
        if (distinct >= 3) {
            try {
                mb = PmnfModeler.fit(p, before, PmnfModeler.Options.defaults());
                ma = PmnfModeler.fit(p, after, PmnfModeler.Options.defaults());
            } catch (IllegalArgumentException e) {
                mb = null;
            }
        }
        if (mb != null && ma != null && mb.predict(nextP) > 0 && ma.predict(nextP) > 0) {
            b = mb.predict(nextP);
            a = ma.predict(nextP);
            how = "models of the " + n + " runs: " + mb.formula() + " bytes as recorded";
        } else {
            b = before[n - 1] / p[n - 1] * nextP;
            a = after[n - 1] / p[n - 1] * nextP;
            how = "the largest run's size per process times " + nextP;
        }
        return String.format(Locale.ROOT, "projected trace size at p = %d: %s as recorded, %s with the list (%s)", nextP,
                StudyReport.bytes(b), StudyReport.bytes(a), how);
    }

}
