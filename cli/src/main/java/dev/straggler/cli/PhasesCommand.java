package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.report.HtmlPage;
import dev.straggler.cli.report.PhasesSection;
import dev.straggler.patterns.algebra.CubeAttributes;
import dev.straggler.patterns.algebra.Operands;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.phases.IpmBreakdown;
import dev.straggler.patterns.phases.PhaseReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "phases", mixinStandardHelpOptions = true,
        description = "IPM's breakdown of phases into CALC, MPI, I/O and LBST (load balance including synchronisation: "
                + "waiting in the collectives of the phase), per rank and for all ranks, absolute and as fractions; "
                + "several experiments (e.g. at several process counts) side by side, smallest first.%nA phase is a "
                + "named region with everything it calls: --phase NAME (repeatable) or the children of a region "
                + "(--phases-under NAME).")
final class PhasesCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(arity = "1..*", paramLabel = "EXP", description = "Traces, analysis JSON documents or .cubex files.")
    List<Path> experiments;

    @Option(names = "--phase", paramLabel = "NAME", description = "A phase region (repeatable).")
    List<String> phases = new ArrayList<>();

    @Option(names = "--phases-under", paramLabel = "NAME", description = "Every region called by this one is a phase.")
    String under;

    @Option(names = "--max-rank-rows", defaultValue = "64", paramLabel = "N",
            description = "Per-rank rows for a single experiment of at most N ranks (default ${DEFAULT-VALUE}).")
    int maxRankRows;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the breakdown as JSON (schema straggler.phases/1).")
    Path json;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write the breakdown as an HTML page.")
    Path html;

    private void checkRanges() {
        Ranges.between("--max-rank-rows", maxRankRows, 0, Integer.MAX_VALUE);
    }

    @Override
    public Integer call() throws IOException {
        checkRanges();
        if (phases.isEmpty() == (under == null)) {
            throw new IllegalArgumentException("give the phases with --phase NAME (repeatable) or --phases-under NAME");
        }
        List<PhaseReport.Experiment> exps = new ArrayList<>();
        for (Path p : experiments) {
            SeverityCube c = Inputs.operand(p, dev.straggler.patterns.AnalysisOptions.defaults(), common).cube();
            List<String> names = under != null ? IpmBreakdown.childrenOf(c, under) : phases;
            try {
                exps.add(new PhaseReport.Experiment(CubeAttributes.describe(c, p.getFileName().toString()),
                        CubeAttributes.ranks(c), IpmBreakdown.of(c, names)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(p + ": " + e.getMessage(), e);
            }
        }
        if (under != null) {
            List<String> first = exps.get(0).phases().stream().map(IpmBreakdown.Phase::name).toList();
            for (PhaseReport.Experiment e : exps) {
                if (!e.phases().stream().map(IpmBreakdown.Phase::name).toList().equals(first)) {
                    throw new IllegalArgumentException("the experiments' regions under " + under + " differ; name the "
                            + "phases with --phase");
                }
            }
        }
        exps.sort(Comparator.comparingInt(PhaseReport.Experiment::ranks));
        System.out.print(PhaseReport.text(exps, maxRankRows));
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), PhaseReport.json(exps));
            System.out.println("wrote " + json);
        }
        if (html != null) {
            new HtmlPage("Straggler: phases", exps.size() + " experiment(s)").add(new PhasesSection(exps)).write(html);
            System.out.println("wrote " + html);
        }
        return 0;
    }
}
