package dev.straggler.trace;

import java.io.IOException;

/**
 * Input that cannot be trusted: truncated, malformed or inconsistent. The message always says where
 * (file, location, event index or byte offset), so the user can find the spot.
 */
public class TraceFormatException extends IOException {
    public TraceFormatException(String message) {
        super(message);
    }

    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
