package dev.straggler.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Runs one task per index on a fixed pool and hands results back in index order, so that whatever is done with
 * them (merging, summing) happens in the same order for any thread count: the basis of deterministic output.
 */
public final class Parallel {
    private Parallel() {
    }

    /** A task that may fail with a checked exception. */
    @FunctionalInterface
    public interface Task<T> {
        T run(int index) throws Exception;
    }

    /** A consumer of results, called on the calling thread in index order. */
    @FunctionalInterface
    public interface Sink<T> {
        void accept(int index, T result) throws Exception;
    }

    /** Runs {@code task(i)} for every {@code i < n} and returns the results in index order. */
    public static <T> List<T> map(ExecutorService pool, int n, Task<T> task) throws IOException {
        List<T> out = new ArrayList<>(n);
        forEachOrdered(pool, n, Integer.MAX_VALUE, task, (i, r) -> out.add(r));
        return out;
    }

    /**
     * Runs the tasks with at most {@code window} results outstanding (finished or running, not yet consumed),
     * and passes each result to {@code sink} in index order on the calling thread. Bounding the window bounds
     * the memory held by results that finished early.
     *
     * @throws IOException the failure of the lowest-index failing task (other tasks are cancelled)
     */
    public static <T> void forEachOrdered(ExecutorService pool, int n, int window, Task<T> task, Sink<T> sink)
            throws IOException {
        Deque<Future<T>> inFlight = new ArrayDeque<>();
        int next = 0;
        try {
            for (int consumed = 0; consumed < n; consumed++) {
                while (next < n && inFlight.size() < Math.max(1, window)) {
                    final int i = next++;
                    inFlight.add(pool.submit(() -> task.run(i)));
                }
                T r = inFlight.removeFirst().get();
                sink.accept(consumed, r);
            }
        } catch (ExecutionException e) {
            inFlight.forEach(f -> f.cancel(true));
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            inFlight.forEach(f -> f.cancel(true));
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (IOException | RuntimeException e) {
            inFlight.forEach(f -> f.cancel(true));
            throw e;
        } catch (Exception e) {
            inFlight.forEach(f -> f.cancel(true));
            throw new IOException(e.getMessage(), e);
        }
    }

    private static IOException rethrow(Throwable t) {
        if (t instanceof IOException io) {
            return io;
        }
        if (t instanceof UncheckedIOException u) {
            return u.getCause();
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IOException(t.getMessage(), t);
    }
}
