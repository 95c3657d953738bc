package dev.straggler.bench;

import dev.straggler.trace.Clock;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.store.StoreWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Writes and reads a synthetic trace with an MPI-like event mix through the Arrow store, uncompressed and with
 * ZSTD, and prints write and read rates, bytes per event on disk and peak heap.
 *
 * <p>Mix per iteration of a rank: a user function around compute (ENTER/LEAVE, nested one level), a send and a
 * receive inside MPI_Send/MPI_Recv, and every 8th iteration an MPI_Allreduce; about 20 % of events are
 * communication records. Time steps are drawn from 50..5000 ticks like a 1 ns timer.
 *
 * <p>Usage: {@code bin/bench StoreBenchmark [--events 50000000] [--ranks 8] [--dir /tmp/straggler-bench]}
 */
public final class StoreBenchmark {

    public static void main(String[] argv) throws Exception {
        Map<String, String> a = BenchSupport.args(argv, "dir", "events", "ranks");
        long events = Long.parseLong(a.getOrDefault("events", "50000000"));
        int ranks = Integer.parseInt(a.getOrDefault("ranks", "8"));
        Path base = Path.of(a.getOrDefault("dir", System.getProperty("java.io.tmpdir") + "/straggler-bench"));
        int threads = Runtime.getRuntime().availableProcessors();
        System.out.printf("store benchmark: %,d events, %d ranks, %d cores, heap max %s%n", events, ranks, threads,
                BenchSupport.mib(Runtime.getRuntime().maxMemory()));
        for (StoreOptions o : new StoreOptions[]{StoreOptions.uncompressed(), StoreOptions.defaults()}) {
            Path dir = base.resolve(o.compression().name().toLowerCase());
            deleteRecursively(dir);
            BenchSupport.resetPeakHeap();
            long t0 = System.nanoTime();
            long written = write(dir, o, ranks, events / ranks);
            long t1 = System.nanoTime();
            long writePeak = BenchSupport.peakHeapBytes();
            long bytes = 0;
            try (Stream<Path> s = Files.list(dir.resolve("events"))) {
                for (Path p : s.toList()) {
                    bytes += Files.size(p);
                }
            }
            System.out.printf("%-5s write  %s (1 thread), %.2f bytes/event on disk, peak heap %s%n",
                    o.compression(), BenchSupport.rate(written, t1 - t0), bytes / (double) written, BenchSupport.mib(writePeak));
            for (int th : new int[]{1, threads}) {
                read(dir, th); // warm-up
                BenchSupport.resetPeakHeap();
                long r0 = System.nanoTime();
                long read = read(dir, th);
                long r1 = System.nanoTime();
                System.out.printf("%-5s read   %s on %d thread(s) = %.1f M events/s per core, peak heap %s%n",
                        o.compression(), BenchSupport.rate(read, r1 - r0), th, read / ((r1 - r0) / 1e9) / 1e6 / th,
                        BenchSupport.mib(BenchSupport.peakHeapBytes()));
            }
        }
    }

    static TraceDefinitions definitions(int ranks) {
        TraceDefinitions.Builder b = TraceDefinitions.builder().clock(Clock.nanoseconds())
                .experiment(Experiment.of("synthetic-mix", ranks));
        b.addRegion("main", "app.c", 1, 100, Paradigm.USER, RegionRole.FUNCTION);
        b.addRegion("solve", "app.c", 10, 50, Paradigm.USER, RegionRole.FUNCTION);
        b.addRegion("kernel", "app.c", 60, 90, Paradigm.USER, RegionRole.FUNCTION);
        b.addRegion("MPI_Send", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        b.addRegion("MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        b.addRegion("MPI_Allreduce", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ALL);
        b.communicator(Communicator.world(0, ranks));
        for (int r = 0; r < ranks; r++) {
            b.location(Location.masterThread(r, r));
        }
        return b.build();
    }

    /** Generates and writes each rank on its own; returns the number of events written. */
    static long write(Path dir, StoreOptions o, int ranks, long perRank) throws IOException {
        long total = 0;
        try (StoreWriter w = StoreWriter.create(dir, o)) {
            EventBatch b = new EventBatch(8192);
            for (int r = 0; r < ranks; r++) {
                SplittableRandom rnd = new SplittableRandom(r);
                long t = 1_000_000;
                long n = 0;
                int it = 0;
                b.enter(t, 0);
                n++;
                while (n < perRank - 16) {
                    t += 50 + rnd.nextInt(4950);
                    b.enter(t, 1);
                    t += 50 + rnd.nextInt(4950);
                    b.enter(t, 2);
                    t += 50 + rnd.nextInt(4950);
                    b.leave(t, 2);
                    t += 50 + rnd.nextInt(4950);
                    b.leave(t, 1);
                    b.enter(t += 20, 3);
                    b.send(t += 30, (r + 1) % ranks, 0, it & 7, 8L << (it & 7));
                    b.leave(t += 40, 3);
                    b.enter(t += 20, 4);
                    b.recv(t += 50 + rnd.nextInt(2000), (r + ranks - 1) % ranks, 0, it & 7, 8L << (it & 7));
                    b.leave(t += 40, 4);
                    n += 10;
                    if ((it & 7) == 7) {
                        b.enter(t += 20, 5);
                        b.collectiveBegin(t += 10);
                        b.collectiveEnd(t += 100 + rnd.nextInt(3000), CollectiveOp.ALLREDUCE, 0, -1, 8, 8);
                        b.leave(t += 10, 5);
                        n += 4;
                    }
                    it++;
                    if (b.size >= 8000) {
                        w.append(r, b);
                        b.clear();
                    }
                }
                b.leave(t + 10, 0);
                n++;
                w.append(r, b);
                b.clear();
                total += n;
            }
            w.finish(definitions(ranks));
        }
        return total;
    }

    /** Streams every location into primitive-array batches on {@code threads} threads; returns events read. */
    static long read(Path dir, int threads) throws Exception {
        AtomicLong checksum = new AtomicLong();
        AtomicLong count = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (StoreReader s = StoreReader.open(dir)) {
            var futures = new java.util.ArrayList<Future<?>>();
            for (Location l : s.definitions().locations()) {
                futures.add(pool.submit(() -> {
                    EventBatch b = new EventBatch(65536);
                    long sum = 0;
                    long n = 0;
                    try (LocationReader r = s.openLocation(l.index())) {
                        while (r.next(b)) {
                            // touch the columns the replay reads so the copy cannot be optimised away
                            for (int i = 0; i < b.size; i++) {
                                sum += b.time[i] + b.kind[i] + b.ref[i];
                            }
                            n += b.size;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    checksum.addAndGet(sum);
                    count.addAndGet(n);
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        if (checksum.get() == 42) {
            System.out.print("");
        }
        return count.get();
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
