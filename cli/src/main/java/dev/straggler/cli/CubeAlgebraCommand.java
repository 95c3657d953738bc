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

    @Override
    public Integer call() throws IOException {
        List<SeverityCube> cubes = new ArrayList<>();
        for (Path p : operands) {
            cubes.add(Inputs.operand(p, rootCauses.options(), common).cube());
        }
        CubexWriter.write(combine(cubes), output);
        System.out.println("wrote " + output);
        return 0;
    }
}
