package dev.straggler.cli;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexReader;
import dev.straggler.patterns.reduce.CallTreeProfile;
import dev.straggler.patterns.reduce.CubeProfiles;
import dev.straggler.patterns.reduce.FilterFiles;
import dev.straggler.patterns.reduce.ReductionOptions;
import dev.straggler.patterns.reduce.ReductionPlan;
import dev.straggler.patterns.reduce.ReductionPlanner;
import dev.straggler.patterns.reduce.RegionStatistics;
import dev.straggler.patterns.reduce.ScoreReport;
import dev.straggler.patterns.reduce.SizeModel;
import dev.straggler.patterns.reduce.TauReduceRules;
import dev.straggler.patterns.reduce.TraceProfiler;
import dev.straggler.patterns.reduce.WaitStates;
import dev.straggler.patterns.report.AnalysisJson;
import dev.straggler.trace.TraceSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

@Command(name = "include-list", mixinStandardHelpOptions = true,
        description = "Proposes what to record in the next run: classifies regions like scorep-score (MPI, COM:  leads "
                + "to MPI, USR: never communicates), estimates the trace size per region, and writes a Score-P  "
                + "filter file or a TAU selective instrumentation file that keeps MPI and every function on a path  "
                + "to communication and drops the short user functions that fill the trace.%nInput: a trace, or a "
                + "call-path profile: a .cubex with visits and time (Score-P's profile.cubex, a  Scalasca or "
                + "Straggler analysis) or a Straggler analysis .json.%nExit codes:%n 0:done 1:error (unreadable "
                + "input, bad rule or filter file) 2:wrong arguments 3:the --budget is out of reach; the file holds "
                + "the largest reduction the policy allows")
