package dev.straggler.replay;

/**
 * Receives progress of a long analysis. Called from worker threads, possibly concurrently, so implementations
 * must be thread-safe and cheap; {@code done} never decreases within a phase.
 */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = (phase, done, total) -> {
    };

    /**
     * @param phase short name of the stage ("read", "patterns", ...)
     * @param done  units finished in this phase (events for "read", locations otherwise)
     * @param total units in the phase, -1 when unknown
     */
    void update(String phase, long done, long total);
}
