package dev.straggler.trace;

import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Options;
import dev.straggler.trace.store.StoreLayout;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.text.TextTraceReader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Opens any trace the tools accept, recognising its format from the path: a Straggler store directory
 * (has {@code manifest.json}), an OTF2 archive (its anchor file, or the directory holding it), or a text trace
 * (first line {@code straggler-text 1}).
 */
public final class Traces {
    private Traces() {
    }

    /** @throws TraceFormatException when the path is none of the known formats, naming what was looked for */
    public static TraceSource open(Path path) throws IOException {
        return open(path, false);
    }

    /**
     * Opens a trace with its events checked for plausibility ({@link PlausibleTrace}).
     *
     * @param lenient keep what can be trusted in a damaged trace and report what was skipped
     *                ({@link Otf2Archive#warnings()}, {@link PlausibleTrace#dropped()}) instead of failing at the
     *                first defect
     */
    public static TraceSource open(Path path, boolean lenient) throws IOException {
        return PlausibleTrace.wrap(openUnchecked(path, lenient), lenient);
    }

    /** Opens without the plausibility checks of {@link PlausibleTrace} (for tools that inspect raw records). */
    public static TraceSource openUnchecked(Path path, boolean lenient) throws IOException {
        if (!Files.exists(path)) {
            throw new TraceFormatException(path + ": no such file or directory");
        }
        if (Files.isDirectory(path) && StoreLayout.isStore(path)) {
            return StoreReader.open(path);
        }
        if (Otf2Archive.isOtf2(path)) {
            return Otf2Archive.open(path, new Otf2Options(lenient));
        }
        if (Files.isDirectory(path)) {
            throw new TraceFormatException(path + ": directory is neither a Straggler store (no " + StoreLayout.MANIFEST
                    + ") nor an OTF2 archive (no anchor file *.otf2)");
        }
        if (TextTraceReader.looksLikeText(path)) {
            return TextTraceReader.read(path);
        }
        throw new TraceFormatException(path + ": unrecognised trace format (expected a Straggler store directory, "
                + "an OTF2 anchor file, or a text trace starting with '" + TextTraceReader.MAGIC + " " + TextTraceReader.VERSION + "')");
    }
}
