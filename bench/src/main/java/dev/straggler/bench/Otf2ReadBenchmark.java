package dev.straggler.bench;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.LocationType;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.ProcessDef;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Clock;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Writer;
import dev.straggler.trace.otf2.Otf2WriterOptions;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Decode speed and memory of the pure-Java OTF2 reader, with the OTF2 C library's own single-thread rate
 * ({@code otf2count.c}) measured on the same file in the same run when gcc and the OTF2 headers are available.
 *
 * <p>Usage: {@code java -Xmx8g -cp <bench classpath> dev.straggler.bench.Otf2ReadBenchmark [options]}
 * <pre>
 *   --trace PATH        an existing OTF2 anchor or archive directory (default: generate one)
 *   --dir PATH          where the generated archive goes (default: target/otf2-bench); reused when present
 *   --events N          events to generate (default 24,000,000)
 *   --locations N       locations (ranks) to generate (default 16)
 *   --threads N         threads of the parallel run (default: available processors)
 *   --repeat N          timed repetitions of each run, best reported (default 5)
 *   --otf2count PATH    otf2count.c (default: ../shared/tools/otf2count.c)
 * </pre>
 * The generated trace looks like a Score-P MPI trace: Enter/Leave of user and MPI regions, a send or receive in
 * every other MPI call, an Allreduce every 50 iterations, a distinct timestamp on almost every record. It is written
 * with {@link Otf2Writer}.
 */
public final class Otf2ReadBenchmark {

