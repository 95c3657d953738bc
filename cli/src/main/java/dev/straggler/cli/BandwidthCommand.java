package dev.straggler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.straggler.cli.report.BandwidthSection;
import dev.straggler.cli.report.HtmlPage;
import dev.straggler.patterns.scaling.BandwidthDemand;
import dev.straggler.patterns.scaling.BandwidthReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "bandwidth", mixinStandardHelpOptions = true,
        description = {"Bandwidth demand as Medya et al. define it, from runs at several process counts with the",
                "bandwidth throttled: the completion-time increment CTI = (T_bw - T_100) / T_100 per configuration,",
                "the bandwidth BW_CTI,p at which each reaches a given CTI (linear interpolation between measured",
                "bandwidths), the demand constant DC = (BW_p1 / BW_p2) * sqrt(p2 / p1) averaged over all pairs and",
                "CTIs, and BW_CTI,p' = BW_CTI,p* * DC * sqrt(p' / p*) predicted from the largest configuration p*.",
                "TABLE: CSV rows tasks,bandwidth_percent,completion_time_s (one per run; repeated runs are averaged)."})
final class BandwidthCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Parameters(index = "0", paramLabel = "TABLE", description = "CSV: tasks,bandwidth_percent,completion_time_s.")
    Path table;

    @Option(names = "--cti", split = ",", paramLabel = "PERCENT", defaultValue = "8,11,14,17,20",
            description = "Completion-time increments in percent (default ${DEFAULT-VALUE}).")
    List<Double> ctis = new ArrayList<>();

    @Option(names = "--predict", split = ",", paramLabel = "P", description = "Process counts to predict the demand for.")
    int[] predict = new int[0];

    @Option(names = "--json", paramLabel = "FILE", description = "Write the analysis as JSON (schema straggler.bandwidth/1).")
    Path json;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write the curves and tables as an HTML page.")
    Path html;

    @Override
    public Integer call() throws IOException {
        List<Double> fractions = new ArrayList<>();
        for (double c : ctis) {
            if (!(c > 0) || c > 1000) {
                throw new IllegalArgumentException("--cti takes increments in percent above 0, not " + c);
            }
            fractions.add(c / 100);
        }
        for (int p : predict) {
            if (p <= 0) {
                throw new IllegalArgumentException("--predict takes positive process counts, not " + p);
            }
        }
        List<BandwidthDemand.Measurement> rows;
        try (Reader r = Files.newBufferedReader(table, StandardCharsets.UTF_8)) {
            rows = BandwidthDemand.parse(r, table.toString());
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(table + ": no such file");
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(table + ": no rows");
        }
        BandwidthDemand.Result result;
        try {
            result = BandwidthDemand.analyse(rows, fractions, predict);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(table + ": " + e.getMessage(), e);
        }
        System.out.print(BandwidthReport.text(result));
        ObjectNode doc = BandwidthReport.json(result);
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), doc);
            System.out.println("wrote " + json);
        }
        if (html != null) {
            new HtmlPage("Straggler: bandwidth demand", table.toString()).add(new BandwidthSection(result)).write(html);
            System.out.println("wrote " + html);
        }
        return 0;
    }
}
