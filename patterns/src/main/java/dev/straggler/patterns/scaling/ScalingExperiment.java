package dev.straggler.patterns.scaling;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One run of the application as the rank-correlation analysis sees it.
 *
 * @param label             what the run is called in reports (file name, "p=64 #2")
 * @param tasks             number of MPI tasks (processes)
 * @param times             aggregate time (seconds, summed over ranks) per key: a callsite, or a (pattern, call
 *                          path); a key missing here took no time in this run
 * @param communicationTime the aggregate the times are divided by: all time in MPI for callsites
 *                          (Vetter &amp; McCracken), a run's MPI time for wait states
 */
public record ScalingExperiment(String label, int tasks, Map<String, Double> times, double communicationTime) {
    public ScalingExperiment {
        Objects.requireNonNull(label, "label");
        if (tasks <= 0) {
            throw new IllegalArgumentException(label + ": number of tasks must be positive, not " + tasks);
        }
        times = Collections.unmodifiableMap(new LinkedHashMap<>(times));
    }

    /** A key's share of the communication time; 0 when the key is absent or there was no communication. */
    public double share(String key) {
        Double t = times.get(key);
        return t == null || communicationTime <= 0 ? 0 : t / communicationTime;
    }
}
