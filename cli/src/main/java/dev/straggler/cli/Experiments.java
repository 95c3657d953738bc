package dev.straggler.cli;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.CommunicatorWaits;
import dev.straggler.patterns.algebra.Operands;
import dev.straggler.patterns.callsite.CallsiteProfiler;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.callsite.TraceProfile;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.mpip.MpipParser;
import dev.straggler.trace.TraceSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of a scaling study. A trace gives both callsite statistics and an analysed severity cube, with its
 * process count from its definitions; an mpiP report gives callsite statistics only; a {@code .cubex} or analysis
 * document gives a cube only (its process count from its attributes).
 */
final class Experiments {
    /**
     * One run; {@code callsites}, {@code cube} or {@code communicators} is null when its input cannot give it (a
     * {@code .cubex} has no communicator dimension, an mpiP report no cube).
     */
    record Run(Path path, String label, int tasks, CallsiteStatistics callsites, SeverityCube cube,
               List<CommunicatorWaits> communicators) {
        Run(Path path, String label, int tasks, CallsiteStatistics callsites, SeverityCube cube) {
            this(path, label, tasks, callsites, cube, null);
        }
    }

    private Experiments() {
    }

    static boolean isMpip(Path p) {
        String n = p.getFileName() == null ? "" : p.getFileName().toString();
        return Files.isRegularFile(p) && n.endsWith(".mpiP");
    }

    static boolean isCube(Path p) {
        String n = p.getFileName() == null ? "" : p.getFileName().toString();
        return Files.isRegularFile(p) && (n.endsWith(".cubex") || n.endsWith(".json"));
    }

    static String label(Path p) {
        if (p.getFileName() == null) {
            return p.toString();
        }
        String name = p.getFileName().toString();
        Path parent = p.toAbsolutePath().normalize().getParent();
        // Score-P names every archive's anchor traces.otf2: the experiment directory is what tells runs apart
        if (name.equals("traces.otf2") && parent != null && parent.getFileName() != null) {
            return parent.getFileName().toString();
        }
        return name;
    }

    /** Callsite statistics of a trace or an mpiP report (the whole trace profile for a trace). */
    static TraceProfile profile(Path p, CommonOptions common, CallsiteProfiler.Options o) throws IOException {
        try (TraceSource src = Inputs.open(p, common)) {
            try {
                return CallsiteProfiler.profile(src, o);
            } finally {
                Inputs.reportSkipped(src);
            }
        }
    }

    static List<Run> load(List<Path> paths, CommonOptions common, boolean needCube) throws IOException {
        return load(paths, common, needCube, AnalysisOptions.defaults());
    }

    /** @param analysis how traces among the paths are analysed (root causes or not) */
    static List<Run> load(List<Path> paths, CommonOptions common, boolean needCube, AnalysisOptions analysis)
            throws IOException {
        List<Run> out = new ArrayList<>();
        try (Progress bar = Progress.start("experiments", paths.size(), "runs", common.quiet)) {
            for (Path p : paths) {
                out.add(loadOne(p, common, needCube, analysis));
                bar.accept(1);
            }
        }
        return out;
    }

    private static Run loadOne(Path p, CommonOptions common, boolean needCube, AnalysisOptions analysis) throws IOException {
        if (isMpip(p)) {
            CallsiteStatistics s = MpipParser.parse(p).statistics();
            return new Run(p, label(p), s.ranks(), s, null);
        }
        if (isCube(p)) {
            Operands.Operand op = Inputs.operand(p, analysis, common);
            SeverityCube c = op.cube();
            return new Run(p, label(p), dev.straggler.patterns.algebra.CubeAttributes.ranks(c), null, c,
                    op.communicators());
        }
        CallsiteStatistics s;
        SeverityCube cube = null;
        List<CommunicatorWaits> comms = null;
        int tasks;
        try (TraceSource src = Inputs.open(p, common)) {
            tasks = src.definitions().rankCount();
            s = CallsiteProfiler.profile(src, CallsiteProfiler.Options.defaults()).callsites();
        }
        if (needCube) {
            try (TraceSource src = Inputs.open(p, common)) {
                AnalysisResult result = Analysis.run(src, analysis);
                cube = named(result.cube(), label(p));
                comms = result.communicators();
                Inputs.reportSkipped(src);
            }
        }
        return new Run(p, label(p), tasks, s, cube, comms);
    }

    private static SeverityCube named(SeverityCube c, String name) {
        if (c.attributes().containsKey("name")) {
            return c;
        }
        Map<String, String> attrs = new LinkedHashMap<>(c.attributes());
        attrs.put("name", name);
        return Operands.withAttributes(c, attrs);
    }
}
