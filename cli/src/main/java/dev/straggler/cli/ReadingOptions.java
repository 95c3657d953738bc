package dev.straggler.cli;

import picocli.CommandLine.Option;

/** The common options of commands that read traces: also {@code --lenient}. */
final class ReadingOptions extends CommonOptions {
    @Option(names = "--lenient", description = "Read what can be trusted in a damaged or implausible trace, drop the "
            + "rest, list what was dropped and mark the result as partial (default: stop at the first defect).")
    boolean lenient;
}
