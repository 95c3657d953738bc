package dev.straggler.trace;

import java.io.IOException;

/**
 * Receives a trace location by location. Events of a location must arrive in time order; locations may be
 * written interleaved and, for different locations, from different threads. Definitions arrive last, in
 * {@link #finish(TraceDefinitions)}, because generators and importers often learn them while writing.
 */
public interface TraceWriter extends AutoCloseable {

    /** Appends events {@code [0, batch.size)} to a location's stream. */
    void append(int location, EventBatch batch) throws IOException;

    /** Flushes everything and writes the definitions; the writer is unusable afterwards. */
    void finish(TraceDefinitions definitions) throws IOException;

    /** Releases resources; a writer closed without {@link #finish} leaves an incomplete (detectably invalid) trace. */
    @Override
    void close() throws IOException;
}
