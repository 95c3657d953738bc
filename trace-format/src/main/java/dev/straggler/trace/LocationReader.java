package dev.straggler.trace;

import java.io.IOException;

/**
 * Streams the events of one location in time order, batch by batch.
 *
 * <p>Each call to {@link #next(EventBatch)} overwrites the batch with the following events (at least one)
 * and sets {@link EventBatch#firstIndex}; it returns false, leaving the batch empty, once the stream is
 * exhausted. A reader is used by one thread; readers of different locations may run concurrently.
 */
public interface LocationReader extends AutoCloseable {

    /** @throws TraceFormatException when the underlying data is truncated or malformed */
    boolean next(EventBatch batch) throws IOException;

    /**
     * The regions open at this reader's starting position, outermost first: what a stack gives that pushes on
     * every ENTER and pops on every LEAVE (a LEAVE on an empty stack is ignored) over all events of the location
     * before the first one this reader delivers. Empty for a reader opened at the location's start; a reader from
     * {@link TraceSource#openLocation(int, long)} overrides it. May read ahead, so call it before {@link #next}
     * or after, as convenient; the answer does not change.
     */
    default int[] openRegions() throws IOException {
        return new int[0];
    }

    /**
     * The source's own records consumed so far, for a source whose records are not the events it delivers (an OTF2
     * event file also holds records outside the model, such as metrics); -1 when it counts none of its own.
     */
    default long recordsRead() {
        return -1;
    }

    @Override
    void close() throws IOException;
}
