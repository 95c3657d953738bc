package dev.straggler.bench;

import dev.straggler.experiments.sql.SqlSession;
import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.callsite.CallsiteProfiler;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.TraceStatistics;
import dev.straggler.trace.Traces;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code straggler sql} over the events of a generated store (AnalyzeBenchmark's event mix): a full-scan aggregate,
 * time per region and rank, in events/s with the peak heap and RSS, beside the same store read by {@code info}
 * (TraceStatistics) and {@code callsites} (CallsiteProfiler). The first query of a session also builds the call tree
 * (one more pass over the events); the second runs with it built.
 *
 * <p>Usage: {@code java -cp CLASSPATH dev.straggler.bench.SqlBenchmark [--events 10000000] [--ranks 16] [--dir D]
 * [--wait-states true] [--events-query false] [--trace OTF2]}
 * (the shaded bench jar leaves DuckDB out; run with the bench module's class path).
 */
public final class SqlBenchmark {
    static final String QUERY = "SELECT rank, region, SUM(time) FILTER (WHERE kind = 'LEAVE') "
            + "- SUM(time) FILTER (WHERE kind = 'ENTER') AS seconds FROM events "
            + "WHERE kind IN ('ENTER', 'LEAVE') GROUP BY rank, region";

    private SqlBenchmark() {
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> a = BenchSupport.args(argv,
                "dir", "events", "events-query", "ranks", "trace", "wait-states");
        long events = Long.parseLong(a.getOrDefault("events", "10000000"));
        int ranks = Integer.parseInt(a.getOrDefault("ranks", "16"));
        Path dir = Path.of(a.getOrDefault("dir", System.getProperty("java.io.tmpdir") + "/straggler-sql-bench"));
        Path store = a.containsKey("trace") ? Path.of(a.get("trace")) : dir.resolve("store-" + events + "-" + ranks);
        System.out.printf(Locale.ROOT, "sql benchmark: %s, %d cores, heap max %s%n", a.containsKey("trace")
                        ? store.toString() : String.format(Locale.ROOT, "%,d events, %d ranks", events, ranks),
                Runtime.getRuntime().availableProcessors(), BenchSupport.mib(Runtime.getRuntime().maxMemory()));
        if (!a.containsKey("trace") && !Files.exists(store.resolve("manifest.json"))) {
            long t0 = System.nanoTime();
            try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults())) {
                AnalyzeBenchmark.generate(w, ranks, events / ranks);
            }
            System.out.printf(Locale.ROOT, "generated store %s in %.1f s%n", store, (System.nanoTime() - t0) / 1e9);
        }
        try (TraceSource src = Traces.open(store)) {
            long n = src.eventCount();
            measure("info (TraceStatistics)", n, () -> TraceStatistics.compute(src, done -> { }));
            measure("callsites (CallsiteProfiler)", n, () -> CallsiteProfiler.profile(src));
            if (!a.getOrDefault("events-query", "true").equals("false")) {
                try (SqlSession s = SqlSession.ofTrace(src, Runtime.getRuntime().availableProcessors())) {
                    measure("sql, call tree + query", n, () -> rows(s, QUERY));
                    measure("sql, query", n, () -> rows(s, QUERY));
                }
            }
            if (a.getOrDefault("wait-states", "false").equals("true")) {
                waitStates(src, n);
            }
        }
    }

    /**
     * The cost of the delay behind every wait-state instance: the analysis with and without root causes, keeping the
     * five most severe instances per pattern (as {@code analyze}) or every instance (as {@code sql}; with root causes
     * every point-to-point and collective instance is then explained), then {@code wait_states} made from the last.
     */
    static void waitStates(TraceSource src, long n) throws IOException {
        int threads = Runtime.getRuntime().availableProcessors();
        for (boolean rootCauses : new boolean[]{false, true}) {
            for (int top : new int[]{5, AnalysisOptions.ALL_INSTANCES}) {
                AnalysisResult[] r = {null};
                measure("analysis, " + (rootCauses ? "root causes" : "wait states") + ", "
                        + (top == 5 ? "top 5" : "every instance"), n, () -> r[0] = Analysis.run(src,
                        AnalysisOptions.defaults().withThreads(threads).withRootCauses(rootCauses).withTopInstances(top)));
                System.out.printf(Locale.ROOT, "  %,d instances, %,d explained%n", r[0].mostSevere().size(),
                        r[0].causes().size());
            }
        }
        try (SqlSession s = SqlSession.ofTrace(src, threads, true)) {
            s.analysis();
            measure("sql wait_states table (analysed)", n, () -> rows(s, WAIT_STATES));
        }
    }

    static final String WAIT_STATES = "SELECT pattern, COUNT(*), COUNT(delay), SUM(delay) FROM wait_states GROUP BY pattern";

    private static long rows(SqlSession s, String query) throws IOException {
        long[] rows = {0};
        s.query(query, new SqlSession.RowSink() {
            @Override
            public void columns(List<String> names, List<String> types) {
            }

            @Override
            public void row(Object[] values) {
                rows[0]++;
            }
        });
        return rows[0];
    }

    interface Work {
        Object run() throws IOException;
    }

    private static void measure(String what, long events, Work w) throws IOException {
        System.gc();
        BenchSupport.resetPeakHeap();
        BenchSupport.resetPeakRss();
        long t0 = System.nanoTime();
        w.run();
        long t = System.nanoTime() - t0;
        System.out.printf(Locale.ROOT, "%-30s %7.2f s  %s  peak heap %s, peak RSS %s%n", what, t / 1e9,
                BenchSupport.rate(events, t), BenchSupport.mib(BenchSupport.peakHeapBytes()),
                BenchSupport.mib(BenchSupport.peakRssBytes()));
    }
}
