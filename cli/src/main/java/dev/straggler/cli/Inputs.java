package dev.straggler.cli;

import dev.straggler.trace.PlausibleTrace;
import dev.straggler.trace.SkipReport;
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
            // a database trial: its stored cube and wait states per communicator (null when not stored)
            Experiments.Run r = Experiments.oneFromDatabase(path.toString());
            return new dev.straggler.patterns.algebra.Operands.Operand(r.cube(), r.communicators(), java.util.List.of());
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
        long dropped = 0;
        List<String> listed = List.of();
        if (src instanceof PlausibleTrace p) {
            dropped = p.droppedCount();
            listed = p.dropped().stream().map(String::valueOf).toList();
        }
        List<Otf2Warning> skipped = PlausibleTrace.unwrap(src) instanceof Otf2Archive a ? a.warnings() : List.of();
        noteSkipped(SkipReport.lines(src.origin(), dropped, listed, skipped));
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
