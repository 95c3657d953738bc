package dev.straggler.cli;

import dev.straggler.patterns.algebra.ProfileAlgebra;
import dev.straggler.patterns.cube.SeverityCube;
import picocli.CommandLine.Command;

import java.util.List;

@Command(name = "mean", mixinStandardHelpOptions = true,
        description = "The element-wise mean of several experiments, typically repetitions of one run.")
final class MeanCommand extends CubeAlgebraCommand {
    @Override
    String operation() {
        return "mean";
    }

    @Override
    SeverityCube combine(List<SeverityCube> cubes) {
        return ProfileAlgebra.mean(cubes);
    }
}
