package dev.straggler.spark;

import dev.straggler.cli.Main;

import java.util.ArrayList;
import java.util.List;

/**
 * The entry point of {@code straggler-spark.jar} under spark-submit:
 * {@code spark-submit --class dev.straggler.spark.SubmitMain straggler-spark.jar TRACE [analyze options]} runs
 * {@code straggler analyze TRACE ... --engine spark} on the cluster spark-submit configured, with the same outputs
 * (terminal report, {@code --json}, {@code --cube}, {@code --html}, {@code --csv}) written by the driver. Root causes
 * are computed unless {@code --no-root-causes} is given, as {@code analyze} does.
 */
public final class SubmitMain {
    private SubmitMain() {
    }

    public static void main(String[] args) {
        System.exit(Main.run(commandLine(args)));
    }

    /**
     * The straggler command line a submission runs: {@code analyze ARGS --root-causes --engine spark}, leaving out
     * what ARGS already say ({@code --no-root-causes} or {@code --root-causes=false} turn root causes off). The flag is
     * spelt out rather than left to {@code analyze}'s default so that a submission asks for root causes whatever
     * version of the command line it runs.
     */
    static String[] commandLine(String[] args) {
        List<String> line = new ArrayList<>();
        line.add("analyze");
        line.addAll(List.of(args));
        if (line.stream().noneMatch(a -> a.equals("--root-causes") || a.startsWith("--root-causes=")
                || a.equals("--no-root-causes") || a.startsWith("--no-root-causes="))) {
            line.add("--root-causes");
        }
        if (line.stream().noneMatch(a -> a.equals("--engine") || a.startsWith("--engine="))) {
            line.add("--engine");
            line.add("spark");
        }
        return line.toArray(String[]::new);
    }
}
