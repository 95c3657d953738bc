package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.cli.report.HtmlPage;
import dev.straggler.cli.report.ModelSection;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.focus.Focus;
import dev.straggler.patterns.scaling.ExtraPText;
import dev.straggler.patterns.scaling.MeasurementSeries;
import dev.straggler.patterns.scaling.MedyaModel;
import dev.straggler.patterns.scaling.ModelPoint;
import dev.straggler.patterns.scaling.ModelSearch;
import dev.straggler.patterns.scaling.PmnfModeler;
import dev.straggler.patterns.scaling.ScalingInputs;
import dev.straggler.patterns.scaling.ScalingJson;
import dev.straggler.patterns.scaling.ScalingText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "model", mixinStandardHelpOptions = true,
        description = "Scaling models from runs at several process counts: T(p) = c0 + c1/p + c2/sqrt(p) (Medya) for "
                + "time, computation and MPI time per process with the crossover (over a focus of analysis: by default "
                + "the run without MPI_Init/MPI_Finalize), and an Extra-P "
                + "normal-form model per wait state and call path (traces, .cubex) or per callsite (traces, mpiP "
                + "reports); with root causes also per delay cost and delaying call path, and of the critical path.")
final class ModelCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    static final double LEVEL = 0.95;

    @Mixin
    ReadingOptions common;

    @Mixin
    RootCauseOption rootCauses;

    @Parameters(arity = "1..*", paramLabel = "EXP", description = "Runs: traces, mpiP reports, .cubex, analysis JSON, or db:FILE?app=NAME (trials of an experiment database).")
    List<Path> experiments;

    @Mixin
    FocusOption focusOption;

    @Option(names = "--predict", split = ",", paramLabel = "P", description = "Process counts to predict at, e.g. 64,128.")
    int[] predict = new int[0];

    @Option(names = "--json", paramLabel = "FILE", description = "Write the models as JSON (schema straggler.model/1).")
    Path json;

    @Option(names = "--extrap", paramLabel = "FILE.txt", description = "Write the measurements in Extra-P's text input format.")
    Path extrap;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write the fits and curves as an HTML page.")
    Path html;

    @Option(names = "--search", paramLabel = "straggler|extra-p", defaultValue = "straggler",
            description = "Which search chooses the normal-form models: straggler (default: 116 hypotheses with "
                    + "negative exponents for strong scaling; the simpler model is kept unless a richer one has a "
                    + "significant coefficient and at least halves the leave-one-out error) or extra-p (the choice "
                    + "Extra-P 4.2.5 makes: its 42 hypotheses, the lowest error wins, the constant scored in-sample); "
                    + "docs/scaling-models.md.")
    String search;

    private void checkRanges() {
        Ranges.processCounts("--predict", predict);
    }

    @Override
    public Integer call() throws IOException {
        Experiments.requireTwo(experiments, spec);
        checkRanges();
        List<Experiments.Run> runs = Experiments.load(experiments, common, true, rootCauses.options());
        List<SeverityCube> cubes = new ArrayList<>();
        List<Integer> cubeTasks = new ArrayList<>();
        List<CallsiteStatistics> sites = new ArrayList<>();
        for (Experiments.Run r : runs) {
            if (r.cube() != null) {
                cubes.add(r.cube());
                cubeTasks.add(r.tasks());
            }
            if (r.callsites() != null) {
                sites.add(r.callsites());
            }
        }
        int[] tasks = cubeTasks.stream().mapToInt(Integer::intValue).toArray();
        // Cubes know computation from their metric tree; mpiP reports only AppTime and MPI time.
        boolean fromCubes = cubes.size() == runs.size();
        if (!fromCubes && sites.size() != runs.size()) {
            throw new IllegalArgumentException("model: mix of runs with only a cube (.cubex, JSON) and runs with only "
                    + "callsites (mpiP); give traces, or runs of one kind");
        }
        Focus focus = focusOption.get();
        List<Focus.Selection> selections = cubes.stream().map(focus::select).toList();
        List<ModelPoint> points = fromCubes ? ScalingInputs.modelPointsIn(selections, tasks)
                : ScalingInputs.modelPoints(sites);
        MedyaModel.Report medya = MedyaModel.analyse(points, predict);
        List<MeasurementSeries> series = new ArrayList<>();
        List<MeasurementSeries> callsites = List.of();
        if (cubes.size() >= 2) {
            series.addAll(ScalingInputs.patternSeriesIn(selections, tasks));
        }
        if (sites.size() >= 2) {
            callsites = ScalingInputs.callsiteSeries(sites);
            series.addAll(callsites);
        }
        ModelSearch.Search how = switch (search) {
            case "straggler" -> ModelSearch.Search.STRAGGLER;
            case "extra-p", "extrap" -> ModelSearch.Search.EXTRA_P;
            default -> throw new IllegalArgumentException("--search takes straggler or extra-p, not " + search);
        };
        List<ModelSearch.SeriesModel> models = ModelSearch.fitAll(series, PmnfModeler.Options.defaults(), how);
        double largest = 0;
        for (ModelPoint p : points) {
            largest = Math.max(largest, p.tasks());
        }
        double at = largest;
        for (int p : predict) {
            at = Math.max(at, p);
        }
        // mpiP measures from MPI_Init to MPI_Finalize and leaves both out: the default focus, whatever --focus says
        String focusLine = "Focus: " + (fromCubes ? focus.description() + (focus.kind() == Focus.Kind.DEFAULT
                ? " (their time per process is the series " + ScalingInputs.INIT_FINALIZE + "; --focus all for the whole run)" : "")
                : "mpiP's application time, from MPI_Init to MPI_Finalize") + "; time, computation and MPI below cover it";
        System.out.println(focusLine);
        System.out.print(ScalingText.render(medya));
        System.out.println();
        System.out.print(ScalingText.render(models, at, LEVEL, how));
        ObjectNode doc = ScalingJson.toJson(medya, models, Math.max(at, 2 * largest), LEVEL);
        doc.put("search", how == ModelSearch.Search.EXTRA_P ? "extra-p" : "straggler");
        doc.put("focus", fromCubes ? focus.description() : "mpiP application time");
        doc.put("searchDescription", how.description());
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), doc);
            System.out.println("wrote " + json);
        }
        if (extrap != null) {
            try (Writer w = Files.newBufferedWriter(extrap, StandardCharsets.UTF_8)) {
                ExtraPText.write(w, "p", ExtraPText.forExtraP(series, callsites));
            }
            System.out.println("wrote " + extrap);
        }
        if (html != null) {
            new HtmlPage("Straggler: scaling models", runs.size() + " runs").add(new ModelSection(doc)).write(html);
            System.out.println("wrote " + html);
        }
        return 0;
    }
}
