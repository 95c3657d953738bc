package dev.straggler.cli;

import dev.straggler.trace.PlausibleTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Warning;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Opens command inputs and reports, once a command is done with them, what a lenient read had to skip. */
final class Inputs {
    private Inputs() {
    }

    static TraceSource open(Path path, CommonOptions common) throws IOException {
        return Traces.open(path, common instanceof ReadingOptions r && r.lenient);
    }

    /** A cube, analysis JSON or trace operand; notes when a lenient read made its analysis partial. */
    static dev.straggler.patterns.algebra.Operands.Operand operand(Path path, dev.straggler.patterns.AnalysisOptions o,
                                                                 CommonOptions common) throws IOException {
        if (dev.straggler.experiments.Selection.isSelection(path.toString())) {
            // a database trial: its stored cube (per-communicator waiting is not stored)
            return new dev.straggler.patterns.algebra.Operands.Operand(Experiments.oneFromDatabase(path.toString()).cube(),
                    null, java.util.List.of());
        }
        var op = dev.straggler.patterns.algebra.Operands.loadOperand(path, o,
                common instanceof ReadingOptions r && r.lenient);
        synchronized (SKIPPED) {
            for (String why : op.partial()) {
                SKIPPED.add("straggler: warning: " + path + ": partial result: " + why);
            }
        }
        return op;
    }

    /** What lenient reads skipped, held until the command has finished. */
    private static final java.util.List<String> SKIPPED = new java.util.ArrayList<>();

    /**
     * Notes what a lenient read skipped or dropped; nothing for a source read whole. The lines go to stderr when the
     * command succeeds ({@link #flushSkipped}); a failed command reports its error alone.
     */
    static void reportSkipped(TraceSource src) {
        List<String> lines = new java.util.ArrayList<>();
        if (src instanceof PlausibleTrace p && p.droppedCount() > 0) {
            lines.add(String.format(java.util.Locale.ROOT, "straggler: --lenient dropped %,d implausible or unreadable "
                    + "part(s) of %s%s:", p.droppedCount(), p.origin(), p.droppedCount() > p.dropped().size()
                    ? " (the first " + p.dropped().size() + " listed)" : ""));
            // sorted: locations are read in parallel, so the order of discovery varies from run to run
            p.dropped().stream().map(String::valueOf).sorted().forEach(d -> lines.add("  " + d));
        }
        src = PlausibleTrace.unwrap(src);
        if (src instanceof Otf2Archive a && !a.warnings().isEmpty()) {
            lines.add("straggler: " + a.warnings().size() + " part(s) of " + a.origin() + " were skipped:");
            a.warnings().stream().sorted(java.util.Comparator.comparingLong(Otf2Warning::location)
                    .thenComparingLong(Otf2Warning::byteOffset)).forEach(w -> lines.add("  " + w));
        }
        synchronized (SKIPPED) {
            SKIPPED.addAll(lines);
        }
    }

    /** Notes skip lines an engine's workers reported (their reads happened elsewhere than in {@code src}). */
    static void noteSkipped(List<String> lines) {
        synchronized (SKIPPED) {
            SKIPPED.addAll(lines);
        }
    }

    /** Prints the noted skips to stderr when {@code succeeded}, and forgets them either way. */
    static void flushSkipped(boolean succeeded) {
        synchronized (SKIPPED) {
            if (succeeded) {
                SKIPPED.forEach(System.err::println);
            }
            SKIPPED.clear();
        }
    }
}
