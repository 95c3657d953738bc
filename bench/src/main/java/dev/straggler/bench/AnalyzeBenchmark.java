package dev.straggler.bench;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.replay.LocationData;
import dev.straggler.replay.Replay;
import dev.straggler.replay.ReplayOptions;
import dev.straggler.trace.Clock;
import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.Location;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceWriter;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * End-to-end {@code analyze} throughput: generates a trace with a realistic MPI event mix, stores it, and times
 * the whole analysis (read, replay, matching, patterns, cube) on 1 and 2 threads, with direct reading and with the
 * Disruptor-pipelined reading, reporting events/s, events/s per core and the peak heap compared with the number of
 * communication records (the only data the analysis keeps across ranks).
 *
 * <p>Mix per iteration of a rank (Score-P conventions): a user function with a nested kernel, an MPI_Irecv from
 * the left neighbour, an MPI_Isend to the right one, an MPI_Waitall completing both, an MPI_Send/MPI_Recv pair in
 * the other direction, and every 8th iteration an MPI_Allreduce; about 23 % of the events are MPI records other
 * than ENTER/LEAVE (10 % are message records). Time steps are drawn from 50..5000 ticks of a 1 ns timer.
 *
 * <p>Usage: {@code java -cp straggler-bench.jar dev.straggler.bench.AnalyzeBenchmark [--events 10000000]
 * [--ranks 16] [--dir /tmp/straggler-analyze-bench] [--otf2 DIR/traces.otf2] [--repeat 2] [--root-causes both]
 * [--reading direct|pipelined|both] [--threads 1,2] [--retained false] [--omp-threads T]}; with {@code
 * --omp-threads} above 1 each rank's computation runs in OpenMP parallel regions of T threads (a hybrid trace of
 * ranks × T locations, the same number of events). The peak RSS is the process's VmHWM,
 * reset before each run where the kernel allows it (otherwise it is the peak since the start). With {@code --otf2}
 * an OTF2 archive is timed as well (write one with {@code --write-otf2-input FILE}, which dumps the generated trace
 * for the python3-otf2 script {@code patterns/src/test/resources/otf2/write_otf2.py}, which writes the OTF2).
 */
public final class AnalyzeBenchmark {

