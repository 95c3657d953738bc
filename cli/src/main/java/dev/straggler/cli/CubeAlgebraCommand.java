package dev.straggler.cli;

import dev.straggler.patterns.algebra.Operands;
import dev.straggler.patterns.algebra.ProfileAlgebra;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cubex.CubexWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code merge} and {@code mean}: N experiments into one cube, differing only in the algebra operation. */
abstract class CubeAlgebraCommand implements Callable<Integer> {
    @Mixin
    ReadingOptions common;

    @Mixin
    RootCauseOption rootCauses;

    @Parameters(arity = "2..*", paramLabel = "EXP", description = ".cubex files, analysis JSON documents or traces.")
    List<Path> operands;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.cubex", description = "The resulting cube.")
    Path output;

    abstract SeverityCube combine(List<SeverityCube> cubes);

    /** The operation's name for messages: "merge" or "mean". */
    abstract String operation();

    /**
     * Experiments of different sizes are combined location by location: a rank that only some have contributes
     * zeros (mean) or only its own metrics (merge) there. That is rarely what was meant, so it is said.
     */
    private void warnOnDifferentRanks(List<SeverityCube> cubes) {
        java.util.Map<Integer, List<String>> byRanks = new java.util.TreeMap<>();
        for (int i = 0; i < cubes.size(); i++) {
            byRanks.computeIfAbsent(dev.straggler.patterns.algebra.CubeAttributes.ranks(cubes.get(i)),
                    k -> new ArrayList<>()).add(operands.get(i).toString());
        }
        if (byRanks.size() > 1) {
            StringBuilder b = new StringBuilder();
            byRanks.forEach((r, names) -> b.append(b.length() == 0 ? "" : "; ").append(r).append(" ranks: ")
                    .append(String.join(", ", names)));
            System.err.println("straggler: warning: " + operation() + " of experiments with different numbers of ranks ("
                    + b + "): locations are combined rank by rank, so ranks missing from an experiment "
                    + (operation().equals("mean") ? "count as zero in the mean" : "keep only the metrics of the others"));
        }
    }

    @Override
    public Integer call() throws IOException {
        List<SeverityCube> cubes = new ArrayList<>();
        for (Path p : operands) {
            cubes.add(Inputs.operand(p, rootCauses.options(), common).cube());
        }
        warnOnDifferentRanks(cubes);
        CubexWriter.write(combine(cubes), output);
        System.out.println("wrote " + output);
        return 0;
    }
}
