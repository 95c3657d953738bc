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

    @Override
    void close() throws IOException;
}
