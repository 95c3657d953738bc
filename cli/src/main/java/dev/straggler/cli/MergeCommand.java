package dev.straggler.cli;

import dev.straggler.patterns.algebra.ProfileAlgebra;
import dev.straggler.patterns.cube.SeverityCube;
import picocli.CommandLine.Command;

import java.util.List;

@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Joins the metrics of several experiments into one cube (where two carry the same metric, the later wins).")
final class MergeCommand extends CubeAlgebraCommand {
    @Override
    String operation() {
        return "merge";
    }

    @Override
    SeverityCube combine(List<SeverityCube> cubes) {
        return ProfileAlgebra.merge(cubes);
    }
}

