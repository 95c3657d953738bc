package dev.straggler.trace.otf2;

/**
 * Something the reader skipped or could not represent, reported instead of silently dropped.
 *
 * @param file       the file concerned
 * @param location   OTF2 id of the location concerned, -1 for archive-wide issues
 * @param byteOffset where in the file, -1 when not tied to a position
 * @param eventsLost event records (of any type, as OTF2 counts them) that were not delivered because of it
 * @param outsideModel true for valid content that Straggler's model does not hold (an inter-communicator), false for
 *                     a damaged part that a lenient read skipped
 */
public record Otf2Warning(String file, long location, long byteOffset, long eventsLost, String message,
                          boolean outsideModel) implements java.io.Serializable {

    /** A damaged part that a lenient read skipped. */
    public Otf2Warning(String file, long location, long byteOffset, long eventsLost, String message) {
        this(file, location, byteOffset, eventsLost, message, false);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(file);
        if (byteOffset >= 0) {
            b.append(": byte offset ").append(byteOffset);
        }
        if (location >= 0) {
            b.append(" (location ").append(Long.toUnsignedString(location)).append(')');
        }
        b.append(": ").append(message);
        if (eventsLost > 0) {
            b.append(" [").append(eventsLost).append(" event records lost]");
        }
        return b.toString();
    }
}
