package dev.straggler.cli;

import dev.straggler.patterns.focus.Focus;
import picocli.CommandLine.Option;

/** {@code --focus}: the part of each run that run-level figures cover (POP efficiencies, a study's runs and models). */
final class FocusOption {
    @Option(names = "--focus", paramLabel = "default|all|CALLPATH|REGION", defaultValue = "default",
            description = Focus.HELP)
    String focus;

    Focus get() {
        return Focus.parse(focus);
    }
}
