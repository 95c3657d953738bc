package dev.straggler.cli;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.ParallelLocations;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "import", mixinStandardHelpOptions = true,
        description = "Converts a trace (OTF2 archive, text trace, or another store) into a Straggler store, validating it first.")
final class ImportCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "INPUT", description = "Trace to import.")
    Path input;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "STORE", description = "Store directory to create (must not exist or be empty).")
    Path output;

    @Option(names = "--compression", defaultValue = "zstd", description = "zstd (default) or none.")
    String compression;

    @Option(names = "--batch-size", defaultValue = "65536", description = "Events per record batch (default ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--no-validate", description = "Import even if the trace has structural problems.")
    boolean noValidate;

    private void checkRanges() {
        Ranges.between("--batch-size", batchSize, 1, 1 << 24);
    }

    @Override
    public Integer call() throws IOException {
        checkRanges();
        StoreOptions.Compression c = switch (compression.toLowerCase()) {
            case "zstd" -> StoreOptions.Compression.ZSTD;
            case "none" -> StoreOptions.Compression.NONE;
            default -> throw new IllegalArgumentException("--compression must be zstd or none, not '" + compression + "'");
        };
        StoreOptions opts = new StoreOptions(c, 1, batchSize);
        try (TraceSource src = Inputs.open(input, common)) {
            try {
                if (!noValidate) {
                    TraceValidator.Report r = TraceValidator.validate(src);
                    if (!r.ok()) {
                        r.problems().forEach(p -> System.err.println(input + ": " + p));
                        throw new IllegalArgumentException(input + ": " + r.problemCount()
                                + " structural problem(s); nothing written (use --no-validate to import anyway)");
                    }
                }
                long total = src.eventCount();
                try (Progress progress = Progress.start("import", total, "events", common.quiet);
                     StoreWriter w = StoreWriter.create(output, opts)) {
                    int n = src.definitions().locations().size();
                    ParallelLocations.forEach(n, l -> {
                        EventBatch b = new EventBatch(8192);
                        try (LocationReader r = src.openLocation(l)) {
                            while (r.next(b)) {
                                w.append(l, b);
                                progress.accept(b.size);
                            }
                        }
                    });
                    w.finish(src.definitions());
                    System.out.printf("imported %,d events of %d locations from %s into %s%n", progress.done(), n, input, output);
                }
            } finally {
                Inputs.reportSkipped(src);
            }
        }
        return 0;
    }
}
