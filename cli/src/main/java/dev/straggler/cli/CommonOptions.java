package dev.straggler.cli;

import picocli.CommandLine.Option;

/** Options every command accepts. */
final class CommonOptions {
    @Option(names = "--debug", description = "Print stack traces of errors.")
    boolean debug;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    boolean quiet;

    @Option(names = "--lenient", description = "OTF2 input: analyse what can be trusted in a damaged archive and report what was skipped.")
    boolean lenient;
}
