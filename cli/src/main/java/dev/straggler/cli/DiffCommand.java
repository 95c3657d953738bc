package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.straggler.cli.report.HtmlReport;
import dev.straggler.patterns.algebra.CubeAttributes;
import dev.straggler.patterns.algebra.DiffJson;
import dev.straggler.patterns.algebra.DiffReport;
import dev.straggler.patterns.algebra.DiffText;
import dev.straggler.patterns.algebra.CommunicatorDiff;
import dev.straggler.patterns.algebra.Operands;
import dev.straggler.patterns.algebra.ProfileAlgebra;
import dev.straggler.patterns.algebra.SystemMode;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "Compares two experiments (A minus B) and says in one sentence where the time went; when both "
                + "carry delay costs, also why: which delaying call paths on which ranks made the waiting grow or "
                + "shrink.%nOperands: .cubex files, straggler.analysis/1 JSON documents, traces (analysed on the "
                + "fly), or one trial of an experiment database each (db:FILE?app=NAME&processes=P).")
final class DiffCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Mixin
    RootCauseOption rootCauses;

    @Parameters(index = "0", paramLabel = "A", description = "Minuend: .cubex, analysis JSON or trace.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "Subtrahend: .cubex, analysis JSON or trace.")
    Path b;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the comparison as JSON (schema straggler.diff/1).")
    Path json;

    @Option(names = "--cube", paramLabel = "FILE.cubex", description = "Write the difference cube A - B as CUBE4.")
    Path cube;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write the difference cube as an HTML report.")
    Path html;

    @Override
    public Integer call() throws IOException {
        Operands.Operand oa = Inputs.operand(a, rootCauses.options(), common);
        Operands.Operand ob = Inputs.operand(b, rootCauses.options(), common);
        SeverityCube ca = oa.cube();
        SeverityCube cb = ob.cube();
        DiffReport report = DiffReport.of(ca, cb);
        System.out.print(DiffText.render(report));
        // the per-communicator view needs analyses on both sides (a .cubex has no communicator dimension)
        CommunicatorDiff comms = oa.communicators() != null && ob.communicators() != null
                ? CommunicatorDiff.of(oa.communicators(), ob.communicators()) : null;
        if (comms != null) {
            System.out.print(comms.render());
        }
        if (json != null) {
            var doc = DiffJson.toJson(report);
            if (comms != null) {
                doc.set("communicatorSizes", comms.toJson());
            }
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), doc);
            System.out.println("wrote " + json);
        }
        if (cube != null || html != null) {
            SeverityCube d = ProfileAlgebra.diff(ca, cb);
            if (cube != null) {
                CubexWriter.write(d, cube);
                System.out.println("wrote " + cube);
            }
            if (html != null) {
                Map<String, String> facts = new LinkedHashMap<>();
                facts.put("A", report.minuend() + processes(report.minuendRanks()));
                facts.put("B", report.subtrahend() + processes(report.subtrahendRanks()));
                facts.put("Change", report.headline());
                if (report.collapsed()) {
                    facts.put("Processes", capitalised(report.systemNote()) + ".");
                }
                HtmlReport.of(d).difference(true).summary(facts)
                        .perProcessMeans(report.collapsed() ? perProcessMeans(ca, cb) : null)
                        .title("Straggler: " + CubeAttributes.describe(ca, "A") + " minus " + CubeAttributes.describe(cb, "B"))
                        .write(html);
                System.out.println("wrote " + html);
            }
        }
        return 0;
    }

    private static String processes(int n) {
        return n > 0 ? " (" + n + (n == 1 ? " process)" : " processes)") : "";
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** A − B with each run's sums divided by its processes; null when a run's process count is unknown. */
    private static SeverityCube perProcessMeans(SeverityCube a, SeverityCube b) {
        try {
            return ProfileAlgebra.diff(a, b, SystemMode.MEAN);
        } catch (IllegalArgumentException e) {
            return null; // a collapsed operand without a recorded rank count has no per-process mean
        }
    }
}
