package dev.straggler.spark;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The tasks of the root-cause replay run their message passing to its end: the end is declared only when every
 * message sent has been received and handled, and locations still blocked then are reported, in task order. Four
 * tasks on threads of this JVM, connected over loopback as executors are.
 */
class MeshTest {
    /** Runs one worker per task until the mesh says it ended; returns each task's end. */
    private static List<Mesh.End> run(int tasks, IntFunction<Mesh.Worker> workers) throws Exception {
        return run(tasks, null, workers);
    }

    /** What a task does with the mesh before it runs its worker (an {@link Mesh#exchange}). */
    private interface Before {
        void apply(int self, Mesh mesh) throws Exception;
    }

    private static List<Mesh.End> run(int tasks, Before before, IntFunction<Mesh.Worker> workers) throws Exception {
        String[] gathered = new String[tasks];
        CyclicBarrier barrier = new CyclicBarrier(tasks);
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        try {
            List<Future<Mesh.End>> ends = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                int self = t;
                ends.add(pool.submit(() -> {
                    Mesh.Rendezvous r = new Mesh.Rendezvous() {
                        @Override
                        public String[] allGather(String message) throws IOException {
                            try {
                                gathered[self] = message;
                                barrier.await();
                                String[] all = gathered.clone();
                                barrier.await();
                                return all;
                            } catch (InterruptedException | BrokenBarrierException e) {
                                throw new IOException(e);
                            }
                        }

                        @Override
                        public void checkKilled() {
                        }
                    };
                    try (Mesh mesh = new Mesh(self, tasks, "127.0.0.1", r)) {
                        if (before != null) {
                            before.apply(self, mesh);
                        }
                        return mesh.run(workers.apply(self));
                    }
                }));
            }
            List<Mesh.End> out = new ArrayList<>();
            for (Future<Mesh.End> f : ends) {
                out.add(f.get(60, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A worker that never leaves a location waiting. */
    private abstract static class Unblocked implements Mesh.Worker {
        @Override
        public int blockedCount() {
            return 0;
        }

        @Override
        public List<String> blocked() {
            return List.of();
        }
    }

    private static byte[] number(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    @Test
    void aTokenPassedAroundTheTasksEndsOnlyAfterItsLastHop() throws Exception {
        int tasks = 4;
        int hops = 2_000;
        AtomicLong handled = new AtomicLong();
        List<Mesh.End> ends = run(tasks, self -> new Unblocked() {
            long token = self == 0 ? 0 : -1;

            @Override
            public byte[][] step() {
                byte[][] out = new byte[tasks][];
                if (token >= 0 && token < hops) {
                    out[(self + 1) % tasks] = number(token + 1);
                }
                token = -1;
                return out;
            }

            @Override
            public void receive(byte[] data) {
                token = ByteBuffer.wrap(data).getLong();
                handled.incrementAndGet();
            }
        });
        assertEquals(hops, handled.get());
        assertEquals(hops, ends.stream().mapToLong(Mesh.End::sent).sum());
        ends.forEach(e -> assertEquals(0, e.blocked()));
    }

    @Test
    void manyMessagesUnderWayAtOnceAreAllHandledBeforeTheEnd() throws Exception {
        int tasks = 4;
        AtomicLong sent = new AtomicLong();
        AtomicLong handled = new AtomicLong();
        run(tasks, self -> new Unblocked() {
            final SplittableRandom random = new SplittableRandom(self);
            final List<Long> pending = new ArrayList<>();
            boolean started;

            @Override
            public byte[][] step() {
                byte[][] out = new byte[tasks][];
                List<Long> send = new ArrayList<>();
                if (!started) {
                    started = true;
                    for (int i = 0; i < 50; i++) {
                        send.add(20L);
                    }
                }
                for (long p : pending) {
                    if (p > 0) {
                        send.add(p - 1);
                    }
                }
                pending.clear();
                // one message per task per step: several messages go as one frame, like a task's hand-over
                List<List<Long>> byTask = new ArrayList<>();
                for (int t = 0; t < tasks; t++) {
                    byTask.add(new ArrayList<>());
                }
                for (long s : send) {
                    int to = random.nextInt(tasks - 1);
                    byTask.get(to >= self ? to + 1 : to).add(s);
                }
                for (int t = 0; t < tasks; t++) {
                    if (!byTask.get(t).isEmpty()) {
                        ByteBuffer b = ByteBuffer.allocate(8 * byTask.get(t).size());
                        byTask.get(t).forEach(b::putLong);
                        out[t] = b.array();
                        sent.addAndGet(byTask.get(t).size());
                    }
                }
                return out;
            }

            @Override
            public void receive(byte[] data) {
                ByteBuffer b = ByteBuffer.wrap(data);
                while (b.hasRemaining()) {
                    pending.add(b.getLong());
                    handled.incrementAndGet();
                }
            }
        });
        // 4 tasks × 50 chains of 21 messages each
        assertEquals(4L * 50 * 21, sent.get());
        assertEquals(sent.get(), handled.get());
    }

    @Test
    void locationsLeftWaitingAreReportedByEveryTaskInTaskOrder() throws Exception {
        int tasks = 4;
        List<Mesh.End> ends = run(tasks, self -> new Mesh.Worker() {
            @Override
            public byte[][] step() {
                return new byte[tasks][];
            }

            @Override
            public void receive(byte[] data) {
            }

            @Override
            public int blockedCount() {
                return self == 1 ? 0 : 2;
            }

            @Override
            public List<String> blocked() {
                return List.of("task " + self + " a", "task " + self + " b");
            }
        });
        for (Mesh.End e : ends) {
            assertEquals(6, e.blocked());
            assertEquals(List.of("task 0 a", "task 0 b", "task 2 a", "task 2 b", "task 3 a", "task 3 b"), e.first());
        }
    }

    @Test
    void anExchangeGivesEachTaskWhatEveryOtherHandedIt() throws Exception {
        int tasks = 4;
        String[][] got = new String[tasks][];
        run(tasks, (self, mesh) -> {
            byte[][] out = new byte[tasks][];
            for (int t = 0; t < tasks; t++) {
                out[t] = (self + " to " + t).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            byte[][] in = mesh.exchange(out);
            got[self] = new String[tasks];
            for (int t = 0; t < tasks; t++) {
                got[self][t] = in[t] == null ? null : new String(in[t], java.nio.charset.StandardCharsets.UTF_8);
            }
        }, self -> new Unblocked() {
            @Override
            public byte[][] step() {
                return new byte[tasks][];
            }

            @Override
            public void receive(byte[] data) {
            }
        });
        for (int self = 0; self < tasks; self++) {
            for (int t = 0; t < tasks; t++) {
                assertEquals(t == self ? null : t + " to " + self, got[self][t]);
            }
        }
    }

    @Test
    void dataSentRightAfterAnExchangeReachesATaskStillExchanging() throws Exception {
        int tasks = 3;
        AtomicLong handled = new AtomicLong();
        List<Mesh.End> ends = run(tasks, (self, mesh) -> {
            if (self == 0) {
                // the others finish their exchange and send data before task 0 takes its part
                Thread.sleep(300);
            }
            mesh.exchange(new byte[tasks][]);
        }, self -> new Unblocked() {
            boolean started;

            @Override
            public byte[][] step() {
                byte[][] out = new byte[tasks][];
                if (!started && self != 0) {
                    started = true;
                    out[0] = number(self);
                }
                return out;
            }

            @Override
            public void receive(byte[] data) {
                handled.incrementAndGet();
            }
        });
        assertEquals(2, handled.get());
        assertEquals(2, ends.stream().mapToLong(Mesh.End::sent).sum());
    }
}
