package dev.straggler.cli;

import dev.straggler.patterns.algebra.Format;
import dev.straggler.patterns.reduce.FilterFiles;
import dev.straggler.patterns.reduce.TraceReducer;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.TraceWriter;
import dev.straggler.trace.Traces;
import dev.straggler.trace.filter.RegionFilter;
import dev.straggler.trace.otf2.Otf2Writer;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

@Command(name = "filter", mixinStandardHelpOptions = true,
        description = "Applies a Score-P filter file or a TAU selective instrumentation file to an existing trace and  "
                + "writes the reduced trace, as if the program had been recorded with that filter: the ENTER/LEAVE  "
                + "events of excluded functions go, MPI calls always stay, and what happened inside an excluded  "
                + "function stays with its caller.%nOutput: a Straggler store directory, or an OTF2 archive (OUT "
                + "ending in .otf2, or --format otf2) that  Vampir, Scalasca and the OTF2 tools open. The written "
                + "trace is read back and validated.")
final class FilterCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE")
    Path trace;

    @Option(names = "--filter", required = true, paramLabel = "FILE", description = "Score-P filter file or TAU selective instrumentation file.")
    Path filterFile;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUT",
            description = "Store directory to create, or OTF2 anchor file (*.otf2) / directory with --format otf2.")
    Path output;

    @Option(names = "--format", paramLabel = "store|otf2", description = "Output format (default: otf2 when OUT ends in .otf2, else store).")
    String format;

    @Option(names = "--compression", defaultValue = "zstd", description = "Store output: zstd (default) or none.")
    String compression;

    @Option(names = "--no-validate", description = "Do not read the written trace back to validate it.")
    boolean noValidate;

    @Override
    public Integer call() throws IOException {
        RegionFilter filter = FilterFiles.read(filterFile);
        boolean otf2 = format == null ? output.getFileName().toString().endsWith(".otf2")
                : switch (format.toLowerCase(Locale.ROOT)) {
                    case "otf2" -> true;
                    case "store" -> false;
                    default -> throw new IllegalArgumentException("--format must be store or otf2, not '" + format + "'");
                };
        Path anchor = output.getFileName().toString().endsWith(".otf2") ? output : output.resolve("traces.otf2");
        if (otf2 && Files.exists(anchor)) {
            throw new IOException(anchor + ": exists; refusing to write over an archive");
        }
        TraceReducer.Result r;
        try (TraceSource src = Inputs.open(trace, common)) {
            try (Progress progress = Progress.start("filter", src.eventCount(), "events", common.quiet);
                 TraceWriter w = otf2 ? new Otf2Writer(output) : StoreWriter.create(output, storeOptions())) {
                r = TraceReducer.write(src, filter, w, progress);
            } finally {
                Inputs.reportSkipped(src);
            }
        }
        System.out.printf("filtered %s with %s into %s (%s)%n", trace, filterFile, output, otf2 ? "OTF2" : "store");
        System.out.printf("  %-26s %,d defined%n", "regions excluded", r.regionsExcluded());
        System.out.printf("  %-26s %,16d -> %,16d  (%s)%n", "events", r.eventsBefore(), r.eventsAfter(),
                percent(change(r.eventsBefore(), r.eventsAfter())));
        System.out.printf("  %-26s %,16d -> %,16d  (%s)%n", "bytes (OTF2 event files)", r.bytesBefore(),
                r.bytesAfter(), percent(change(r.bytesBefore(), r.bytesAfter())));
        System.out.printf("  %-26s %,16d bytes on disk%n", "written", otf2 ? archiveSize(anchor) : sizeOnDisk(output));
        if (noValidate) {
            return 0;
        }
        try (TraceSource back = Traces.open(otf2 ? anchor : output)) {
            TraceValidator.Report v = TraceValidator.validate(back);
            long events = back.eventCount();
            if (events != r.eventsAfter()) {
                System.out.printf("%s: read back %,d events, %,d were written%n", output, events, r.eventsAfter());
                return 1;
            }
            if (!v.ok()) {
                v.problems().forEach(p -> System.out.println(output + ": " + p));
                System.out.println(output + ": " + v.problemCount() + " problem(s)");
                return 1;
            }
            System.out.printf("  %-26s valid, %,d events read back%n", "check", events);
        }
        return 0;
    }

    private StoreOptions storeOptions() {
        StoreOptions.Compression c = switch (compression.toLowerCase(Locale.ROOT)) {
            case "zstd" -> StoreOptions.Compression.ZSTD;
            case "none" -> StoreOptions.Compression.NONE;
            default -> throw new IllegalArgumentException("--compression must be zstd or none, not '" + compression + "'");
        };
        return new StoreOptions(c, 1, StoreOptions.defaults().batchSize());
    }

    private static double change(long before, long after) {
        return before == 0 ? 0 : 100.0 * (after - before) / before;
    }

    /** A change in percent with its sign, "0.0 %" when it rounds to nothing (a filter that dropped nothing). */
    private static String percent(double change) {
        return Format.unsignedZero(String.format(Locale.ROOT, "%+.1f %%", change));
    }

    /** Anchor, global definitions and the per-location directory of an OTF2 archive. */
    private static long archiveSize(Path anchor) throws IOException {
        String name = anchor.getFileName().toString();
        String base = name.substring(0, name.length() - ".otf2".length());
        long n = Files.size(anchor) + sizeOnDisk(anchor.resolveSibling(base));
        Path defs = anchor.resolveSibling(base + ".def");
        return Files.exists(defs) ? n + Files.size(defs) : n;
    }

    private static long sizeOnDisk(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            return Files.size(p);
        }
        try (Stream<Path> s = Files.walk(p)) {
            return s.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
        }
    }
}
