package dev.straggler.replay;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceFormatException;
import dev.straggler.trace.TraceSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A malformed stream fails the replay with the trace, location and rank in the message. */
class ReadFailureTest {

    /** Delivers one batch of location 1, then reports it truncated. */
    private static TraceSource truncated(MemoryTrace inner) {
        return new TraceSource() {
            public TraceDefinitions definitions() {
                return inner.definitions();
            }

            public String origin() {
                return "broken.trace";
            }

            public LocationReader openLocation(int location) throws IOException {
                LocationReader r = inner.openLocation(location);
                if (location != 1) {
                    return r;
                }
                return new LocationReader() {
                    boolean first = true;

                    public boolean next(EventBatch b) throws IOException {
                        if (first) {
                            first = false;
                            return r.next(b);
                        }
                        throw new TraceFormatException("event 7: truncated record");
                    }

                    public void close() throws IOException {
                        r.close();
                    }
                };
            }

            public void close() {
            }
        };
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void truncatedLocationFailsNamingTraceAndLocation(boolean pipelined) {
        TraceBuilder b = new TraceBuilder(2);
        b.rank(0).enter(0, "main").leave(10);
        b.rank(1).enter(0, "main").leave(10);
        TraceSource s = truncated(b.build());
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> Replay.run(s, ReplayOptions.defaults().withThreads(2).withPipelined(pipelined)));
        assertTrue(e.getMessage().contains("broken.trace"), e.getMessage());
        assertTrue(e.getMessage().contains("location 1 (rank 1)"), e.getMessage());
        assertTrue(e.getMessage().contains("truncated record"), e.getMessage());
    }
}
