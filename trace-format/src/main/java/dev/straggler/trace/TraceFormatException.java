package dev.straggler.trace;

import java.io.IOException;

/**
 * Input that cannot be trusted: truncated, malformed or inconsistent. The message always says where
 * (file, location, event index or byte offset), so the user can find the spot.
 */
public class TraceFormatException extends IOException {
    /** What a command that stopped here can add: reading leniently goes on past such damage. */
    public static final String LENIENT_HINT = "--lenient skips what cannot be trusted and says what it skipped";

    private boolean lenientSkips;

    public TraceFormatException(String message) {
        super(message);
    }

    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Marks this as damage that a lenient read skips (and lists) instead of stopping: a strict read that stops here
     * can say that {@code --lenient} would go on ({@link #LENIENT_HINT}). Damage no lenient read gets past (a
     * trace's definitions, say) is not marked.
     */
    public TraceFormatException lenientSkips() {
        lenientSkips = true;
        return this;
    }

    /** Whether a lenient read skips this damage ({@link #lenientSkips()}). */
    public boolean isSkippedByLenientReads() {
        return lenientSkips;
    }
}
