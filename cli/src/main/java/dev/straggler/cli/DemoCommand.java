package dev.straggler.cli;

import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceValidator;
import dev.straggler.trace.text.TextTraceReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Runs Straggler on a bundled sample trace and shows what it finds.")
final class DemoCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    static final String SAMPLE = "/samples/late-sender.txt";

    @Override
    public Integer call() throws Exception {
        try (InputStream in = DemoCommand.class.getResourceAsStream(SAMPLE)) {
            if (in == null) {
                throw new IllegalStateException("bundled sample " + SAMPLE + " missing from the build");
            }
            try (TraceSource t = TextTraceReader.read(new InputStreamReader(in, StandardCharsets.UTF_8), "sample:late-sender.txt")) {
                System.out.println("== Sample trace: two ranks, rank 1 waits in MPI_Recv for a late send ==");
                Map<String, Object> info = InfoCommand.summarise(t, true);
                System.out.printf("%d ranks, %d events, %.3f ms%n", info.get("ranks"), info.get("events"),
                        (Double) info.get("durationSeconds") * 1e3);
                TraceValidator.Report r = TraceValidator.validate(t);
                System.out.println("validation: " + (r.ok() ? "well formed" : r.problemCount() + " problems"));
            }
        }
        return 0;
    }
}
