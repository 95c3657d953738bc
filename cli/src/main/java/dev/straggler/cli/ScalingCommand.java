package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.cli.report.HtmlPage;
import dev.straggler.cli.report.ScalingSection;
import dev.straggler.patterns.algebra.CauseMetrics;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.scaling.RankCorrelation;
import dev.straggler.patterns.scaling.ScalingExperiment;
import dev.straggler.patterns.scaling.ScalingJson;
import dev.straggler.patterns.scaling.ScalingText;
import dev.straggler.patterns.scaling.WaitStateScaling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "scaling", mixinStandardHelpOptions = true,
        description = "Rank-correlation scalability analysis (Vetter & McCracken) of runs at several process counts: "
                + "which callsites, wait states and (when the runs carry them) delay costs by delaying call path "
                + "take a growing share of MPI time (MPI_Init and MPI_Finalize left out) as the process count grows.%nRuns: traces (process "
                + "count from their definitions), mpiP reports (callsites only) or .cubex/analysis JSON (wait "
                + "states only).")
final class ScalingCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ReadingOptions common;

    @Mixin
    RootCauseOption rootCauses;

    @Parameters(arity = "1..*", paramLabel = "EXP", description = "Runs: traces, mpiP reports, .cubex, analysis JSON, or db:FILE?app=NAME (trials of an experiment database).")
    List<Path> experiments;

    @Option(names = "--threshold", defaultValue = "0.01",
            description = "Report a callsite or wait state whose share of MPI time reaches this in some run (default ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Write {\"callsites\": ..., \"waitStates\": ...}, each of schema straggler.scaling/1.")
    Path json;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write the tables and plots as an HTML page.")
    Path html;

    private void checkRanges() {
        Ranges.between("--threshold", threshold, 0, 1);
    }

    @Override
    public Integer call() throws IOException {
        Experiments.requireTwo(experiments, spec);
        checkRanges();
        List<Experiments.Run> runs = Experiments.load(experiments, common, true, rootCauses.options());
        RankCorrelation.Options o = new RankCorrelation.Options(threshold);
        List<ScalingExperiment> sites = new ArrayList<>();
        List<SeverityCube> cubes = new ArrayList<>();
        List<Integer> tasks = new ArrayList<>();
        for (Experiments.Run r : runs) {
            if (r.callsites() != null) {
                sites.add(r.callsites().toScalingExperiment(r.label()));
            }
            if (r.cube() != null) {
                cubes.add(r.cube());
                tasks.add(r.tasks());
            }
        }
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        HtmlPage page = new HtmlPage("Straggler: scaling", runs.size() + " runs");
        if (sites.size() >= 2) {
            RankCorrelation.Result rc = RankCorrelation.analyse(sites, o);
            System.out.print(ScalingText.render(rc, "callsite"));
            ObjectNode j = ScalingJson.toJson(rc, "callsite");
            doc.set("callsites", j);
            page.add(new ScalingSection("scaling-callsites", "Callsite scaling", j));
        }
        if (cubes.size() >= 2) {
            if (sites.size() >= 2) {
                System.out.println();
            }
            WaitStateScaling.Result ws = WaitStateScaling.analyse(cubes, tasks.stream().mapToInt(Integer::intValue).toArray(), o);
            boolean causes = ws.keys().values().stream().anyMatch(k -> CauseMetrics.isRootCause(k.metric()));
            System.out.print(ScalingText.render(ws.analysis(), causes ? "wait state or delay" : "wait state"));
            ObjectNode j = ScalingJson.toJson(ws);
            doc.set("waitStates", j);
            page.add(new ScalingSection("scaling-wait-states", "Wait-state scaling", j));
        }
        if (doc.isEmpty()) {
            throw new IllegalArgumentException("scaling needs at least two runs with callsites (traces, mpiP reports) "
                    + "or two with wait states (traces, .cubex, analysis JSON)");
        }
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), doc);
            System.out.println("wrote " + json);
        }
        if (html != null) {
            page.write(html);
            System.out.println("wrote " + html);
        }
        return 0;
    }
}
