package dev.straggler.patterns.scaling;

import dev.straggler.patterns.cube.PathNames;

import java.util.List;

/**
 * Values of one (metric, call path) over several runs: {@code values[i]} was measured at {@code p[i]}; a process
 * count may repeat (repetitions).
 */
public record MeasurementSeries(String metric, List<String> callPath, double[] p, double[] values) {
    public MeasurementSeries {
        callPath = List.copyOf(callPath);
        if (p.length != values.length) {
            throw new IllegalArgumentException("process counts and values differ in length for " + metric + " " + callPath);
        }
    }

    /** "metric @ a/b/c", for reports. */
    public String label() {
        return callPath.isEmpty() ? metric : metric + " @ " + PathNames.join(callPath);
    }
}
