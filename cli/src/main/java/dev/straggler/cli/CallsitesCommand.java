package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.patterns.callsite.CallsiteJson;
import dev.straggler.patterns.callsite.CallsiteProfiler;
import dev.straggler.patterns.callsite.CallsiteStatistics;
import dev.straggler.patterns.callsite.CallsiteText;
import dev.straggler.patterns.callsite.TraceProfile;
import dev.straggler.patterns.mpip.MpipParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "callsites", mixinStandardHelpOptions = true,
        description = "mpiP-style callsite statistics of a trace (or of an mpiP report): time, count and bytes of every "
                + "MPI call per calling context and rank, the communication profile and the per-phase breakdown.")
final class CallsitesCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE|FILE.mpiP", description = "A trace, or an mpiP report to read.")
    Path input;

    @Option(names = "--depth", defaultValue = "1",
            description = "Calling regions per callsite, as mpiP's -k (0: MPI operations only; default ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--phase-depth", defaultValue = "1",
            description = "Call-tree depth of the phases of the breakdown (default ${DEFAULT-VALUE}).")
    int phaseDepth;

    @Option(names = "--top", defaultValue = "20", description = "Callsites in the aggregate tables (default ${DEFAULT-VALUE}).")
    int top;

    @Option(names = "--no-per-rank", description = "Print only the aggregate rows, not one row per rank.")
    boolean noPerRank;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the statistics as JSON (schema straggler.callsites/1).")
    Path json;

    private void checkRanges() {
        Ranges.between("--depth", depth, 1, 1000);
        Ranges.between("--phase-depth", phaseDepth, 1, 1000);
        Ranges.between("--top", top, 1, Integer.MAX_VALUE);
    }

    @Override
    public Integer call() throws IOException {
        checkRanges();
        CallsiteText.Options text = new CallsiteText.Options(top, !noPerRank, 30);
        ObjectNode doc;
        if (Experiments.isMpip(input)) {
            CallsiteStatistics s = MpipParser.parse(input).statistics();
            System.out.print(CallsiteText.render(s, text));
            doc = CallsiteJson.toJson(s);
        } else {
            TraceProfile p = Experiments.profile(input, common, new CallsiteProfiler.Options(depth, phaseDepth));
            System.out.print(CallsiteText.render(p, text));
            doc = CallsiteJson.toJson(p);
        }
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), doc);
            System.out.println("wrote " + json);
        }
        return 0;
    }
}