    private Otf2ReadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path trace = null;
        Path dir = Path.of("target/otf2-bench");
        long events = 24_000_000;
        int locations = 16;
        int threads = Runtime.getRuntime().availableProcessors();
        int repeat = 5;
        Path otf2count = Path.of("../shared/tools/otf2count.c");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--trace" -> trace = Path.of(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--events" -> events = Long.parseLong(args[++i].replace("_", ""));
                case "--locations" -> locations = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--otf2count" -> otf2count = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (trace == null) {
            trace = dir.resolve("traces.otf2");
            if (!Files.exists(trace)) {
                long t0 = System.nanoTime();
                generate(trace, events, locations);
                System.out.printf("generated %,d events on %d locations with Otf2Writer in %.1f s%n", events,
                        locations, (System.nanoTime() - t0) / 1e9);
            }
        }
        Path anchor = Otf2Archive.resolveAnchor(trace);
        long bytes = archiveBytes(anchor);
        System.out.printf("archive %s: %,d bytes%n", anchor, bytes);
        System.out.printf("JVM: %s %s, %d available processors, max heap %,d MB%n", System.getProperty("java.vm.name"),
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);

        long n = 0;
        double best1 = 0;
        double cpuRate1 = 0;
        for (int r = 0; r < repeat + 1; r++) {
            Run run = readAll(anchor, 1);
            n = run.events;
            if (r > 0) {
                best1 = Math.max(best1, run.rate());
                cpuRate1 = Math.max(cpuRate1, run.cpuRate());
            }
        }
        System.out.printf("events: %,d (%.2f OTF2 bytes per event)%n", n, bytes / (double) n);
        System.out.printf("decode, 1 thread : %,.0f events/s wall, %,.0f events per CPU-second"
                + " (open, definitions and all event files)%n", best1, cpuRate1);
        java.util.TreeSet<Integer> counts = new java.util.TreeSet<>();
        for (int t = 2; t < threads; t *= 2) {
            counts.add(t);
        }
        if (threads > 1) {
            counts.add(threads);
        }
        for (int t : counts) {
            double best = 0;
            double cpuRate = 0;
            for (int r = 0; r < repeat + 1; r++) {
                Run run = readAll(anchor, t);
                if (r > 0) {
                    best = Math.max(best, run.rate());
                    cpuRate = Math.max(cpuRate, run.cpuRate());
                }
            }
            // events per CPU-second of the decoding threads: equal to the 1-thread figure when threads do not
            // slow each other down, whatever else runs on the machine
            System.out.printf("decode, %d threads: %,.0f events/s wall (speed-up %.2f), %,.0f events per CPU-second"
                    + " per thread (%.0f%% of 1 thread)%n", t, best, best / best1, cpuRate, 100 * cpuRate / cpuRate1);
        }
        memory(anchor, n, bytes);
        otf2count(otf2count, anchor, best1);
    }

    /** One timed read: events delivered, wall time, CPU time of the decoding threads. */
    record Run(long events, long wallNanos, long cpuNanos) {
        double rate() {
            return events / (wallNanos / 1e9);
        }

        double cpuRate() {
            return events / (cpuNanos / 1e9);
        }
    }

    /** Reads every location of the archive with {@code threads} threads. */
    static Run readAll(Path anchor, int threads) throws Exception {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long t0 = System.nanoTime();
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            int locations = a.definitions().locations().size();
            if (threads == 1) {
                long c0 = mx.getCurrentThreadCpuTime();
                EventBatch b = new EventBatch(1 << 16);
                long n = 0;
                for (int l = 0; l < locations; l++) {
                    n += drain(a, l, b);
                }
                return new Run(n, System.nanoTime() - t0, mx.getCurrentThreadCpuTime() - c0);
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                AtomicInteger next = new AtomicInteger();
                java.util.concurrent.atomic.AtomicLong cpu = new java.util.concurrent.atomic.AtomicLong();
                List<Future<Long>> parts = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    parts.add(pool.submit(() -> {
                        long c0 = mx.getCurrentThreadCpuTime();
                        EventBatch b = new EventBatch(1 << 16);
                        long n = 0;
                        for (int l; (l = next.getAndIncrement()) < locations; ) {
                            n += drain(a, l, b);
                        }
                        cpu.addAndGet(mx.getCurrentThreadCpuTime() - c0);
                        return n;
                    }));
                }
                long n = 0;
                for (Future<Long> f : parts) {
                    n += f.get();
                }
                return new Run(n, System.nanoTime() - t0, cpu.get());
            } finally {
                pool.shutdown();
                pool.awaitTermination(1, TimeUnit.MINUTES);
            }
        }
    }

    private static long drain(Otf2Archive a, int location, EventBatch b) throws IOException {
        long n = 0;
        long check = 0;
        try (LocationReader r = a.openLocation(location)) {
            while (r.next(b)) {
                n += b.size;
                check += b.time[b.size - 1] + b.ref[b.size - 1];
            }
        }
        if (check == 42) {
            System.out.print("");
        }
        return n;
    }

    /**
     * Heap retained: after a streaming read (what an import into the columnar store keeps) and with every location
     * held as event batches trimmed to size (what an in-memory replay would keep).
     */
    private static void memory(Path anchor, long events, long otf2Bytes) throws Exception {
        long base = usedAfterGc();
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            EventBatch b = new EventBatch(1 << 16);
            for (int l = 0; l < a.definitions().locations().size(); l++) {
                drain(a, l, b);
            }
            b = null;
            long streaming = usedAfterGc() - base;
            System.out.printf("heap retained after a streaming read of all locations: %,d bytes (%.3f bytes/event)%n",
                    streaming, streaming / (double) events);
            if (Runtime.getRuntime().maxMemory() > 60L * events) {
                List<EventBatch> held = new ArrayList<>();
                for (int l = 0; l < a.definitions().locations().size(); l++) {
                    EventBatch all = a.readLocation(l);
                    EventBatch trimmed = new EventBatch(Math.max(1, all.size));
                    trimmed.addAll(all, 0, all.size);
                    held.add(trimmed);
                }
                long materialized = usedAfterGc() - base;
                System.out.printf("heap retained holding every event as EventBatch columns: %,d bytes (%.1f bytes/event,"
                        + " %.1fx the OTF2 bytes)%n", materialized, materialized / (double) events,
                        materialized / (double) otf2Bytes);
                if (held.size() == -1) {
                    System.out.print("");
                }
            }
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Builds and runs the C library's reader on the same archive, when gcc and the OTF2 headers exist. */
    private static void otf2count(Path source, Path anchor, double javaRate) throws Exception {
        if (!Files.exists(source)) {
            System.out.println("otf2count: " + source + " not found; C-library baseline skipped");
            return;
        }
        Path exe = Files.createTempDirectory("otf2count").resolve("otf2count");
        String flags = run("pkg-config", "--cflags", "--libs", "otf2");
        if (flags == null) {
            flags = Files.exists(Path.of("/usr/include/otf2/otf2.h")) ? "-lotf2" : null;
        }
        if (flags == null || run(Stream.concat(Stream.of("gcc", "-O2", "-o", exe.toString(), source.toString()),
                Arrays.stream(flags.trim().split("\\s+"))).toArray(String[]::new)) == null) {
            System.out.println("otf2count: gcc or the OTF2 headers (libopen-trace-format2-dev) are missing;"
                    + " C-library baseline skipped");
            return;
        }
        double best = 0;
        String last = "";
        for (int r = 0; r < 3; r++) {
            last = run(exe.toString(), anchor.toString());
            if (last == null) {
                System.out.println("otf2count failed");
                return;
            }
            for (String tok : last.trim().split("\\s+(?=events_per_s)")) {
                if (tok.startsWith("events_per_s")) {
                    best = Math.max(best, Double.parseDouble(tok.split("\\s+")[1]));
                }
            }
        }
        System.out.println("otf2count (OTF2 C library, 1 thread): " + last.trim());
        System.out.printf("C library: %,.0f events/s; Java/C ratio, 1 thread: %.2f%n", best, javaRate / best);
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor() == 0 ? out : null;
    }

    private static long archiveBytes(Path anchor) throws IOException {
        String name = anchor.getFileName().toString();
        String archive = name.substring(0, name.length() - 5);
        long bytes = Files.size(anchor) + Files.size(anchor.resolveSibling(archive + ".def"));
        try (Stream<Path> s = Files.list(anchor.resolveSibling(archive))) {
            for (Path p : (Iterable<Path>) s::iterator) {
                bytes += Files.size(p);
            }
        }
        return bytes;
    }

    /** Writes a Score-P-like MPI trace of about {@code events} events on {@code ranks} ranks. */
    static void generate(Path anchor, long events, int ranks) throws IOException {
        TraceDefinitions.Builder d = TraceDefinitions.builder();
        d.clock(new Clock(1_000_000_000L, 1_000_000_000L, 0));
        int main = d.addRegion("main", "app.c", 1, 900, Paradigm.USER, RegionRole.FUNCTION);
        int send = d.addRegion("MPI_Send", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        int recv = d.addRegion("MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        int allreduce = d.addRegion("MPI_Allreduce", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ALL);
        int firstUser = d.regionCount();
        for (int i = 0; i < 96; i++) {
            d.addRegion("compute_" + i, "app.c", 10 + i, 12 + i, Paradigm.COMPILER, RegionRole.FUNCTION);
        }
        int world = d.addCommunicator("MPI_COMM_WORLD", Communicator.world(0, ranks).members(), -1);
        for (int r = 0; r < ranks; r++) {
            d.location(new Location(r, r, "Master thread", LocationType.CPU_THREAD, r, 0, -1));
            d.process(new ProcessDef(r, "MPI Rank " + r, "node" + (r / 8)));
        }
        d.experiment(Experiment.of("synthetic", ranks));
        long perRank = events / ranks;
        long end = 0;
        try (Otf2Writer w = new Otf2Writer(anchor, Otf2WriterOptions.defaults().withChunkSizeEvents(1 << 20))) {
            for (int r = 0; r < ranks; r++) {
                SplittableRandom rnd = new SplittableRandom(r);
                EventBatch b = new EventBatch(1 << 16);
                long t = 1_000_000_000L + rnd.nextInt(1000);
                long n = 0;
                b.add(t, dev.straggler.trace.EventKind.PROGRAM_BEGIN_CODE, 0, 0, 0, 0, 0);
                b.enter(t, main);
                n += 2;
                for (int it = 0; n < perRank - 8; it++) {
                    int f = firstUser + rnd.nextInt(96);
                    b.enter(t += 1 + rnd.nextInt(400), f);
                    b.leave(t += 1 + rnd.nextInt(4000), f);
                    n += 2;
                    switch (it % 4) {
                        case 0 -> {
                            b.enter(t += 1 + rnd.nextInt(50), send);
                            b.send(t += 1 + rnd.nextInt(20), (r + 1) % ranks, world, it & 0x7FFF, 8L << rnd.nextInt(16));
                            b.leave(t += 1 + rnd.nextInt(2000), send);
                            n += 3;
                        }
                        case 1 -> {
                            b.enter(t += 1 + rnd.nextInt(50), recv);
                            b.recv(t += 1 + rnd.nextInt(3000), (r + ranks - 1) % ranks, world, it & 0x7FFF,
                                    8L << rnd.nextInt(16));
                            b.leave(t += 1 + rnd.nextInt(20), recv);
                            n += 3;
                        }
                        default -> {
                        }
                    }
                    if (it % 50 == 49) {
                        b.enter(t += 1 + rnd.nextInt(50), allreduce);
                        b.collectiveBegin(t);
                        b.collectiveEnd(t += 1 + rnd.nextInt(5000), CollectiveOp.ALLREDUCE, world, -1, 8, 8);
                        b.leave(t += 1 + rnd.nextInt(20), allreduce);
                        n += 4;
                    }
                    if (b.size > 60_000) {
                        w.append(r, b);
                        b.clear();
                    }
                }
                b.leave(t += 10, main);
                b.add(t += 1, dev.straggler.trace.EventKind.PROGRAM_END_CODE, 0, 0, 0, 0, 0);
                w.append(r, b);
                end = Math.max(end, t);
            }
            d.clock(new Clock(1_000_000_000L, 1_000_000_000L, end - 1_000_000_000L));
            w.finish(d.build());
        }
    }
}
