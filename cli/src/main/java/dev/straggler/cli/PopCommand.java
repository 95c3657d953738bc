package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.report.HtmlPage;
import dev.straggler.cli.report.PopSection;
import dev.straggler.patterns.focus.Focus;
import dev.straggler.patterns.pop.PopMetrics;
import dev.straggler.patterns.pop.PopText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "pop", mixinStandardHelpOptions = true,
        description = "The POP methodology's efficiencies, as Cube's Advisor computes them from Scalasca's metrics: "
                + "per run load balance, communication, serialisation, transfer and parallel efficiency; across runs "
                + "at several process counts computation scaling and global efficiency (reference: the run with the "
                + "fewest processes). Computed over a focus of analysis: by default the run without MPI_Init/MPI_Finalize (--focus). docs/pop.md.%nRuns: traces, .cubex or analysis JSON.")
final class PopCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(arity = "1..*", paramLabel = "RUN", description = "Runs: traces, .cubex, analysis JSON or db:FILE?app=NAME.")
    List<Path> runs;

    @Option(names = "--scaling", defaultValue = "strong", paramLabel = "strong|weak",
            description = "How the runs scale: strong (same problem, more processes; default) or weak (problem grows with p).")
    String scaling;

    @Mixin
    FocusOption focus;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the efficiencies as JSON (schema " + PopText.SCHEMA + ").")
    Path json;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write the table as an HTML page.")
    Path html;

    @Override
    public Integer call() throws IOException {
        PopMetrics.Scaling how = switch (scaling.toLowerCase(Locale.ROOT)) {
            case "strong" -> PopMetrics.Scaling.STRONG;
            case "weak" -> PopMetrics.Scaling.WEAK;
            default -> throw new IllegalArgumentException("--scaling must be strong or weak, not '" + scaling + "'");
        };
        List<Experiments.Run> loaded = new ArrayList<>(Experiments.load(runs, common, true));
        loaded.sort(Comparator.comparingInt(Experiments.Run::tasks));
        List<PopMetrics> metrics = new ArrayList<>();
        List<dev.straggler.patterns.pop.PopHybrid> hybrid = new ArrayList<>();
        for (Experiments.Run r : loaded) {
            if (r.cube() == null) {
                throw new IllegalArgumentException(r.path() + ": an mpiP report has no per-process computation and "
                        + "waiting; give the trace, a .cubex or an analysis JSON");
            }
            metrics.add(of(r, focus.get()));
            hybrid.add(dev.straggler.patterns.pop.PopHybrid.of(focus.get().select(r.cube())));
        }
        PopMetrics.Scaling shown = scalingOf(metrics, how);
        if (shown != null) {
            metrics = PopMetrics.scaling(metrics, how);
        }
        System.out.print(PopText.render(metrics, colour(), shown, hybrid));
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), PopText.toJson(metrics, shown));
            System.out.println("wrote " + json);
        }
        if (html != null) {
            new HtmlPage("Straggler: POP efficiencies", metrics.size() + " run(s)").add(new PopSection(metrics, shown)).write(html);
            System.out.println("wrote " + html);
        }
        return 0;
    }

    /**
     * A run's efficiencies over the focus, with the useful instructions and cycles of its OTF2 counters where it has
     * them. The counters are totals per region, not per call path: they fit the default focus (its computation is the
     * whole run's, since MPI_Init/MPI_Finalize hold none) and the whole run, not a call-path focus.
     */
    static PopMetrics of(Experiments.Run r, Focus focus) throws IOException {
        return of(r, focus.select(r.cube()));
    }

    /** {@link #of(Experiments.Run, Focus)} with the focus already applied to the run's cube. */
    static PopMetrics of(Experiments.Run r, Focus.Selection sel) throws IOException {
        PopMetrics m = PopMetrics.of(sel, r.label());
        if (sel.focus().kind() != Focus.Kind.PATH && r.path() != null && dev.straggler.trace.otf2.Otf2Archive.isOtf2(r.path())) {
            var counters = dev.straggler.trace.otf2.Otf2Counters.read(r.path());
            if (counters.isPresent()) {
                m = dev.straggler.patterns.pop.PopCounters.apply(m, counters.get());
            }
        }
        return m;
    }

    /** The scaling rows exist only for runs at two or more process counts. */
    static PopMetrics.Scaling scalingOf(List<PopMetrics> metrics, PopMetrics.Scaling how) {
        return metrics.stream().mapToInt(PopMetrics::processes).distinct().count() >= 2 ? how : null;
    }

    /** Colours only for a terminal, and never when NO_COLOR is set (no-color.org). */
    static boolean colour() {
        return System.console() != null && System.getenv("NO_COLOR") == null;
    }
}
