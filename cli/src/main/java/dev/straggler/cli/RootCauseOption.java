package dev.straggler.cli;

import dev.straggler.patterns.AnalysisOptions;
import picocli.CommandLine.Option;

/**
 * {@code --root-causes} for commands that analyse traces given as operands on the fly (diff, merge, mean, scaling,
 * model): analysed files (.cubex, JSON) carry whatever their analysis computed. On by default, as in
 * {@code analyze}; {@code --no-root-causes} analyses the wait states alone.
 */
final class RootCauseOption {
    @Option(names = "--root-causes", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Traces given as operands are analysed with root causes (delay costs, propagation, critical "
            + "path), so that the result can say why; on by default (--no-root-causes for the wait states alone).")
    boolean rootCauses = true;

    AnalysisOptions options() {
        return AnalysisOptions.defaults().withRootCauses(rootCauses);
    }
}
