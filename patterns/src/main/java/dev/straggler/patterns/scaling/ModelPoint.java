package dev.straggler.patterns.scaling;

/**
 * A run as the scaling models see it: wall-clock-like times per process (aggregates divided by the number of
 * processes), split into computation and communication.
 *
 * @param total         time per process
 * @param computation   time per process outside MPI
 * @param communication time per process inside MPI
 */
public record ModelPoint(String label, int tasks, double total, double computation, double communication) {
    public ModelPoint {
        if (tasks <= 0) {
            throw new IllegalArgumentException(label + ": number of tasks must be positive, not " + tasks);
        }
    }
}
