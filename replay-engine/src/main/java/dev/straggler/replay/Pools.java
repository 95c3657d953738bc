package dev.straggler.replay;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** Fixed thread pools with named daemon threads. */
public final class Pools {
    private Pools() {
    }

    public static ExecutorService fixed(int threads, String name) {
        AtomicInteger n = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "straggler-" + name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }
}
