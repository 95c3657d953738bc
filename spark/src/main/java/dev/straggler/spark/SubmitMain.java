package dev.straggler.spark;

import dev.straggler.cli.Main;

import java.util.ArrayList;
import java.util.List;

/**
 * The entry point of {@code straggler-spark.jar} under spark-submit:
 * {@code spark-submit --class dev.straggler.spark.SubmitMain straggler-spark.jar TRACE [analyze options]} runs
 * {@code straggler analyze TRACE ... --engine spark} on the cluster spark-submit configured, with the same outputs
 * (terminal report, {@code --json}, {@code --cube}, {@code --html}, {@code --csv}) written by the driver.
 */
public final class SubmitMain {
    private SubmitMain() {
    }

    public static void main(String[] args) {
        System.exit(Main.run(commandLine(args)));
    }

    /** The straggler command line a submission runs: {@code analyze ARGS --engine spark}. */
    static String[] commandLine(String[] args) {
        List<String> line = new ArrayList<>();
        line.add("analyze");
        line.addAll(List.of(args));
        if (line.stream().noneMatch(a -> a.equals("--engine") || a.startsWith("--engine="))) {
            line.add("--engine");
            line.add("spark");
        }
        return line.toArray(String[]::new);
    }
}