    public static void main(String[] argv) throws Exception {
        Map<String, String> a = BenchSupport.args(argv,
                "dir", "events", "omp-threads", "ranks", "reading", "record-heap", "repeat", "retained",
                "root-causes", "teams-as-ranks", "threads", "write-otf2-input");
        long events = BenchSupport.value(a, "events", "10000000", Long::parseLong);
        int ranks = BenchSupport.value(a, "ranks", "16", Integer::parseInt);
        int repeat = BenchSupport.value(a, "repeat", "2", Integer::parseInt);
        String rc = a.getOrDefault("root-causes", "both");
        rootCauseSettings = rc.equals("on") ? new boolean[]{true} : rc.equals("off") ? new boolean[]{false}
                : new boolean[]{false, true};
        String reading = a.getOrDefault("reading", "both");
        readingSettings = reading.equals("pipelined") ? new boolean[]{true} : reading.equals("direct")
                ? new boolean[]{false} : new boolean[]{false, true};
        threadSettings = BenchSupport.value(a, "threads", "1,2",
                t -> java.util.Arrays.stream(t.split(",")).mapToInt(Integer::parseInt).toArray());
        boolean measureRetained = !a.getOrDefault("retained", "true").equals("false");
        recordHeap = BenchSupport.value(a, "record-heap", "default",
                rh -> rh.equals("default") ? AnalysisOptions.DEFAULT_RECORD_HEAP : BenchSupport.bytes(rh));
        Path dir = Path.of(a.getOrDefault("dir", System.getProperty("java.io.tmpdir") + "/straggler-analyze-bench"));
        int ompThreads = BenchSupport.value(a, "omp-threads", "1", Integer::parseInt);
        if (ompThreads < 1) {
            throw new IllegalArgumentException("--omp-threads must be at least 1");
        }
        boolean teamsAsRanks = a.getOrDefault("teams-as-ranks", "false").equals("true");
        if (teamsAsRanks && ompThreads < 2) {
            throw new IllegalArgumentException("--teams-as-ranks needs --omp-threads of at least 2");
        }
        Path store = dir.resolve("store-" + events + "-" + ranks + (ompThreads > 1 ? "x" + ompThreads : "")
                + (teamsAsRanks ? "-ranks" : ""));
        System.out.printf(Locale.ROOT, "analyze benchmark: %,d events, %d ranks%s, %d cores, heap max %s%n", events,
                ranks, ompThreads > 1 ? " x " + ompThreads + (teamsAsRanks ? " ranks in teams of MPI_Barrier"
                        : " OpenMP threads") : "",
                Runtime.getRuntime().availableProcessors(), BenchSupport.mib(Runtime.getRuntime().maxMemory()));
        if (a.containsKey("write-otf2-input")) {
            Path out = Path.of(a.get("write-otf2-input"));
            try (TextDump w = new TextDump(out)) {
                generate(w, ranks, events / ranks, ompThreads);
            }
            System.out.println("wrote " + out);
            return;
        }
        if (!Files.exists(store.resolve("manifest.json"))) {
            long t0 = System.nanoTime();
            try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults())) {
                if (teamsAsRanks) {
                    generateTeamsAsRanks(w, ranks, events / ranks, ompThreads);
                } else {
                    generate(w, ranks, events / ranks, ompThreads);
                }
            }
            System.out.printf(Locale.ROOT, "generated store %s in %.1f s%n", store, (System.nanoTime() - t0) / 1e9);
        }
        time("store", store, repeat);
        if (measureRetained) {
            retained(store);
        }
        if (a.containsKey("otf2")) {
            time("otf2", Path.of(a.get("otf2")), repeat);
        }
    }

    /**
     * Live heap held once every location has been replayed (records, envelope queues, call-path profiles): what
     * stays in memory while the patterns run, measured after full collections, per communication record.
     */
    private static void retained(Path trace) throws IOException {
        for (boolean rc : rootCauseSettings) {
            retained(trace, rc);
        }
    }

    /** With root causes the replay also keeps every mark and its call-path interval times. */
    private static void retained(Path trace, boolean intervals) throws IOException {
        System.gc();
        System.gc();
        long before = usedHeap();
        Replay replay;
        try (TraceSource s = open(trace)) {
            replay = Replay.run(s, ReplayOptions.defaults().withThreads(2).withIntervals(intervals));
        }
        System.gc();
        System.gc();
        long held = usedHeap() - before;
        long visits = 0;
        for (LocationData l : replay.locations()) {
            for (int n = 0; n < l.profile().size(); n++) {
                visits += l.profile().visits(n);
            }
        }
        long comm = replay.events() - 2 * visits;
        System.out.printf(Locale.ROOT, "retained after replay%s: %s for %,d communication records = %.1f bytes each"
                        + " (record columns %s); ENTER/LEAVE events read: %,d%n",
                intervals ? " with root-cause intervals" : "", BenchSupport.mib(held), comm,
                held / (double) comm, BenchSupport.mib(replay.recordBytes()), 2 * visits);
        if (replay.events() < 0) {
            System.out.print(""); // keep the replay reachable until measured
        }
    }

    static TraceSource open(Path trace) throws IOException {
        return Traces.open(trace);
    }

    /** CPU time of the whole process (all threads, GC and JIT included). */
    private static long processCpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** Root-cause settings to time: {@code --root-causes on|off|both} (default both). */
    private static boolean[] rootCauseSettings = {false, true};
    /** Reading settings to time: {@code --reading direct|pipelined|both} (default both). */
    private static boolean[] readingSettings = {false, true};
    /**
     * Point-to-point records kept on the heap, the rest in the scratch file: {@code --record-heap BYTES} (with k, m or
     * g), or {@code default} (an eighth of the heap).
     */
    private static long recordHeap = AnalysisOptions.DEFAULT_RECORD_HEAP;
    /** Thread counts to time: {@code --threads 1,2} (default). */
    private static int[] threadSettings = {1, 2};

    private static void time(String label, Path trace, int repeat) throws IOException {
        for (boolean rootCauses : rootCauseSettings) {
        for (boolean pipelined : readingSettings) {
            for (int threads : threadSettings) {
                AnalysisOptions o = AnalysisOptions.defaults().withThreads(threads).withPipelined(pipelined)
                        .withRootCauses(rootCauses).withRecordHeap(recordHeap);
                long best = Long.MAX_VALUE;
                long bestCpu = Long.MAX_VALUE;
                long peak = 0;
                long peakRss = 0;
                AnalysisResult r = null;
                Phases phases = null;
                for (int i = 0; i < repeat; i++) {
                    r = null;
                    Phases run = new Phases();
                    BenchSupport.resetPeakHeap();
                    BenchSupport.resetPeakRss();
                    long c0 = processCpuNanos();
                    long t0 = System.nanoTime();
                    try (TraceSource s = open(trace)) {
                        r = Analysis.run(s, o.withProgress(run));
                    }
                    long t = System.nanoTime() - t0;
                    run.end(t0, t0 + t);
                    if (t < best) {
                        phases = run;
                    }
                    bestCpu = Math.min(bestCpu, processCpuNanos() - c0);
                    best = Math.min(best, t);
                    peak = Math.max(peak, BenchSupport.peakHeapBytes());
                    peakRss = Math.max(peakRss, BenchSupport.peakRssBytes());
                }
                long ev = r.summary().events();
                long comm = communicationRecords(r);
                System.out.printf(Locale.ROOT,
                        "%-5s %-9s %-14s %d thread(s): %6.2f s  %s  = %.1f M events/s per core (%.1f M events per "
                                + "CPU-second);  peak heap %s, peak RSS %s (%,d communication records, %.0f%% of events)%n",
                        label, pipelined ? "pipelined" : "direct", rootCauses ? "+root causes" : "wait states",
                        threads, best / 1e9, BenchSupport.rate(ev, best),
                        ev / (best / 1e9) / 1e6 / threads, ev / (bestCpu / 1e9) / 1e6, BenchSupport.mib(peak), BenchSupport.mib(peakRss), comm,
                        100.0 * comm / ev);
                System.out.println("      phases of the fastest run: " + phases);
                String missing = rootCauses ? Analysis.rootCausesProblem(r.cube()) : null;
                if (missing != null) {
                    // the time above is the wait states' and what the replay did before it gave up the marks
                    System.out.println("      root causes asked for but not computed: " + missing);
                }
            }
        }
        }
    }

    /**
     * Wall time per phase of one analysis, from its progress reports: the read and replay, the wait-state patterns
     * and, with root causes, the stage's second pass (the first half of its progress) and its backward replay.
     */
    static final class Phases implements dev.straggler.replay.ProgressListener {
        private long patterns = -1;
        private long rootCauses = -1;
        private long backward = -1;
        private long start;
        private long end;

        @Override
        public synchronized void update(String phase, long done, long total) {
            long now = System.nanoTime();
            if (phase.equals("patterns") && patterns < 0) {
                patterns = now;
            } else if (phase.equals("root causes")) {
                if (rootCauses < 0) {
                    rootCauses = now;
                }
                if (backward < 0 && total > 0 && done >= total / 2 && done < total) {
                    backward = now;
                }
            }
        }

        synchronized void end(long start, long end) {
            this.start = start;
            this.end = end;
        }

        @Override
        public synchronized String toString() {
            long p = patterns < 0 ? end : patterns;
            long rc = rootCauses < 0 ? end : rootCauses;
            String s = String.format(Locale.ROOT, "read and replay %.2f s, wait states %.2f s", (p - start) / 1e9,
                    (rc - p) / 1e9);
            if (rootCauses >= 0) {
                long b = backward < 0 ? end : backward;
                s += String.format(Locale.ROOT, ", root causes %.2f s (up to the backward replay %.2f s, "
                        + "backward replay and after %.2f s)", (end - rc) / 1e9, (b - rc) / 1e9, (end - b) / 1e9);
            }
            return s;
        }
    }

    /** Events other than ENTER/LEAVE: every visit is one ENTER and one LEAVE. */
    private static long communicationRecords(AnalysisResult r) {
        return r.summary().events() - 2L * (long) r.total("visits");
    }

    static TraceDefinitions definitions(int ranks) {
        return definitions(ranks, 1);
    }

    static TraceDefinitions definitions(int ranks, int ompThreads) {
        TraceDefinitions.Builder b = TraceDefinitions.builder().clock(Clock.nanoseconds())
                .experiment(Experiment.of("analyze-mix", ranks));
        mixRegions(b);
        b.addRegion("!$omp parallel @app.c:20", "app.c", 20, 40, Paradigm.OPENMP, RegionRole.PARALLEL);  // 9
        b.addRegion("!$omp implicit barrier @app.c:40", "app.c", 40, 40, Paradigm.OPENMP,
                RegionRole.IMPLICIT_BARRIER);                                                      // 10
        b.communicator(Communicator.world(0, ranks));
        for (int r = 0; r < ranks; r++) {
            b.location(Location.masterThread(r, r));
        }
        for (int r = 0; r < ranks; r++) {
            for (int k = 1; k < ompThreads; k++) {
                int index = workerLocation(ranks, ompThreads, r, k);
                b.location(new Location(index, ((long) k << 32) | r, "OMP thread " + k,
                        dev.straggler.trace.LocationType.CPU_THREAD, r, k, -1));
            }
        }
        return b.build();
    }

    /** Writes {@code perRank} events (about) for every rank, rank by rank. */
    static void generate(TraceWriter w, int ranks, long perRank) throws IOException {
        generate(w, ranks, perRank, 1);
    }

    /**
     * Writes {@code perRank} events (about) for every rank, rank by rank; with {@code ompThreads} above 1 each rank's
     * computation runs in an OpenMP parallel region of that many threads (fork, region, kernel, implicit barrier,
     * join on the master; region, kernel and barrier on each worker), its events counted in the rank's share.
     */
    static void generate(TraceWriter w, int ranks, long perRank, int ompThreads) throws IOException {
        generate(w, ranks, perRank, ompThreads, false);
    }

    /**
     * The program of {@link #generate(TraceWriter, int, long, int)} with every OpenMP thread made an MPI rank: the
     * same events per location and the same synchronisation, so that a thread's cost per event can be compared with a
     * rank's doing the same work. Each team becomes a group of {@code teamSize} ranks (its master the rank that does
     * the point-to-point exchange and the Allreduce, on a communicator of the masters); the fork is gone, and the
     * implicit barrier is an MPI_Barrier on the group's communicator (Enter, begin, end, Leave: the six events a
     * worker thread has per iteration, kernel included).
     */
    static void generateTeamsAsRanks(TraceWriter w, int groups, long perGroup, int teamSize) throws IOException {
        generate(w, groups, perGroup, teamSize, true);
    }

    /** Both programs above; with {@code teamsAsRanks} a team's threads are ranks. */
    private static void generate(TraceWriter w, int ranks, long perRank, int ompThreads, boolean teamsAsRanks)
            throws IOException {
        EventBatch b = new EventBatch(8192);
        EventBatch[] workers = new EventBatch[ompThreads];
        for (int k = 1; k < ompThreads; k++) {
            workers[k] = new EventBatch(8192);
        }
        long[] enter = new long[ompThreads];
        long[] arrive = new long[ompThreads];
        // with teams as ranks the hybrid program's count too, so that both run the same iterations (that one has two
        // events fewer per iteration: no fork and join)
        int perIteration = 22 + (ompThreads > 1 ? 6 + 6 * (ompThreads - 1) : 0);
        for (int r = 0; r < ranks; r++) {
            SplittableRandom rnd = new SplittableRandom(r);
            int right = (r + 1) % ranks;
            int left = (r + ranks - 1) % ranks;
            long t = 1_000_000;
            long n = 1;
            b.enter(t, 0);
            if (teamsAsRanks) {
                for (int k = 1; k < ompThreads; k++) {
                    workers[k].enter(t, 0);
                }
            }
            for (int it = 0; n < perRank - 24 - (ompThreads > 1 ? perIteration : 0); it++) {
                int tag = it & 7;
                b.enter(t += 50 + rnd.nextInt(4950), 1);
                if (ompThreads > 1) {
                    // a team: every thread enters the region after the fork, computes, and waits at the region's
                    // implicit barrier for the last one
                    long start = t += 50;
                    if (!teamsAsRanks) {
                        b.add(start, EventKind.THREAD_FORK_CODE, ompThreads, Paradigm.OPENMP.code(), 0, 0, 0);
                    }
                    long last = 0;
                    for (int k = 0; k < ompThreads; k++) {
                        enter[k] = start + 5 + k;
                        arrive[k] = enter[k] + 10 + 50 + rnd.nextInt(4950);
                        last = Math.max(last, arrive[k]);
                    }
                    long leave = last + 20;
                    for (int k = 0; k < ompThreads; k++) {
                        EventBatch x = k == 0 ? b : workers[k];
                        if (teamsAsRanks) {
                            x.enter(enter[k] + 5, 2);
                            x.leave(arrive[k], 2);
                            x.enter(arrive[k], 11);
                            x.collectiveBegin(arrive[k] + 1);
                            x.collectiveEnd(leave, CollectiveOp.BARRIER, 2 + r, -1, 0, 0);
                            x.leave(leave + 5, 11);
                        } else {
                            x.enter(enter[k], 9);
                            x.enter(enter[k] + 5, 2);
                            x.leave(arrive[k], 2);
                            x.enter(arrive[k], 10);
                            x.leave(leave, 10);
                            x.leave(leave + 5, 9);
                        }
                    }
                    t = leave + 15;
                    if (!teamsAsRanks) {
                        b.add(t, EventKind.THREAD_JOIN_CODE, 0, Paradigm.OPENMP.code(), 0, 0, 0);
                    }
                } else {
                    b.enter(t += 50 + rnd.nextInt(4950), 2);
                    b.leave(t += 50 + rnd.nextInt(4950), 2);
                }
                b.leave(t += 50 + rnd.nextInt(4950), 1);
                // the masters' Allreduce: on the world of masters, or with teams as ranks on their own communicator
                t = exchange(b, rnd, r, it, left, right, t, teamsAsRanks ? 1 : 0);
                n += perIteration + (tag == 7 ? 4 : 0);
                if (b.size >= 8000) {
                    w.append(r, b);
                    b.clear();
                }
                for (int k = 1; k < ompThreads; k++) {
                    if (workers[k].size >= 8000) {
                        w.append(workerLocation(ranks, ompThreads, r, k), workers[k]);
                        workers[k].clear();
                    }
                }
            }
            b.leave(t + 10, 0);
            w.append(r, b);
            b.clear();
            for (int k = 1; k < ompThreads; k++) {
                if (teamsAsRanks) {
                    workers[k].leave(t + 10, 0);
                }
                w.append(workerLocation(ranks, ompThreads, r, k), workers[k]);
                workers[k].clear();
            }
        }
        w.finish(teamsAsRanks ? teamsAsRanksDefinitions(ranks, ompThreads) : definitions(ranks, ompThreads));
    }

    /**
     * Definitions of {@link #generateTeamsAsRanks}: {@code groups × teamSize} ranks, location i is rank i (masters
     * first, as the threads' locations), the world, a communicator of the masters (1) and one per group (2 + g).
     */
    static TraceDefinitions teamsAsRanksDefinitions(int groups, int teamSize) {
        int ranks = groups * teamSize;
        TraceDefinitions.Builder b = TraceDefinitions.builder().clock(Clock.nanoseconds())
                .experiment(Experiment.of("analyze-mix-teams-as-ranks", ranks));
        mixRegions(b);
        b.addRegion("unused 9", "app.c", 0, 0, Paradigm.USER, RegionRole.FUNCTION);        // 9
        b.addRegion("unused 10", "app.c", 0, 0, Paradigm.USER, RegionRole.FUNCTION);       // 10
        b.addRegion("MPI_Barrier", "MPI", 0, 0, Paradigm.MPI, RegionRole.BARRIER);         // 11
        b.communicator(Communicator.world(0, ranks));
        int[] masters = new int[groups];
        for (int g = 0; g < groups; g++) {
            masters[g] = g;
        }
        b.communicator(new Communicator(1, "masters", masters, 0));
        for (int g = 0; g < groups; g++) {
            int[] team = new int[teamSize];
            team[0] = g;
            for (int k = 1; k < teamSize; k++) {
                team[k] = workerLocation(groups, teamSize, g, k);
            }
            b.communicator(new Communicator(2 + g, "team " + g, team, 0));
        }
        for (int i = 0; i < ranks; i++) {
            b.location(Location.masterThread(i, i));
        }
        return b.build();
    }

    /**
     * A rank's messages of iteration {@code it} from time {@code t}: Irecv from the left, Isend to the right,
     * Waitall, a blocking Send/Recv pair the other way (even ranks send first), and every 8th iteration an
     * MPI_Allreduce on communicator {@code allreduceComm}; returns the time after them.
     */
    private static long exchange(EventBatch b, SplittableRandom rnd, int r, int it, int left, int right, long t,
                                 int allreduceComm) {
        int tag = it & 7;
        long len = 8L << tag;
        long rq = 2L * it;
        long sq = 2L * it + 1;
        b.enter(t += 20, 3);
        b.add(t += 10, EventKind.MPI_IRECV_REQUEST_CODE, 0, 0, 0, 0, rq);
        b.leave(t += 20, 3);
        b.enter(t += 20, 4);
        b.isend(t += 10, right, 0, tag, len, sq);
        b.leave(t += 20, 4);
        b.enter(t += 20, 5);
        b.irecv(t += 50 + rnd.nextInt(2000), left, 0, tag, len, rq);
        b.add(t += 10, EventKind.MPI_ISEND_COMPLETE_CODE, 0, 0, 0, 0, sq);
        b.leave(t += 10, 5);
        if ((r & 1) == 0) {
            b.enter(t += 20, 6);
            b.send(t += 10, left, 0, 100 + tag, len);
            b.leave(t += 40, 6);
            b.enter(t += 20, 7);
            b.recv(t += 50 + rnd.nextInt(2000), right, 0, 100 + tag, len);
            b.leave(t += 10, 7);
        } else {
            b.enter(t += 20, 7);
            b.recv(t += 50 + rnd.nextInt(2000), right, 0, 100 + tag, len);
            b.leave(t += 10, 7);
            b.enter(t += 20, 6);
            b.send(t += 10, left, 0, 100 + tag, len);
            b.leave(t += 40, 6);
        }
        if (tag == 7) {
            b.enter(t += 20, 8);
            b.collectiveBegin(t += 10);
            b.collectiveEnd(t += 100 + rnd.nextInt(3000), CollectiveOp.ALLREDUCE, allreduceComm, -1, 8, 8);
            b.leave(t += 10, 8);
        }
        return t;
    }

    /** The regions 0..8 of the mix: main, solve, kernel and the MPI calls. */
    private static void mixRegions(TraceDefinitions.Builder b) {
        b.addRegion("main", "app.c", 1, 100, Paradigm.USER, RegionRole.FUNCTION);          // 0
        b.addRegion("solve", "app.c", 10, 50, Paradigm.USER, RegionRole.FUNCTION);         // 1
        b.addRegion("kernel", "app.c", 60, 90, Paradigm.USER, RegionRole.FUNCTION);        // 2
        b.addRegion("MPI_Irecv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);       // 3
        b.addRegion("MPI_Isend", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);       // 4
        b.addRegion("MPI_Waitall", "MPI", 0, 0, Paradigm.MPI, RegionRole.FUNCTION);        // 5
        b.addRegion("MPI_Send", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);        // 6
        b.addRegion("MPI_Recv", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);        // 7
        b.addRegion("MPI_Allreduce", "MPI", 0, 0, Paradigm.MPI, RegionRole.COLL_ALL2ALL);  // 8
    }

    /** Masters are locations 0..ranks-1, then each rank's workers. */
    private static int workerLocation(int ranks, int ompThreads, int rank, int thread) {
        return ranks + rank * (ompThreads - 1) + thread - 1;
    }

    /**
     * The generated trace as the tab-separated input of the python3-otf2 writer script
     * ({@code patterns/src/test/resources/otf2/write_otf2.py}): definitions, then events, streamed.
     */
    static final class TextDump implements TraceWriter {
        private final Path file;
        private final Path events;
        private final BufferedWriter out;

        TextDump(Path file) throws IOException {
            this.file = file;
            this.events = Path.of(file + ".events");
            this.out = Files.newBufferedWriter(events);
        }

        @Override
        public void append(int location, EventBatch b) throws IOException {
            for (int i = 0; i < b.size; i++) {
                out.write("event\t" + location + "\t" + b.time[i] + "\t" + b.kind[i] + "\t" + b.ref[i] + "\t"
                        + b.comm[i] + "\t" + b.tag[i] + "\t" + b.bytes[i] + "\t" + b.aux[i] + "\n");
            }
        }

        @Override
        public void finish(TraceDefinitions d) throws IOException {
            out.close();
            try (BufferedWriter w = Files.newBufferedWriter(file)) {
                w.write("clock\t" + d.clock().ticksPerSecond() + "\t" + d.clock().globalOffset() + "\n");
                for (var r : d.regions()) {
                    w.write(String.join("\t", "region", Integer.toString(r.id()), r.name(), r.canonicalName(),
                            r.sourceFile().isEmpty() ? "-" : r.sourceFile(), r.paradigm().name(), r.role().name())
                            + "\n");
                }
                for (Location l : d.locations()) {
                    w.write("location\t" + l.index() + "\t" + l.rank() + "\t" + l.thread() + "\t" + l.name() + "\n");
                }
                for (Communicator c : d.communicators()) {
                    StringBuilder m = new StringBuilder();
                    for (int g : c.members()) {
                        m.append(m.length() == 0 ? "" : ",").append(g);
                    }
                    w.write("comm\t" + c.id() + "\t" + c.name() + "\t" + m + "\n");
                }
            }
            try (var o = Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND)) {
                Files.copy(events, o);
            }
            Files.delete(events);
        }

        @Override
        public void close() {
        }
    }
}
