package dev.straggler.cli;

import dev.straggler.trace.PlausibleTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Warning;

import java.io.IOException;
import java.nio.file.Path;

/** Opens command inputs and reports, once a command is done with them, what a lenient read had to skip. */
final class Inputs {
    private Inputs() {
    }

    static TraceSource open(Path path, CommonOptions common) throws IOException {
        return Traces.open(path, common instanceof ReadingOptions r && r.lenient);
    }

    /** A cube, analysis JSON or trace operand; says on stderr when a lenient read made its analysis partial. */
    static dev.straggler.patterns.algebra.Operands.Operand operand(Path path, dev.straggler.patterns.AnalysisOptions o,
                                                                 CommonOptions common) throws IOException {
        var op = dev.straggler.patterns.algebra.Operands.loadOperand(path, o,
                common instanceof ReadingOptions r && r.lenient);
        for (String why : op.partial()) {
            System.err.println("straggler: warning: " + path + ": partial result: " + why);
        }
        return op;
    }

    /** Prints what a lenient read skipped or dropped to stderr; nothing for a source read whole. */
    static void reportSkipped(TraceSource src) {
        if (src instanceof PlausibleTrace p && p.droppedCount() > 0) {
            System.err.printf(java.util.Locale.ROOT, "straggler: --lenient dropped %,d implausible or unreadable part(s) of %s%s:%n",
                    p.droppedCount(), p.origin(), p.droppedCount() > p.dropped().size()
                            ? " (the first " + p.dropped().size() + " listed)" : "");
            for (PlausibleTrace.Dropped d : p.dropped()) {
                System.err.println("  " + d);
            }
        }
        src = PlausibleTrace.unwrap(src);
        if (src instanceof Otf2Archive a && !a.warnings().isEmpty()) {
            System.err.println("straggler: " + a.warnings().size() + " part(s) of " + a.origin() + " were skipped:");
            for (Otf2Warning w : a.warnings()) {
                System.err.println("  " + w);
            }
        }
    }
}
