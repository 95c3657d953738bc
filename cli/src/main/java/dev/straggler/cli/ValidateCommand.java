package dev.straggler.cli;

import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.Traces;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Warning;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Checks what the analysis relies on: per location, time order and the declared clock range, "
                + "ENTER/LEAVE nesting, references, communicator ranks, sizes (negative or absurd), the number of "
                + "events against the definitions (OTF2: and the chunk headers); across locations, that every send "
                + "is received and every receive sent (same communicator, tag and length) and that every collective "
                + "instance is complete (all members, same operation and root); clock-condition violations are "
                + "warnings. Every finding names the location, the event index and its time (seconds since the start of the "
                + "measurement, the tick value that dump prints in parentheses). A damaged OTF2 archive "
                + "is read as far as possible and every defect listed.%nExit code: 0 valid, 3 valid with warnings, "
                + "1 invalid.")
final class ValidateCommand implements Callable<Integer> {
    static final int VALID_WITH_WARNINGS = 3;

    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "TRACE")
    Path trace;

    @Option(names = "--max", defaultValue = "20", description = "Findings listed per location and kind (default ${DEFAULT-VALUE}).")
    int max;

    @Override
    public Integer call() throws IOException {
        if (max < 1) {
            throw new IllegalArgumentException("--max takes a positive number of findings, not " + max);
        }
        // read raw and leniently: validation lists every defect instead of stopping at the first
        try (TraceSource src = Traces.openUnchecked(trace, true)) {
            // a store file failing its checksum is refused when its location is opened: the validator lists it
            long problems = 0;
            TraceValidator.Report r = TraceValidator.validate(src, max);
            if (src instanceof Otf2Archive a) {
                for (Otf2Warning w : a.warnings()) {
                    System.out.println(w);
                    problems++;
                }
            }
            r.problems().forEach(p -> System.out.println(trace + ": " + p));
            problems += r.problemCount();
            long listed = r.problems().size();
            if (r.p2pClockViolations() + r.collectiveClockViolations() > 0) {
                System.out.printf(Locale.ROOT, "%s: clock condition violated by %,d point-to-point message(s) and "
                                + "%,d collective instance(s); the analysis clips the waiting times they distort%n",
                        trace, r.p2pClockViolations(), r.collectiveClockViolations());
            }
            if (problems == 0) {
                if (r.warningCount() > 0) {
                    System.out.printf(Locale.ROOT, "%s: valid, with %,d warning(s)%n", trace, r.warningCount());
                    return VALID_WITH_WARNINGS;
                }
                System.out.println(trace + ": valid");
                return 0;
            }
            System.out.printf(Locale.ROOT, "%s: invalid: %,d problem(s)%s%s%n", trace, problems,
                    r.warningCount() > 0 ? String.format(Locale.ROOT, ", %,d warning(s)", r.warningCount()) : "",
                    r.problemCount() + r.warningCount() > listed ? " (" + listed + " listed)" : "");
            return 1;
        }
    }
}
