package dev.straggler.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Checks every path a command will write before the command starts, so that a mistyped {@code --html
 * /no/dir/x.html} is refused at once, not after an analysis of many minutes. One place for every command: the
 * options are recognised by name and type ({@link #kind}), not repeated in each command.
 */
final class OutputPaths {
    private OutputPaths() {
    }

    /** What an option names: a file to write, a directory to create (or a file or directory, as the command decides). */
    enum Kind { FILE, DIRECTORY }

    /** Path options that name a file the command writes. */
    private static final Set<String> FILE_OPTIONS = Set.of("--csv", "--json", "--cube", "--html", "--extrap",
            "--table-out", "--output", "--perfetto", "--parquet");

    /** Commands whose {@code --output} is a directory they create (a store, a study's reports) or a store or file. */
    private static final Set<String> DIRECTORY_OUTPUTS = Set.of("import", "generate", "filter", "study", "demo");

    /** The kind of output an option of a command names, or null for an input or an option that is not a path. */
    static Kind kind(CommandSpec command, OptionSpec option) {
        if (option.type() != Path.class) {
            return null;
        }
        String name = option.longestName();
        if (name.equals("--output-dir") || name.equals("--output") && DIRECTORY_OUTPUTS.contains(command.name())
                || name.equals("--otf2")) {
            return Kind.DIRECTORY;
        }
        return FILE_OPTIONS.contains(name) ? Kind.FILE : null;
    }

    /**
     * Checks the output paths of the command a parsed command line runs (defaults included).
     *
     * @throws CommandLine.ExecutionException holding an {@link IllegalArgumentException} that names the option and
     *                                        the path, reported as one line like any other error
     */
    static void check(ParseResult parsed) {
        ParseResult last = parsed;
        while (true) {
            if (last.isUsageHelpRequested() || last.isVersionHelpRequested()) {
                return;
            }
            if (!last.hasSubcommand()) {
                break;
            }
            last = last.subcommand();
        }
        CommandSpec spec = last.commandSpec();
        for (OptionSpec o : spec.options()) {
            Kind kind = kind(spec, o);
            Path p = kind == null ? null : o.getValue();
            if (p == null) {
                continue;
            }
            try {
                if (kind == Kind.FILE) {
                    file(o.longestName(), p);
                } else {
                    directory(o.longestName(), p);
                }
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ExecutionException(spec.commandLine(), e.getMessage(), e);
            }
        }
    }

    /** A file to write: not a directory, in a directory that exists and can be written. */
    static void file(String option, Path p) {
        if (Files.isDirectory(p)) {
            throw new IllegalArgumentException(option + " " + p + ": is a directory; give the name of a file to write");
        }
        Path parent = p.toAbsolutePath().normalize().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IllegalArgumentException(option + " " + p + ": there is no directory " + parent
                    + " to write it in");
        }
        if (!Files.isWritable(parent)) {
            throw new IllegalArgumentException(option + " " + p + ": the directory " + parent + " is not writable");
        }
        if (Files.exists(p) && !Files.isWritable(p)) {
            throw new IllegalArgumentException(option + " " + p + ": the file exists and is not writable");
        }
    }

    /**
     * A directory the command creates, parents included (or, for generate and filter, possibly a file): what exists of
     * the path must be writable, and the nearest part of it that exists a directory.
     */
    static void directory(String option, Path p) {
        Path a = p.toAbsolutePath().normalize();
        if (Files.exists(a)) {
            if (!Files.isWritable(a)) {
                throw new IllegalArgumentException(option + " " + p + ": exists and is not writable");
            }
            return;
        }
        Path q = a.getParent();
        while (q != null && !Files.exists(q)) {
            q = q.getParent();
        }
        if (q == null || !Files.isDirectory(q)) {
            throw new IllegalArgumentException(option + " " + p + ": " + q + " is a file, not a directory to create "
                    + "it in");
        }
        if (!Files.isWritable(q)) {
            throw new IllegalArgumentException(option + " " + p + ": the directory " + q + " is not writable");
        }
    }
}
