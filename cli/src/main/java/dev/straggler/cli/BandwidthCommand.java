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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "bandwidth", mixinStandardHelpOptions = true,
        description = "Bandwidth demand as Medya et al. define it, from runs at several process counts with the "
                + "bandwidth throttled: the completion-time increment CTI = (T_bw - T_100) / T_100 per "
                + "configuration, the bandwidth BW_CTI,p at which each reaches a given CTI (linear interpolation "
                + "between measured bandwidths), the demand constant DC = (BW_p1 / BW_p2) * sqrt(p2 / p1) averaged "
                + "over all pairs and CTIs, and BW_CTI,p' = BW_CTI,p* * DC * sqrt(p' / p*) predicted from the "
                + "largest configuration p*.%nTABLE: CSV rows tasks,bandwidth_percent,completion_time_s (one per "
                + "run; repeated runs are averaged).%nWith --from-traces, the table comes from the traces instead: "
                + "each trace (one per process count) is replayed on a network model at every --bandwidths level, "
                + "keeping its recorded computation and re-timing its communication (a Dimemas-style what-if "
                + "replay; no bandwidth throttling hardware needed). Without --link-bandwidth and --latency, both are "
                + "calibrated on the traces' own messages (the fastest recorded time of each size; "
                + "docs/bandwidth-demand.md).")
