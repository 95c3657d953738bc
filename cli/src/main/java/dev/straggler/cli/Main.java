package dev.straggler.cli;

import dev.straggler.trace.TraceFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

/** The {@code straggler} command. */
@Command(name = "straggler", mixinStandardHelpOptions = true, version = "straggler 0.1.0",
        description = "Finds out why a parallel program is slow from its event traces.",
        subcommands = {AnalyzeCommand.class, DemoCommand.class, GenerateCommand.class, ImportCommand.class, InfoCommand.class, ValidateCommand.class,
                DumpCommand.class, CommMatrixCommand.class, IncludeListCommand.class, FilterCommand.class, DiffCommand.class, MergeCommand.class,
                MeanCommand.class, CallsitesCommand.class, ScalingCommand.class, ModelCommand.class, BandwidthCommand.class, PhasesCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code: 0 success, 1 failure, 2 wrong arguments. */
    public static int run(String... args) {
        boolean debug = java.util.Arrays.asList(args).contains("--debug");
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            Throwable t = ex instanceof UncheckedIOException u ? u.getCause() : ex;
            cmd.getErr().println("straggler: " + message(t));
            if (debug) {
                t.printStackTrace(cmd.getErr());
            }
            return 1;
        });
        return cl.execute(args);
    }

    private static String message(Throwable t) {
        if (t instanceof NoSuchFileException n) {
            return n.getFile() + ": no such file";
        }
        if (t instanceof TraceFormatException || t instanceof IOException || t instanceof IllegalArgumentException) {
            return t.getMessage();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
