package dev.straggler.patterns.algebra;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexReader;
import dev.straggler.patterns.report.AnalysisJson;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loads an operand of the profile algebra or the scaling analyses: a {@code .cubex} file (Straggler, Scalasca,
 * Score-P), a {@code straggler.analysis/1} JSON document, or a trace (anything {@link Traces#open} accepts), which
 * is analysed on the fly. The cube gets a {@code name} attribute (the file name without its extension) when it has
 * none, so that reports can say which operand is which.
 */
public final class Operands {
    private Operands() {
    }

    /**
     * An operand: its cube, and its wait states per communicator when it is an analysis (JSON document or trace;
     * null for a .cubex, which has no communicator dimension).
     */
    public record Operand(SeverityCube cube, List<CommunicatorWaits> communicators, List<String> partial) {
        public Operand {
            partial = partial == null ? List.of() : List.copyOf(partial);
        }
    }

    /** @throws dev.straggler.trace.TraceFormatException (an IOException) for unreadable input, naming the file */
    public static SeverityCube load(Path path, AnalysisOptions options) throws IOException {
        return loadOperand(path, options, false).cube();
    }

    /**
     * As {@link #load}, keeping the per-communicator wait states of an analysis and, for a trace read with
     * {@code lenient}, why its analysis is partial.
     */
    public static Operand loadOperand(Path path, AnalysisOptions options, boolean lenient) throws IOException {
        String file = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        SeverityCube cube;
        List<CommunicatorWaits> comms = null;
        List<String> partial = List.of();
        if (Files.isRegularFile(path) && file.endsWith(".cubex")) {
            cube = CubexReader.read(path);
        } else if (Files.isRegularFile(path) && file.endsWith(".json")) {
            AnalysisResult r = AnalysisJson.read(path);
            cube = r.cube();
            comms = r.communicators();
        } else {
            try (TraceSource t = Traces.open(path, lenient)) {
                AnalysisResult r = Analysis.run(t, options);
                cube = r.cube();
                comms = r.communicators();
                partial = t.partialReasons();
            }
        }
        return new Operand(named(cube, path, file), comms, partial);
    }

    private static SeverityCube named(SeverityCube cube, Path path, String file) {
        if (cube.attributes().containsKey("name")) {
            return cube;
        }
        String name = file;
        for (String ext : new String[]{".cubex", ".json", ".otf2"}) {
            if (name.endsWith(ext)) {
                name = name.substring(0, name.length() - ext.length());
            }
        }
        if (name.equals("traces") || name.equals("scout") || name.equals("trace") || name.equals("profile")) {
            // Score-P and Scalasca name their files alike; the experiment folder says more.
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null && parent.getFileName() != null) {
                name = parent.getFileName() + "/" + file;
            }
        }
        Map<String, String> attrs = new LinkedHashMap<>(cube.attributes());
        attrs.put("name", name);
        return withAttributes(cube, attrs);
    }

    /** A frozen copy of a cube with other attributes (values and dimensions unchanged). */
    public static SeverityCube withAttributes(SeverityCube c, Map<String, String> attributes) {
        SeverityCube out = new SeverityCube(c.metrics(), c.regions(), c.callPaths(), c.locations(), attributes);
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                double[] row = c.rowOrNull(m, p);
                if (row != null) {
                    for (int l = 0; l < row.length; l++) {
                        out.set(m, p, l, row[l]);
                    }
                }
            }
        }
        return out.freeze();
    }
}