final class IncludeListCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Parameters(index = "0", paramLabel = "TRACE|PROFILE")
    Path input;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the filter file here (without it only the table is printed).")
    Path output;

    @Option(names = "--format", defaultValue = "scorep", paramLabel = "scorep|tau",
            description = "Filter file format: Score-P filter file (default) or TAU selective instrumentation file.")
    String format;

    @Option(names = "--list", defaultValue = "exclude", paramLabel = "exclude|include",
            description = "Write the dropped functions (default), or the kept user functions with everything else dropped.")
    String list;

    @Option(names = "--rule", paramLabel = "RULE",
            description = "A tau_reduce rule, e.g. 'numcalls > 1000000 & usecs/call < 2' (repeatable; rules are OR-ed). Replaces the default criterion.")
    List<String> rules = new ArrayList<>();

    @Option(names = "--rules", paramLabel = "FILE", description = "A tau_reduce rule file (one rule per line).")
    Path rulesFile;

    @Option(names = "--tau-reduce-default", description = "Use tau_reduce's default rule: " + TauReduceRules.DEFAULT_RULE + ".")
    boolean tauDefault;

    @Option(names = "--policy", defaultValue = "paper", paramLabel = "paper|short-functions",
            description = "Which user functions that never communicate are dropped: all of them, as the TAU/KOJAK paper's "
                    + "include lists did (default), or only the short ones that weigh in the trace (scorep-score's proposal). "
                    + "--rule/--rules/--tau-reduce-default replace either.")
    String policy;

    @Option(names = "--keep-causes", paramLabel = "PERCENT",
            description = "Also keep every function whose delay costs (root causes of wait states) reach this share of all "
                    + "delay costs, so that the reduced trace still explains why; analyses the trace with root causes, or "
                    + "reads them from --analysis.")
    Double keepCauses;

    @Option(names = "--short-call", defaultValue = "1", paramLabel = "US",
            description = "Short-function policy: a USR function is short below this inclusive time per visit, µs (default ${DEFAULT-VALUE}).")
    double shortCall;

    @Option(names = "--min-share", defaultValue = "1", paramLabel = "PERCENT",
            description = "Short-function policy: a short function is dropped when it causes at least this share of the largest rank's bytes (default ${DEFAULT-VALUE} %%).")
    double minShare;

    @Option(names = "--budget", paramLabel = "SIZE",
            description = "Make the trace fit this size (e.g. 4GB, 512MiB; K/M/G are powers of 1024): drop more functions, cheapest to lose first.")
    String budget;

    @Option(names = "--budget-per-rank", description = "The budget bounds the largest rank (scorep-score's max_buf) instead of the whole trace.")
    boolean budgetPerRank;

    @Option(names = "--keep", paramLabel = "NAME", description = "Never drop this function (repeatable).")
    List<String> keep = new ArrayList<>();

    @Option(names = "--apply", paramLabel = "FILTER",
            description = "Only evaluate an existing Score-P filter file or TAU list (like scorep-score -f).")
    Path apply;

    @Option(names = "--analysis", paramLabel = "CUBEX|JSON",
            description = "An analysis of the same run (Straggler .json or .cubex, Scalasca .cubex): a budget then keeps apart only the call paths with wait states; without it (or --analyze) every MPI call path is kept apart.")
    Path analysis;

    @Option(names = "--analyze", description = "Run the wait-state analysis on the trace to find the call paths with wait states (see --analysis).")
    boolean analyze;

    @Option(names = "--size-model", paramLabel = "records|scorep",
            description = "Count bytes as the trace's OTF2 records (default for a trace) or as scorep-score estimates them (always for a profile).")
    String sizeModel;

    @Option(names = "--program-arguments", defaultValue = "0", paramLabel = "N",
            description = "Arguments the program was run with; scorep-score's estimate charges them to ProgramBegin (default ${DEFAULT-VALUE}).")
    int programArguments;

    @Option(names = {"-r", "--regions"}, description = "List every region (flt: + dropped, - kept), like scorep-score -r.")
    boolean regions;

    @Option(names = "--explain", description = "Say why each user function is kept or dropped.")
    boolean explain;

    private void checkRanges() {
        Ranges.between("--short-call", shortCall, 0, 1e12);
        Ranges.between("--min-share", minShare, 0, 100);
        Ranges.between("--program-arguments", programArguments, 0, Integer.MAX_VALUE);
    }

    @Override
    public Integer call() throws IOException {
        checkRanges();
        if (analyze && analysis != null) {
            throw new IllegalArgumentException("give either --analysis or --analyze, not both");
        }
        CallTreeProfile profile = profile();
        if (profile.anomalyCount() > 0) {
            System.err.println("straggler: " + profile.anomalyCount() + " malformed event(s) skipped while profiling:");
            profile.anomalies().forEach(a -> System.err.println("  " + a));
        }
        SizeModel model = sizeModel == null ? (profile.knowsRecords() ? SizeModel.RECORDS : SizeModel.SCOREP)
                : switch (sizeModel.toLowerCase(Locale.ROOT)) {
                    case "records" -> SizeModel.RECORDS;
                    case "scorep" -> SizeModel.SCOREP;
                    default -> throw new IllegalArgumentException("--size-model must be records or scorep, not '" + sizeModel + "'");
                };
        RegionStatistics stats = RegionStatistics.of(profile, model, programArguments);
        ReductionPlan plan;
        if (apply != null) {
            plan = ReductionPlanner.evaluate(stats, FilterFiles.read(apply), apply.toString());
        } else {
            boolean[] carries = analysis != null ? WaitStates.fromCube(cube(analysis), profile)
                    : analyze ? WaitStates.fromCube(analyzeInput(), profile) : WaitStates.possible(stats);
            plan = ReductionPlanner.plan(stats, options(), carries);
        }
        System.out.print(ScoreReport.format(plan, regions));
        if (explain) {
            System.out.println();
            for (ReductionPlan.Decision d : plan.decisions()) {
                if (d.type().filterable()) {
                    System.out.printf("%s %-8s %s: %s%n", d.excluded() ? "+" : "-", d.type(), d.name(), d.reason());
                }
            }
        }
        if (output != null) {
            FilterFiles.Format f = switch (format.toLowerCase(Locale.ROOT)) {
                case "scorep" -> FilterFiles.Format.SCOREP;
                case "tau" -> FilterFiles.Format.TAU;
                default -> throw new IllegalArgumentException("--format must be scorep or tau, not '" + format + "'");
            };
            FilterFiles.ListKind k = switch (list.toLowerCase(Locale.ROOT)) {
                case "exclude" -> FilterFiles.ListKind.EXCLUDE;
                case "include" -> FilterFiles.ListKind.INCLUDE;
                default -> throw new IllegalArgumentException("--list must be exclude or include, not '" + list + "'");
            };
            String comment = String.format(Locale.ROOT, "Written by straggler include-list from %s%n"
                            + "%,d of %,d regions dropped; estimated events %,d -> %,d, bytes %,d -> %,d (largest rank %,d -> %,d)",
                    input, plan.excludedNames().size(), plan.decisions().size(), plan.before().events(),
                    plan.after().events(), plan.before().bytes(), plan.after().bytes(), plan.before().maxBytes(),
                    plan.after().maxBytes());
            Files.writeString(output, FilterFiles.write(plan, f, k, comment), StandardCharsets.UTF_8);
            System.out.printf("%nwrote %s (%s %s list, %d entries)%n", output, f.name().toLowerCase(Locale.ROOT),
                    k.name().toLowerCase(Locale.ROOT), k == FilterFiles.ListKind.EXCLUDE ? plan.excludedNames().size()
                            : plan.decisions().stream().filter(d -> !d.excluded() && d.type().filterable()).count());
        }
        return plan.budgetMet() ? 0 : 3;
    }

    private boolean profileInput() {
        String n = input.getFileName().toString();
        return n.endsWith(".cubex") || n.endsWith(".json");
    }

    /** A Cube file, or a Straggler analysis document. */
    private static SeverityCube cube(Path p) throws IOException {
        return p.getFileName().toString().endsWith(".json") ? AnalysisJson.read(p).cube() : CubexReader.read(p);
    }

    private SeverityCube analyzeInput() throws IOException {
        if (profileInput()) {
            throw new IllegalArgumentException("--analyze needs a trace; " + input + " is a profile (use --analysis)");
        }
        try (TraceSource src = Inputs.open(input, common)) {
            return Analysis.run(src, AnalysisOptions.defaults()).cube();
        }
    }

    private CallTreeProfile profile() throws IOException {
        if (profileInput()) {
            return CubeProfiles.fromCube(cube(input), input.toString());
        }
        try (TraceSource src = Inputs.open(input, common)) {
            try {
                return TraceProfiler.profile(src);
            } finally {
                Inputs.reportSkipped(src);
            }
        }
    }

    private ReductionOptions options() throws IOException {
        ReductionOptions.Policy p = switch (policy.toLowerCase(Locale.ROOT)) {
            case "paper" -> ReductionOptions.Policy.PAPER;
            case "short-functions", "short" -> ReductionOptions.Policy.SHORT_FUNCTIONS;
            default -> throw new IllegalArgumentException("--policy must be paper or short-functions, not '" + policy + "'");
        };
        ReductionOptions o = ReductionOptions.defaults().withPolicy(p).withShortCall(shortCall, minShare / 100)
                .withKeep(Set.copyOf(keep));
        if (keepCauses != null) {
            o = o.withCauses(causes(keepCauses));
        }
        List<String> lines = new ArrayList<>(rules);
        if (tauDefault) {
            lines.add(TauReduceRules.DEFAULT_RULE);
        }
        if (rulesFile != null) {
            lines.add(Files.readString(rulesFile, StandardCharsets.UTF_8));
        }
        if (!lines.isEmpty()) {
            String origin = rulesFile != null && rules.isEmpty() && !tauDefault ? rulesFile.toString() : "rules";
            o = o.withRules(TauReduceRules.parse(String.join("\n", lines), origin));
        }
        if (budget != null) {
            o = o.withBudget(parseSize(budget), budgetPerRank);
        }
        return o;
    }

    /**
     * The functions whose delay costs (metric {@code delay}: short- and long-term, all wait-state kinds) reach
     * {@code percent} of all delay costs, by region name.
     */
    private Map<String, String> causes(double percent) throws IOException {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("--keep-causes must be a percentage within 0..100, not " + percent);
        }
        SeverityCube c;
        if (analysis != null) {
            c = cube(analysis);
        } else if (profileInput()) {
            throw new IllegalArgumentException("--keep-causes needs a trace or an --analysis with root causes");
        } else {
            try (TraceSource src = Inputs.open(input, common)) {
                c = Analysis.run(src, AnalysisOptions.defaults().withRootCauses(true)).cube();
            }
        }
        Map<String, String> out = dev.straggler.patterns.reduce.CauseFunctions.of(c, percent);
        if (c.metricIndex("delay") < 0 || c.total("delay") <= 0) {
            System.err.println("straggler: warning: " + (analysis != null ? analysis : input)
                    + " has no delay costs; --keep-causes keeps nothing more");
        }
        return out;
    }

    private static final Pattern SIZE = Pattern.compile("(?i)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kmgtp]?)(i?b)?\\s*");

    /** A byte count such as {@code 4GB}, {@code 512MiB} or {@code 1000}; K, M, G, T, P are powers of 1024. */
    static long parseSize(String s) {
        Matcher m = SIZE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a size (examples: 4GB, 512MiB, 100000)");
        }
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        int power = unit.isEmpty() ? 0 : "kmgtp".indexOf(unit) + 1;
        return (long) (Double.parseDouble(m.group(1)) * Math.pow(1024, power));
    }
}
