package dev.straggler.bench;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.MetricTree;
import dev.straggler.spark.SparkAnalysis;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.sql.SparkSession;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Spark engine on one machine ({@code local[N]}): generates the event mix of {@link AnalyzeBenchmark}, times the
 * single-machine analysis and the Spark one, checks that they agree, and prints per Spark stage its time and the
 * bytes it shuffled and spilled, the peak heap of the JVM (driver and executors share it in local mode) and the
 * peak size of the persisted location records in memory and on disk.
 *
 * <p>Usage: {@code bin/bench SparkBenchmark [--events 100000000] [--ranks 16] [--master local[2]] [--partitions 0]
 * [--local true] [--root-causes both|true|false] [--cube true] [--omp-threads T] [--dir DIR]}. With
 * {@code --omp-threads} above 1 the ranks run their computation in OpenMP parallel regions of T threads, as
 * {@link AnalyzeBenchmark}'s do (a hybrid trace). With
 * {@code --cube true} each Spark
 * analysis is followed by writing its CUBE4 file on the driver from the whole cube, and then by the same analysis
 * writing the file from the executors ({@link SparkAnalysis#runWritingCube}), whose time, the driver's part of it and
 * the sums the driver keeps are printed, and whose file is checked to hold the same members. By default ({@code both}) the Spark analysis runs
 * without root causes and then with them, in the same JVM on the same store, and a last line sets the two side by
 * side: the root-cause stage's cost is the difference of the two times. Give the JVM less heap than the trace's records
 * need (BENCH_JAVA_OPTS=-Xmx2g) to see the records spill to disk instead of failing.
 */
public final class SparkBenchmark {
    public static void main(String[] argv) throws Exception {
        Map<String, String> a = BenchSupport.args(argv,
                "cube", "dir", "events", "local", "master", "omp-threads", "partitions", "ranks", "root-causes");
        long events = Long.parseLong(a.getOrDefault("events", "100000000"));
        int ranks = Integer.parseInt(a.getOrDefault("ranks", "16"));
        String master = a.getOrDefault("master", "local[" + Runtime.getRuntime().availableProcessors() + "]");
        int partitions = Integer.parseInt(a.getOrDefault("partitions", "0"));
        boolean local = Boolean.parseBoolean(a.getOrDefault("local", "true"));
        String which = a.getOrDefault("root-causes", "both");
        boolean cube = Boolean.parseBoolean(a.getOrDefault("cube", "false"));
        int ompThreads = Integer.parseInt(a.getOrDefault("omp-threads", "1"));
        String hybrid = ompThreads > 1 ? "x" + ompThreads : "";
        List<Boolean> runs = switch (which) {
            case "both" -> List.of(false, true);
            case "true" -> List.of(true);
            case "false" -> List.of(false);
            default -> throw new IllegalArgumentException("--root-causes both|true|false, not " + which);
        };
        Path dir = Path.of(a.getOrDefault("dir", System.getProperty("java.io.tmpdir") + "/straggler-analyze-bench"));
        Path store = dir.resolve("store-" + events + "-" + ranks + hybrid);
        System.out.printf(Locale.ROOT, "spark benchmark: %,d events, %d ranks, master %s, %d cores, heap max %s, root "
                        + "causes %s, load average %s%n", events, ranks, master,
                Runtime.getRuntime().availableProcessors(), BenchSupport.mib(Runtime.getRuntime().maxMemory()), which,
                loadAverage());
        if (!Files.exists(store.resolve("manifest.json"))) {
            long t0 = System.nanoTime();
            try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults())) {
                AnalyzeBenchmark.generate(w, ranks, events / ranks, ompThreads);
            }
            System.out.printf(Locale.ROOT, "generated store %s in %.1f s%n", store, (System.nanoTime() - t0) / 1e9);
        }
        SparkSession spark = SparkSession.builder().master(master).appName("straggler-bench")
                .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.debug.maxToStringFields", "64").getOrCreate();
        // a first analysis of a store a hundredth the size, each way, so that neither timed run pays for the JIT
        // compiling Straggler's and Spark's code
        Path warm = dir.resolve("store-" + events / 100 + "-" + ranks + hybrid);
        if (!Files.exists(warm.resolve("manifest.json"))) {
            try (StoreWriter w = StoreWriter.create(warm, StoreOptions.defaults())) {
                AnalyzeBenchmark.generate(w, ranks, events / 100 / ranks, ompThreads);
            }
        }
        for (boolean rootCauses : runs) {
            SparkAnalysis.run(spark, warm, false, AnalysisOptions.defaults().withRootCauses(rootCauses), partitions);
        }
        double[] seconds = new double[2];
        long[] peaks = new long[2];
        long[] analysed = new long[2];
        boolean computed = true;
        for (boolean rootCauses : runs) {
            AnalysisOptions options = AnalysisOptions.defaults().withRootCauses(rootCauses);
            String label = rootCauses ? "with root causes" : "without root causes";
            AnalysisResult reference = null;
            if (local) {
                System.gc();
                BenchSupport.resetPeakHeap();
                long t0 = System.nanoTime();
                try (TraceSource s = Traces.open(store)) {
                    reference = Analysis.run(s, options);
                }
                double sec = (System.nanoTime() - t0) / 1e9;
                System.out.printf(Locale.ROOT, "single machine, %s: %.1f s, %.1f M events/s, peak heap %s%n", label,
                        sec, reference.summary().events() / sec / 1e6, BenchSupport.mib(BenchSupport.peakHeapBytes()));
            }
            System.gc();
            Metrics m = new Metrics();
            spark.sparkContext().addSparkListener(m);
            BenchSupport.resetPeakHeap();
            long t0 = System.nanoTime();
            AnalysisResult r = SparkAnalysis.run(spark, store, false, options, partitions);
            double sec = (System.nanoTime() - t0) / 1e9;
            // the pools' peaks need not fall together: their sum is an upper bound, and never more than the heap
            long peak = Math.min(BenchSupport.peakHeapBytes(), Runtime.getRuntime().maxMemory());
            spark.sparkContext().listenerBus().waitUntilEmpty();
            spark.sparkContext().removeSparkListener(m);
            seconds[rootCauses ? 1 : 0] = sec;
            peaks[rootCauses ? 1 : 0] = peak;
            analysed[rootCauses ? 1 : 0] = r.summary().events();
            System.out.printf(Locale.ROOT, "spark, %s: %.1f s, %.1f M events/s, %.2f M events/s per core, peak heap "
                            + "(driver and executors, one JVM; the sum of the pools' peaks, at most the heap) %s, "
                            + "load average %s%n", label, sec,
                    r.summary().events() / sec / 1e6,
                    r.summary().events() / sec / 1e6 / spark.sparkContext().defaultParallelism(),
                    BenchSupport.mib(peak), loadAverage());
            String missing = rootCauses ? Analysis.rootCausesProblem(r.cube()) : null;
            if (missing != null) {
                computed = false;
                System.out.println("  root causes asked for but not computed: " + missing);
            }
            System.out.printf(Locale.ROOT, "  cube held by the driver: %s%n", cubeSize(r.cube()));
            System.out.printf(Locale.ROOT, "  shuffled: %s written, %s read; spilled: %s from memory, %s to disk%n",
                    BenchSupport.mib(m.shuffleWrite.get()), BenchSupport.mib(m.shuffleRead.get()),
                    BenchSupport.mib(m.memorySpill.get()), BenchSupport.mib(m.diskSpill.get()));
            System.out.printf(Locale.ROOT, "  persisted location records: peak %s in memory, %s on disk%n",
                    BenchSupport.mib(m.peakMemory.get()), BenchSupport.mib(m.peakDisk.get()));
            System.out.printf(Locale.ROOT, "  %-5s %-42s %8s %7s %12s %12s %12s%n", "stage", "operation", "seconds",
                    "tasks", "shuffle-w", "shuffle-r", "spill-disk");
            for (String line : m.stages) {
                System.out.println(line);
            }
            if (cube) {
                cubeFiles(spark, store, options, partitions, dir, r, sec);
            }
            if (reference != null) {
                // root causes one engine did not compute (its heap refused them) are not compared: they are absent,
                // not different
                boolean both = !rootCauses || (Analysis.rootCausesProblem(r.cube()) == null
                        && Analysis.rootCausesProblem(reference.cube()) == null);
                int compared = both ? MetricTree.COUNT : MetricTree.FIRST_ROOT_CAUSE;
                boolean same = true;
                for (int k = 0; k < compared; k++) {
                    same &= Double.compare(reference.cube().total(k), r.cube().total(k)) == 0;
                }
                System.out.println("  metric totals equal to the single machine's: " + (same ? "yes" : "NO")
                        + (both ? "" : " (the wait-state metrics; the root causes were computed by one engine only)"));
            }
        }
        if (runs.size() == 2 && computed) {
            double extra = seconds[1] - seconds[0];
            System.out.printf(Locale.ROOT, "side by side: without root causes %.1f s (%.2f M events/s, peak heap %s), "
                            + "with %.1f s (%.2f M events/s, peak heap %s); the root-cause stage costs %.1f s, "
                            + "%.2fx the wait-state analysis%n", seconds[0], analysed[0] / seconds[0] / 1e6,
                    BenchSupport.mib(peaks[0]), seconds[1], analysed[1] / seconds[1] / 1e6, BenchSupport.mib(peaks[1]),
                    extra, extra / seconds[0]);
        }
        spark.stop();
    }

    /**
     * The cube file both ways: written on the driver from the whole cube (after an analysis of {@code seconds}), and
     * by the executors while the driver keeps only sums.
     */
    private static void cubeFiles(SparkSession spark, Path store, AnalysisOptions options, int partitions, Path dir,
                                  AnalysisResult whole, double seconds) throws java.io.IOException {
        Path a = dir.resolve("whole.cubex");
        Path b = dir.resolve("streamed.cubex");
        long t0 = System.nanoTime();
        dev.straggler.patterns.cubex.CubexWriter.write(whole.cube(), a);
        double write = (System.nanoTime() - t0) / 1e9;
        System.gc();
        t0 = System.nanoTime();
        AnalysisResult r = SparkAnalysis.runWritingCube(spark, store, false, options, partitions, b).result();
        double streamed = (System.nanoTime() - t0) / 1e9;
        var c = whole.cube();
        long delayRows = 0;
        for (int p = 0; p < c.callPaths().size(); p++) {
            if (c.rowOrNull(MetricTree.DELAY, p) != null) {
                delayRows++;
            }
        }
        int valued = 0;
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                if (c.rowOrNull(m, p) != null) {
                    valued++;
                    break;
                }
            }
        }
        int metrics = c.metrics().size();
        int paths = c.callPaths().size();
        int locs = c.locations().size();
        // the POP line's metrics over the focus: execution, comp, mpi, mpi_io and the eight waiting metrics
        int pop = 4 + dev.straggler.patterns.pop.PopMetrics.WAITING.size();
        long kept = 8L * metrics * paths + 8L * (valued + pop + delayRows) * locs;
        System.out.printf(Locale.ROOT, "  cube file: analysis and the driver writing it from the whole cube %.1f s + "
                        + "%.2f s; written by the executors %.1f s, the driver keeping %s (%d × %d sums per call path; "
                        + "per location %d metrics with a value, %d over the focus, %d delay rows) instead of the "
                        + "cube; files %s%n", seconds, write, streamed, BenchSupport.mib(kept), metrics, paths,
                valued, pop, delayRows, sameMembers(a, b) ? "hold the same members" : "DIFFER");
        java.nio.file.Files.deleteIfExists(a);
        java.nio.file.Files.deleteIfExists(b);
    }

    /** Whether two tar archives hold the same members, name and contents (their headers' times may differ). */
    private static boolean sameMembers(Path a, Path b) throws java.io.IOException {
        return members(a).equals(members(b));
    }

    private static Map<String, String> members(Path tar) throws java.io.IOException {
        byte[] b = java.nio.file.Files.readAllBytes(tar);
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (int at = 0; at + 512 <= b.length && b[at] != 0; ) {
            String name = new String(b, at, 100, java.nio.charset.StandardCharsets.US_ASCII).replace("\0", "");
            long size = Long.parseLong(new String(b, at + 124, 12, java.nio.charset.StandardCharsets.US_ASCII)
                    .replace("\0", "").trim(), 8);
            out.put(name, java.util.HexFormat.of().formatHex(b, at + 512, at + 512 + (int) size));
            at += 512 + (int) ((size + 511) / 512 * 512);
        }
        return out;
    }

    /**
     * The cube's values as the driver holds them: one row of 8-byte values per location for every (metric, call path)
     * with a value, the part of the driver's memory that grows with metrics × call paths × locations.
     */
    private static String cubeSize(dev.straggler.patterns.cube.SeverityCube cube) {
        long rows = 0;
        for (int m = 0; m < cube.metrics().size(); m++) {
            for (int c = 0; c < cube.callPaths().size(); c++) {
                if (cube.rowOrNull(m, c) != null) {
                    rows++;
                }
            }
        }
        return String.format(Locale.ROOT, "%,d rows (metric, call path) × %,d locations × 8 B = %s", rows,
                cube.locations().size(), BenchSupport.mib(rows * cube.locations().size() * 8));
    }

    /** The one-minute load average (the machine may be shared), or "?" where the system does not say. */
    private static String loadAverage() {
        double l = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return l < 0 ? "?" : String.format(Locale.ROOT, "%.1f", l);
    }

    /** Sums the task metrics Spark reports and records each stage as it completes. */
    private static final class Metrics extends SparkListener {
        final AtomicLong shuffleWrite = new AtomicLong();
        final AtomicLong shuffleRead = new AtomicLong();
        final AtomicLong memorySpill = new AtomicLong();
        final AtomicLong diskSpill = new AtomicLong();
        final AtomicLong peakMemory = new AtomicLong();
        final AtomicLong peakDisk = new AtomicLong();
        final List<String> stages = new ArrayList<>();
        private final Map<String, long[]> blocks = new ConcurrentHashMap<>();

        @Override
        public void onTaskEnd(SparkListenerTaskEnd e) {
            TaskMetrics t = e.taskMetrics();
            if (t == null) {
                return;
            }
            shuffleWrite.addAndGet(t.shuffleWriteMetrics().bytesWritten());
            shuffleRead.addAndGet(t.shuffleReadMetrics().totalBytesRead());
            memorySpill.addAndGet(t.memoryBytesSpilled());
            diskSpill.addAndGet(t.diskBytesSpilled());
        }

        @Override
        public synchronized void onStageCompleted(SparkListenerStageCompleted e) {
            StageInfo s = e.stageInfo();
            TaskMetrics t = s.taskMetrics();
            long took = s.completionTime().isDefined() && s.submissionTime().isDefined()
                    ? (Long) s.completionTime().get() - (Long) s.submissionTime().get() : 0;
            String name = s.name().length() > 42 ? s.name().substring(0, 42) : s.name();
            List<String> accumulated = new ArrayList<>();
            s.accumulables().values().foreach(acc -> {
                if (acc.name().isDefined() && acc.name().get().startsWith("root-cause") && acc.value().isDefined()) {
                    accumulated.add("        " + acc.name().get() + ": " + acc.value().get());
                }
                return null;
            });
            stages.add(String.format(Locale.ROOT, "  %-5d %-42s %8.1f %7d %12s %12s %12s", s.stageId(), name,
                    took / 1e3, s.numTasks(), BenchSupport.mib(t.shuffleWriteMetrics().bytesWritten()),
                    BenchSupport.mib(t.shuffleReadMetrics().totalBytesRead()), BenchSupport.mib(t.diskBytesSpilled())));
            stages.addAll(accumulated);
        }

        @Override
        public synchronized void onBlockUpdated(SparkListenerBlockUpdated e) {
            var info = e.blockUpdatedInfo();
            if (!info.blockId().isRDD()) {
                return;
            }
            blocks.put(info.blockId().name(), new long[] {info.memSize(), info.diskSize()});
            long mem = 0;
            long disk = 0;
            for (long[] b : blocks.values()) {
                mem += b[0];
                disk += b[1];
            }
            peakMemory.accumulateAndGet(mem, Math::max);
            peakDisk.accumulateAndGet(disk, Math::max);
        }
    }
}
