package dev.straggler.cli;

import dev.straggler.testdata.GeneratedTrace;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.ScalingFamily;
import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.Scenarios;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;
import dev.straggler.trace.text.TextTraceWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "generate", mixinStandardHelpOptions = true,
        description = "Simulates an MPI program with known wait states and writes its trace.%nScaling families "
                + "(bt-like, gyro-like, ...) write one experiment per process count into the output directory.")
final class GenerateCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Option(names = "--list", description = "List the scenarios with their parameters.")
    boolean list;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO")
    String scenario;

    @Option(names = {"-n", "--ranks"}, split = ",", paramLabel = "N",
            description = "Number of ranks; for a scaling family a comma-separated list of process counts (default: the family's).")
    List<Integer> ranks = new ArrayList<>();

    @Option(names = {"-p", "--param"}, paramLabel = "K=V", description = "Scenario parameter (repeatable); see --list.")
    List<String> params = new ArrayList<>();

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--repetitions", defaultValue = "1", description = "Scaling families: runs per process count (default ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT",
            description = "Store directory to create; a file ending in .txt writes the text format instead.")
    Path output;

    @Option(names = "--expected", description = "Also write the closed-form expected severities as OUT.expected.json.")
    boolean expected;

    /** The simulator keeps every rank's state and event buffer in memory; beyond this it needs more than a laptop. */
    static final int MAX_RANKS = 65_536;

    @Override
    public Integer call() throws IOException {
        if (list) {
            printList();
            return 0;
        }
        if (scenario == null || output == null) {
            throw new IllegalArgumentException("generate needs a SCENARIO and -o OUT (or --list)");
        }
        for (int n : ranks) {
            Ranges.between("--ranks", n, 1, MAX_RANKS);
        }
        Ranges.between("--repetitions", repetitions, 1, 1000);
        Scenario s = Scenarios.byName(scenario);
        Map<String, String> values = ScenarioParams.parseAssignments(params);
        // parameters are checked (closed form only) before anything is written, so a bad one leaves no output behind
        for (int n : ranks.isEmpty() ? List.of(Math.max(4, s.minRanks())) : ranks) {
            s.expected(new ScenarioParams(n, seed, values));
        }
        if (s.scalingFamily()) {
            Files.createDirectories(output);
            List<ScalingFamily.Run> runs = ScalingFamily.generate(s, ranks, repetitions, seed, values,
                    (name, p, rep) -> StoreWriter.create(output.resolve(name), StoreOptions.defaults()));
            for (ScalingFamily.Run r : runs) {
                if (expected) {
                    r.trace().expected().write(output.resolve(r.name() + ".expected.json"));
                }
                System.out.printf("%s: %d ranks, %,d events -> %s%n", r.name(), r.processes(), r.trace().events(),
                        output.resolve(r.name()));
            }
            return 0;
        }
        if (ranks.size() > 1) {
            throw new IllegalArgumentException(s.name() + " is not a scaling family: give one --ranks value");
        }
        ScenarioParams p = new ScenarioParams(ranks.isEmpty() ? Math.max(4, s.minRanks()) : ranks.get(0), seed, values);
        GeneratedTrace g;
        if (output.getFileName().toString().endsWith(".txt")) {
            MemoryTrace m = new MemoryTrace(s.name());
            g = s.generate(p, m);
            try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                TextTraceWriter.write(m, w);
            }
        } else {
            try (StoreWriter w = StoreWriter.create(output, StoreOptions.defaults())) {
                g = s.generate(p, w);
            }
        }
        if (expected) {
            g.expected().write(expectedPath(output));
        }
        System.out.printf("%s: %d ranks, %,d events -> %s%s%n", s.name(), p.ranks(), g.events(), output,
                expected ? " (+ " + expectedPath(output).getFileName() + ")" : "");
        return 0;
    }

    static Path expectedPath(Path output) {
        String n = output.getFileName().toString();
        if (n.endsWith(".txt")) {
            n = n.substring(0, n.length() - 4);
        }
        return output.resolveSibling(n + ".expected.json");
    }

    /**
     * The scenarios with their own parameters; the network and clock parameters every scenario has are listed once,
     * at the end, and under a scenario only where its default differs.
     */
    private static void printList() {
        List<ParamSpec> common = Scenarios.all().get(0).parameters().stream()
                .filter(ps -> Scenarios.all().stream().allMatch(s -> s.parameters().stream()
                        .anyMatch(q -> q.name().equals(ps.name()))))
                .toList();
        java.util.Set<String> commonNames = new java.util.HashSet<>();
        common.forEach(ps -> commonNames.add(ps.name()));
        java.util.Map<String, String> usual = new java.util.HashMap<>();
        for (ParamSpec ps : common) {
            // the default most scenarios share is the usual one
            usual.put(ps.name(), Scenarios.all().stream().flatMap(s -> s.parameters().stream())
                    .filter(q -> q.name().equals(ps.name())).map(ParamSpec::defaultValue)
                    .collect(java.util.stream.Collectors.groupingBy(v -> v, java.util.stream.Collectors.counting()))
                    .entrySet().stream().max(java.util.Map.Entry.comparingByValue()).orElseThrow().getKey());
        }
        for (Scenario s : Scenarios.all()) {
            System.out.printf("%-24s %s%s%n", s.name(), s.scalingFamily() ? "[scaling family] " : "", s.description());
            for (ParamSpec ps : s.parameters()) {
                boolean own = !commonNames.contains(ps.name());
                if (own || !ps.defaultValue().equals(usual.get(ps.name()))) {
                    System.out.printf("    %-22s = %-10s %s%n", ps.name(), ps.defaultValue(), ps.description());
                }
            }
        }
        System.out.println();
        System.out.println("Parameters of every scenario (network model and clock errors), with their usual defaults:");
        for (ParamSpec ps : common) {
            System.out.printf("    %-22s = %-10s %s%n", ps.name(), usual.get(ps.name()), ps.description());
        }
    }
}