final class BandwidthCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(arity = "1..*", paramLabel = "INPUT",
            description = "TABLE (CSV: tasks,bandwidth_percent,completion_time_s) or, with --from-traces, traces.")
    List<Path> inputs = new ArrayList<>();

    @Option(names = "--from-traces", description = "INPUTs are traces (OTF2, store or text), replayed at each bandwidth level.")
    boolean fromTraces;

    @Option(names = "--bandwidths", split = ",", paramLabel = "PERCENT", defaultValue = "100,90,80,70,60,50,40,30,20,10",
            description = "--from-traces: bandwidth levels in percent of --link-bandwidth (default ${DEFAULT-VALUE}; 100 is always replayed).")
    List<Double> bandwidths = new ArrayList<>();

    @Option(names = "--link-bandwidth", paramLabel = "BYTES/S",
            description = "--from-traces: the network's full bandwidth, bytes per second (default: calibrated on "
                    + "the traces' recorded messages, else 1e9).")
    Double linkBandwidth;

    @Option(names = "--latency", paramLabel = "SECONDS",
            description = "--from-traces: latency per message or collective step (default: calibrated on the "
                    + "traces' recorded messages, else 2e-6).")
    Double latency;

    @Option(names = "--eager", paramLabel = "BYTES", defaultValue = "16384",
            description = "--from-traces: largest message sent eagerly; larger ones use rendezvous (default ${DEFAULT-VALUE}).")
    long eager;

    @Option(names = "--overhead", paramLabel = "SECONDS", defaultValue = "5e-7",
            description = "--from-traces: shortest duration of a communicating MPI call (default ${DEFAULT-VALUE}).")
    double overhead;

    @Option(names = "--table-out", paramLabel = "FILE.csv",
            description = "--from-traces: also write the replayed throttling table (the TABLE format).")
    Path tableOut;

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
        Ranges.processCounts("--predict", predict);
        String origin;
        List<BandwidthDemand.Measurement> rows;
        ThrottlingReplay.Table replayed = null;
        if (fromTraces) {
            checkNetwork();
            replayed = ThrottlingReplay.run(inputs, levels(), linkBandwidth, latency, eager, overhead, common);
            rows = replayed.measurements();
            origin = inputs.size() == 1 ? inputs.get(0).toString() : inputs.size() + " traces";
            System.out.print(replayed.text());
            System.out.println();
            if (tableOut != null) {
                Files.writeString(tableOut, replayed.csv(), StandardCharsets.UTF_8);
                System.out.println("wrote " + tableOut);
            }
        } else {
            if (inputs.size() != 1) {
                throw new IllegalArgumentException("bandwidth takes one TABLE (or traces with --from-traces), not "
                        + inputs.size() + " inputs");
            }
            Path table = inputs.get(0);
            origin = table.toString();
            if (Files.isDirectory(table)) {
                throw new IllegalArgumentException(table + ": a directory, not a CSV table (traces are read with "
                        + "--from-traces)");
            }
            // a missing file is reported by the command line as "TABLE: no such file"
            try (Reader r = Files.newBufferedReader(table, StandardCharsets.UTF_8)) {
                rows = BandwidthDemand.parse(r, table.toString());
            }
            if (rows.isEmpty()) {
                throw new IllegalArgumentException(table + ": no rows");
            }
        }
        BandwidthDemand.Result result;
        try {
            result = BandwidthDemand.analyse(rows, fractions, predict);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(origin + ": " + e.getMessage(), e);
        }
        String remedy = remedy(result);
        System.out.print(BandwidthReport.text(result, remedy));
        ObjectNode doc = BandwidthReport.json(result);
        if (replayed != null) {
            doc.set("whatIfReplay", replayed.json());
        }
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), doc);
            System.out.println("wrote " + json);
        }
        if (html != null) {
            HtmlPage page = new HtmlPage("Straggler: bandwidth demand", origin);
            if (replayed != null) {
                page.add(replayed.section());
            }
            page.add(new BandwidthSection(result, remedy)).write(html);
            System.out.println("wrote " + html);
        }
        return 0;
    }

    /**
     * When no configuration reaches any CTI: the options that would give demands. CTIs every configuration reaches
     * give values (and pairs for a demand constant) from the same runs; lower bandwidths may reach the CTIs asked.
     */
    private String remedy(BandwidthDemand.Result r) {
        if (r.noDemand() == null) {
            return null;
        }
        String lower = fromTraces
                ? "add levels below " + BandwidthReport.num(r.lowestBandwidth()) + " % with --bandwidths"
                : "measure bandwidths below " + BandwidthReport.num(r.lowestBandwidth()) + " %";
        double reach = 100 * r.commonReach();
        if (!(reach > 0)) {
            return lower;
        }
        // four evenly spaced CTIs on a 1-2-5 step, all within what every configuration reaches
        double raw = reach / 4;
        double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw >= 5 * decade ? 5 * decade : raw >= 2 * decade ? 2 * decade : decade;
        List<String> example = new ArrayList<>();
        for (int k = 1; k <= 4; k++) {
            example.add(BandwidthReport.num(k * step));
        }
        return "choose CTIs every configuration reaches, up to " + BandwidthReport.num(reach) + " %, with --cti (e.g. "
                + "--cti " + String.join(",", example) + "), or " + lower;
    }

    /** The bandwidth levels, 100 % always among them, highest first. */
    private List<Double> levels() {
        java.util.TreeSet<Double> set = new java.util.TreeSet<>(java.util.Comparator.reverseOrder());
        set.add(100.0);
        for (double b : bandwidths) {
            if (!(b > 0) || b > 100) {
                throw new IllegalArgumentException("--bandwidths takes percentages in (0, 100], not " + b);
            }
            set.add(b);
        }
        if (set.size() < 2) {
            throw new IllegalArgumentException("--bandwidths needs at least one level below 100 %");
        }
        return new ArrayList<>(set);
    }

    private void checkNetwork() {
        if (linkBandwidth != null && (!(linkBandwidth > 0) || Double.isInfinite(linkBandwidth))) {
            throw new IllegalArgumentException("--link-bandwidth takes bytes per second above 0, not " + linkBandwidth);
        }
        if (latency != null && (!(latency >= 0) || latency > 1)) {
            throw new IllegalArgumentException("--latency takes seconds in [0, 1], not " + latency);
        }
        if (!(overhead >= 0) || overhead > 1) {
            throw new IllegalArgumentException("--overhead takes seconds in [0, 1], not " + overhead);
        }
        if (eager < 0) {
            throw new IllegalArgumentException("--eager takes a size in bytes >= 0, not " + eager);
        }
    }
}
