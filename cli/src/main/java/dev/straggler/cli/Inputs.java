package dev.straggler.cli;

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
        return Traces.open(path, common.lenient);
    }

    /** Prints the warnings of a lenient OTF2 read to stderr; nothing for other sources. */
    static void reportSkipped(TraceSource src) {
        if (src instanceof Otf2Archive a && !a.warnings().isEmpty()) {
            System.err.println("straggler: " + a.warnings().size() + " part(s) of " + a.origin() + " were skipped:");
            for (Otf2Warning w : a.warnings()) {
                System.err.println("  " + w);
            }
        }
    }
}
