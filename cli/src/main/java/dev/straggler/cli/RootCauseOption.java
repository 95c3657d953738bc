package dev.straggler.cli;

import dev.straggler.patterns.AnalysisOptions;
import picocli.CommandLine.Option;

/**
 * {@code --root-causes} for commands that analyse traces given as operands on the fly (diff, merge, mean, scaling,
 * model): analysed files (.cubex, JSON) carry whatever their analysis computed. Off by default, as in
 * {@code analyze}, because the stage takes several times as long as the wait-state analysis.
 */
final class RootCauseOption {
    @Option(names = "--root-causes", negatable = true, description = "Traces given as operands are analysed with "
            + "root causes (delay costs, propagation, critical path), so that the result can say why; off by default.")
    boolean rootCauses;

    AnalysisOptions options() {
        return AnalysisOptions.defaults().withRootCauses(rootCauses);
    }
}
