package dev.straggler.cli;

import picocli.CommandLine.Option;

/** Options every command accepts. */
class CommonOptions {
    @Option(names = "--debug", description = "Print stack traces of errors.")
    boolean debug;

    @Option(names = {"-q", "--quiet"}, description = "No progress bar.")
    boolean quiet;
}
