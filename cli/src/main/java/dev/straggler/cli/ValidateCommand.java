package dev.straggler.cli;

import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.store.StoreReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Checks a trace: time order, ENTER/LEAVE balance, references, communicator ranks; for a store also the checksums.")
final class ValidateCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "TRACE")
    Path trace;

    @Option(names = "--max", defaultValue = "20", description = "Problems listed per location (default ${DEFAULT-VALUE}).")
    int max;

    @Override
    public Integer call() throws IOException {
        try (TraceSource src = Inputs.open(trace, common)) {
            try {
                long problems = 0;
                if (src instanceof StoreReader s) {
                    for (String p : s.verify()) {
                        System.out.println(p);
                        problems++;
                    }
                }
                TraceValidator.Report r = TraceValidator.validate(src, max);
                r.problems().forEach(p -> System.out.println(trace + ": " + p));
                problems += r.problemCount();
                if (problems == 0) {
                    System.out.println(trace + ": valid");
                    return 0;
                }
                System.out.println(trace + ": " + problems + " problem(s)"
                        + (r.problemCount() > r.problems().size() ? " (" + r.problems().size() + " listed)" : ""));
                return 1;
            } finally {
                Inputs.reportSkipped(src);
            }
        }
    }
}
