package dev.straggler.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.stream.IntStream;

/**
 * Runs one task per location on the common fork-join pool, the way whole-trace scans read locations
 * independently. An {@link IOException} from any task is rethrown as such (the first one seen), so callers keep
 * the file and position named in it.
 */
public final class ParallelLocations {

    /** Work on one location; may throw the reader's I/O errors. */
    @FunctionalInterface
    public interface Task {
        void run(int location) throws IOException;
    }

    private ParallelLocations() {
    }

    public static void forEach(int locations, Task task) throws IOException {
        try {
            IntStream.range(0, locations).parallel().forEach(l -> {
                try {
                    task.run(l);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
