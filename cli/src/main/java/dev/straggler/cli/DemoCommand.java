package dev.straggler.cli;

import dev.straggler.patterns.AnalysisResult;
import dev.straggler.testdata.GeneratedTrace;
import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.text.TextTraceReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Shows what Straggler finds on two bundled samples: a hand-written two-rank trace, and a "
                + "simulated 16-rank BT-like solver (x/y/z sweeps with late senders, a barrier whose cost grows "
                + "with p).%nWrites the reports (HTML, CUBE4, JSON) into the output directory.")
final class DemoCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Option(names = {"-o", "--output-dir"}, defaultValue = "straggler-demo", description = "Where the reports go (default ${DEFAULT-VALUE}).")
    Path outDir;

    @Option(names = "--all", description = "List every call path and rank in the reports printed, as analyze --all does.")
    boolean all;

    static final String SAMPLE = "/samples/late-sender.txt";

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(outDir);
        System.out.println("== 1. A hand-written trace (samples/late-sender.txt): rank 1 waits in MPI_Recv for a late send ==");
        try (InputStream in = DemoCommand.class.getResourceAsStream(SAMPLE)) {
            if (in == null) {
                throw new IllegalStateException("bundled sample " + SAMPLE + " missing from the build");
            }
            try (TraceSource t = TextTraceReader.read(new InputStreamReader(in, StandardCharsets.UTF_8), "samples/late-sender.txt")) {
                AnalysisResult r = AnalyzeCommand.analyse(t, 0, true);
                System.out.print(dev.straggler.patterns.report.TextReport.render(r, AnalyzeCommand.terminalWidth(), all));
            }
        }
        System.out.println();
        Scenario bt = Scenarios.byName("bt-like");
        int ranks = 16;
        System.out.println("== 2. A simulated BT-like solver on " + ranks + " ranks (straggler generate bt-like -n " + ranks + ") ==");
        MemoryTrace trace = new MemoryTrace("simulated bt-like, " + ranks + " ranks");
        GeneratedTrace g = bt.generate(new ScenarioParams(ranks, 1, Map.of()), trace);
        System.out.printf("simulated %,d events%n", g.events());
        AnalysisResult r = AnalyzeCommand.analyse(trace, 0, common.quiet);
        r.warnings().forEach(w -> System.err.println("straggler: warning: " + w));
        System.out.print(dev.straggler.patterns.report.TextReport.render(r, AnalyzeCommand.terminalWidth(), all));
        System.out.println();
        AnalyzeCommand.writeOutputs(r, trace, outDir.resolve("bt-like.json"), outDir.resolve("bt-like.cubex"),
                outDir.resolve("bt-like.html"));
        System.out.println("Open " + outDir.resolve("bt-like.html").toAbsolutePath() + " in a browser to explore the result.");
        return 0;
    }
}
