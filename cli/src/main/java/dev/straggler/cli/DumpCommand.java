package dev.straggler.cli;

import dev.straggler.trace.Clock;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.text.TextTraceWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Prints events in the text format, optionally only some ranks and a time window.")
final class DumpCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE")
    Path trace;

    @Option(names = {"-r", "--rank"}, split = ",", paramLabel = "RANK", description = "Only these ranks (comma-separated or repeated).")
    List<Integer> ranks;

    @Option(names = "--from", paramLabel = "SECONDS", description = "Start of the window, seconds since the start of the measurement.")
    Double from;

    @Option(names = "--to", paramLabel = "SECONDS", description = "End of the window, seconds since the start of the measurement.")
    Double to;

    @Option(names = "--definitions", description = "Print the definitions too (the output is then a complete text trace when no filter is given).")
    boolean definitions;

    @Override
    public Integer call() throws IOException {
        try (TraceSource src = Inputs.open(trace, common)) {
            try {
                int rankCount = src.definitions().rankCount();
                if (ranks != null) {
                    for (int r : ranks) {
                        if (r < 0 || r >= rankCount) {
                            throw new IllegalArgumentException("--rank " + r + " does not exist: " + trace + " has ranks 0 to "
                                    + (rankCount - 1));
                        }
                    }
                }
                Clock c = src.definitions().clock();
                double length = (double) c.traceLength() / c.ticksPerSecond();
                double upper = c.traceLength() > 0 ? length : 1e9;
                if (from != null) {
                    Ranges.between("--from", from, 0, upper);
                }
                if (to != null) {
                    Ranges.between("--to", to, from == null ? 0 : from, Math.max(upper, from == null ? 0 : from));
                }
                long lo = from == null ? Long.MIN_VALUE : c.globalOffset() + Math.round(from * c.ticksPerSecond());
                long hi = to == null ? Long.MAX_VALUE : c.globalOffset() + Math.round(to * c.ticksPerSecond());
                Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
                if (definitions) {
                    TextTraceWriter.writeDefinitions(src.definitions(), out);
                }
                for (Location l : src.definitions().locations()) {
                    if (ranks == null || ranks.contains(l.rank())) {
                        TextTraceWriter.writeEvents(src, l.index(), lo, hi, out);
                    }
                }
                out.flush();
            } finally {
                Inputs.reportSkipped(src);
            }
        }
        return 0;
    }
}
