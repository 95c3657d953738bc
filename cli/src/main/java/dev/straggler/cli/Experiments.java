package dev.straggler.cli;

import dev.straggler.experiments.ExperimentDatabase;
import dev.straggler.experiments.Selection;
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
     * {@code .cubex} has no communicator dimension, an mpiP report no cube) or, for a trial of an experiment
     * database, when it was not stored; {@code stored} is null unless the run is such a trial.
     */
    record Run(Path path, String label, int tasks, CallsiteStatistics callsites, SeverityCube cube,
               List<CommunicatorWaits> communicators, Stored stored) {
        Run(Path path, String label, int tasks, CallsiteStatistics callsites, SeverityCube cube,
            List<CommunicatorWaits> communicators) {
            this(path, label, tasks, callsites, cube, communicators, null);
        }

        Run(Path path, String label, int tasks, CallsiteStatistics callsites, SeverityCube cube) {
            this(path, label, tasks, callsites, cube, null, null);
        }
    }

    /**
     * What a database trial was added from and with: its input kind ({@code trace}, {@code cubex},
     * {@code analysis-json}) and whether its wait states per communicator are stored, or why not; commands that
     * miss a part of a trial say why with these.
     */
    record Stored(int trial, String sourceKind, ExperimentDatabase.Communicators communicators) {
        boolean fromTrace() {
            return "trace".equals(sourceKind);
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
                if (Selection.isSelection(p.toString())) {
                    out.addAll(fromDatabase(p.toString()));
                } else {
                    out.add(loadOne(p, common, needCube, analysis));
                }
                bar.accept(1);
            }
        }
        return out;
    }

    /**
     * A study needs two runs or more: two operands, or a database selection (which may name several). Fewer is a
     * usage error (exit code 2), as picocli's own arity check would make it.
     */
    static void requireTwo(List<Path> paths, picocli.CommandLine.Model.CommandSpec spec) {
        if (paths.size() < 2 && paths.stream().noneMatch(p -> Selection.isSelection(p.toString()))) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "give two runs or more, or a database selection (db:FILE?app=NAME)");
        }
    }

    /**
     * The trials a {@code db:} selection names, as runs with their stored cube, callsite statistics and wait states
     * per communicator.
     */
    static List<Run> fromDatabase(String spec) throws IOException {
        Selection s = Selection.parse(spec);
        List<Run> out = new ArrayList<>();
        try (ExperimentDatabase db = ExperimentDatabase.openExisting(s.database())) {
            List<ExperimentDatabase.TrialInfo> trials = db.list(s);
            if (trials.isEmpty()) {
                throw new IllegalArgumentException(spec + " matches no trial (straggler db list --db " + s.database()
                        + " shows what is there)");
            }
            for (ExperimentDatabase.TrialInfo t : trials) {
                ExperimentDatabase.LoadedTrial l = db.load(t);
                // each run named by its own trial, so that runs of one selection are told apart
                out.add(new Run(Path.of(s.ofTrial(t.id())), t.name(), t.processes(), l.callsites(), l.cube(), l.communicators(),
                        new Stored(t.id(), l.sourceKind(), l.communicatorsStored())));
            }
        }
        return out;
    }

    /** The one trial a {@code db:} selection names (for commands that take single operands, such as diff). */
    static Run oneFromDatabase(String spec) throws IOException {
        List<Run> runs = fromDatabase(spec);
        if (runs.size() != 1) {
            throw new IllegalArgumentException(spec + " matches " + runs.size() + " trials where one is needed; narrow it "
                    + "with trial=ID or processes=P");
        }
        return runs.get(0);
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
