package dev.straggler.trace;

import dev.straggler.trace.store.StoreLayout;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.text.TextTraceReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens any trace the tools accept, recognising its format from the path: a Straggler store directory
 * (has {@code manifest.json}), or a text trace (first line {@code straggler-text 1}).
 */
public final class Traces {
    private Traces() {
    }

    /** @throws TraceFormatException when the path is none of the known formats, naming what was looked for */
    public static TraceSource open(Path path) throws IOException {
        if (!Files.exists(path)) {
            throw new TraceFormatException(path + ": no such file or directory");
        }
        if (Files.isDirectory(path)) {
            if (StoreLayout.isStore(path)) {
                return StoreReader.open(path);
            }
            throw new TraceFormatException(path + ": directory is not a Straggler store (no " + StoreLayout.MANIFEST + ")");
        }
        if (TextTraceReader.looksLikeText(path)) {
            return TextTraceReader.read(path);
        }
        throw new TraceFormatException(path + ": unrecognised trace format (expected a Straggler store directory "
                + "or a text trace starting with '" + TextTraceReader.MAGIC + " " + TextTraceReader.VERSION + "')");
    }
}
