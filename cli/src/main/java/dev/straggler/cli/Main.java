package dev.straggler.cli;

import dev.straggler.trace.TraceFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

/** The {@code straggler} command. */
@Command(name = "straggler", mixinStandardHelpOptions = true, version = Main.VERSION,
        description = "Finds out why a parallel program is slow from its event traces.",
        subcommands = {AnalyzeCommand.class, DemoCommand.class, GenerateCommand.class, ImportCommand.class, InfoCommand.class, ValidateCommand.class,
                DumpCommand.class, CommMatrixCommand.class, IncludeListCommand.class, FilterCommand.class, DiffCommand.class, MergeCommand.class,
                MeanCommand.class, CallsitesCommand.class, ScalingCommand.class, ModelCommand.class, StudyCommand.class, PopCommand.class, DbCommand.class, SqlCommand.class, BandwidthCommand.class, PhasesCommand.class, TimelineCommand.class,
                CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    /** What --version prints, and what the experiment database records as the tool that stored a trial. */
    static final String VERSION = "straggler 0.1.0";


    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        // a worker thread that runs out of memory outside a pool must not print a stack trace either
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            try {
                if (!isOutOfMemory(e)) {
                    System.err.println("straggler: internal error in thread " + thread.getName() + ": " + e);
                } else if (firstOutOfMemoryReport()) {
                    System.err.println(OUT_OF_MEMORY_LINE);
                }
            } finally {
                Runtime.getRuntime().halt(1);
            }
        });
        int code;
        try {
            code = run(args);
        } catch (Error e) {
            // thrown on the main thread, outside picocli's handler (which sees only exceptions)
            if (!isOutOfMemory(e)) {
                throw e;
            }
            if (firstOutOfMemoryReport()) {
                System.err.println(OUT_OF_MEMORY_LINE);
            }
            code = 1;
        }
        System.exit(code);
    }

    /** Exit code of a run that ran out of memory. */
    static final int OUT_OF_MEMORY = 1;

    /**
     * The line that reports running out of memory, made before anything can: printing it then allocates next to
     * nothing (building it in the handler of a thread that ran out of memory could fail again, and Java then prints
     * its own line).
     */
    private static final String OUT_OF_MEMORY_LINE = "straggler: " + outOfMemory();

    private static final java.util.concurrent.atomic.AtomicBoolean OUT_OF_MEMORY_REPORTED =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * True the first time it is asked: a worker thread that runs out of memory and the main thread, which sees the
     * same failure through its pool, may both report it, and the run ends after the first report (one line).
     */
    private static boolean firstOutOfMemoryReport() {
        return OUT_OF_MEMORY_REPORTED.compareAndSet(false, true);
    }

    /** One line: how much heap there was and how to get more. */
    static String outOfMemory() {
        long mib = Runtime.getRuntime().maxMemory() >> 20;
        return "needs more memory than the " + mib + " MiB heap: rerun with STRAGGLER_HEAP=" + suggestHeap(mib)
                + " (the launcher's -Xmx), or with --threads 1 where the command has it";
    }

    private static String suggestHeap(long mib) {
        long next = Math.max(1024, mib * 2);
        return next % 1024 == 0 ? (next / 1024) + "g" : next + "m";
    }

    /** True when the failure, or anything that caused it, is running out of heap (Java's or Arrow's allocator). */
    static boolean isOutOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError || c.getClass().getName().equals("org.apache.arrow.memory.OutOfMemoryException")) {
                return true;
            }
            // Arrow's Netty allocator reports exhausted direct memory (limited to the heap size) with a misleading
            // "requires sun.misc.Unsafe" message
            if (c instanceof UnsupportedOperationException && c.getStackTrace().length > 0
                    && c.getStackTrace()[0].getClassName().startsWith("io.netty.buffer.PooledByteBufAllocatorL")) {
                return true;
            }
            // a class whose static initialiser ran out of memory fails on later use with "Could not initialize class
            // X", caused by an ExceptionInInitializerError that names the OutOfMemoryError in its message
            if ((c instanceof NoClassDefFoundError || c instanceof ExceptionInInitializerError)
                    && String.valueOf(c.getMessage()).contains("java.lang.OutOfMemoryError")) {
                return true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return false;
    }

    /** Runs a command line and returns its exit code: 0 success, 1 failure, 2 wrong arguments. */
    public static int run(String... args) {
        boolean debug = java.util.Arrays.asList(args).contains("--debug");
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            Throwable t = ex instanceof UncheckedIOException u ? u.getCause() : ex;
            if (isOutOfMemory(t)) {
                if (firstOutOfMemoryReport()) {
                    cmd.getErr().println(OUT_OF_MEMORY_LINE);
                }
                if (debug) {
                    t.printStackTrace(cmd.getErr());
                }
                return OUT_OF_MEMORY;
            }
            cmd.getErr().println("straggler: " + message(t) + lenientHint(t, cmd));
            if (debug) {
                t.printStackTrace(cmd.getErr());
            }
            return 1;
        });
        // every path the command will write is checked before it reads anything
        cl.setExecutionStrategy(parsed -> {
            OutputPaths.check(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
        int code = 1;
        try {
            code = cl.execute(args);
        } finally {
            Inputs.flushSkipped(code == 0);
        }
        return code;
    }

    /**
     * For damage a strict read stopped at and a lenient one would have read past, in a command that reads leniently
     * on request: how to go on ({@link TraceFormatException#LENIENT_HINT}); otherwise nothing.
     */
    static String lenientHint(Throwable t, CommandLine cmd) {
        if (cmd.getCommandSpec().findOption("--lenient") == null) {
            return "";
        }
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof TraceFormatException f && f.isSkippedByLenientReads()) {
                return "; " + TraceFormatException.LENIENT_HINT;
            }
        }
        return "";
    }

    private static String message(Throwable t) {
        if (t instanceof NoSuchFileException n) {
            return n.getFile() + ": no such file";
        }
        if (t instanceof TraceFormatException || t instanceof IOException || t instanceof IllegalArgumentException) {
            return t.getMessage();
        }
        if (t instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
            return dev.straggler.trace.JsonErrors.describe("JSON input", j);
        }
        // failures on worker threads arrive wrapped: report the cause that says what went wrong
        if ((t instanceof java.util.concurrent.ExecutionException || t instanceof java.util.concurrent.CompletionException)
                && t.getCause() != null) {
            return message(t.getCause());
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
