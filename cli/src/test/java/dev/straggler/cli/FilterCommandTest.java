package dev.straggler.cli;

import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import dev.straggler.trace.filter.FilteredTrace;
import dev.straggler.trace.filter.ScorepFilter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.straggler.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilterCommandTest {
    @TempDir
    Path tmp;

    private Path deepCallTree() {
        Path store = tmp.resolve("deep");
        CliTest.Run r = run("generate", "deep-calltree", "-n", "3", "-p", "iterations=4", "-p", "calls=30",
                "-o", store.toString(), "-q");
        assertEquals(0, r.code(), r.err());
        return store;
    }

    private Path helpersFilter() throws Exception {
        Path f = tmp.resolve("helpers.filter");
        Files.writeString(f, "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE vec_get index_of\n    flux_limiter clamp\nSCOREP_REGION_NAMES_END\n");
        return f;
    }

    @Test
    void otf2OutputReadsBackEventIdenticalWithOtf2PrintPythonAndOurReader() throws Exception {
        Path in = deepCallTree();
        Path filter = helpersFilter();
        Path out = tmp.resolve("reduced").resolve("traces.otf2");
        CliTest.Run r = run("filter", in.toString(), "--filter", filter.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("valid"), r.out());
        Map<Long, List<String>> expected;
        try (TraceSource src = Traces.open(in)) {
            expected = Otf2Readers.of(new FilteredTrace(src, ScorepFilter.read(filter)));
        }
        try (TraceSource back = Traces.open(out)) {
            assertEquals(expected, Otf2Readers.of(back));
        }
        assertEquals(expected, Otf2Readers.otf2Print(out));
        assertEquals(expected, Otf2Readers.python(out));
        // 4 helpers * 30 calls * 4 steps * 2 events on each of 3 ranks
        assertTrue(r.out().contains("events") && r.out().contains("-> "), r.out());
        long before = expectedEvents(in);
        long after = expected.values().stream().mapToLong(List::size).sum();
        assertEquals(before - 4L * 30 * 4 * 2 * 3, after);
    }

    @Test
    void storeOutputHasTheEstimatedEventsAndBytes() throws Exception {
        Path in = deepCallTree();
        Path est = tmp.resolve("est.filter");
        // the short-function policy: it keeps enough events for the per-record byte model to hold (see
        // docs/trace-reduction.md on the delta-compressed timestamps of a trace reduced by 99 %)
        CliTest.Run plan = run("include-list", in.toString(), "--policy", "short-functions", "-o", est.toString());
        assertEquals(0, plan.code(), plan.err());
        Path out = tmp.resolve("reduced-store");
        CliTest.Run r = run("filter", in.toString(), "--filter", est.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        String events = value(plan.out(), "events");
        String bytes = value(plan.out(), "bytes, all ranks");
        assertTrue(r.out().lines().anyMatch(l -> l.strip().startsWith("events") && l.contains("-> ") && l.contains(events)),
                "estimate " + events + " in\n" + r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.strip().startsWith("bytes") && l.contains(bytes)),
                "estimate " + bytes + " in\n" + r.out());
        try (TraceSource back = Traces.open(out)) {
            assertEquals(Long.parseLong(events.replace(",", "")), back.eventCount());
        }
    }

    @Test
    void realBtWithTheWFilterKeepsEveryMpiEventAndValidates() throws Exception {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path real = Path.of(shared, "traces", "real");
        Assumptions.assumeTrue(Files.isDirectory(real.resolve("npb-bt.S-4")), "npb-bt.S-4 is absent");
        Path out = tmp.resolve("bt.otf2");
        CliTest.Run r = run("filter", real.resolve("npb-bt.S-4").toString(), "--filter",
                real.resolve("npb-W.filter").toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        // the run recorded with this filter has 48,670 model events (otf2_counts of npb-bt.S.filtered-4 less its
        // 28 communicator records)
        assertTrue(r.out().contains("48,670"), r.out());
        Map<Long, List<String>> printed = Otf2Readers.otf2Print(out);
        try (TraceSource back = Traces.open(out)) {
            assertEquals(Otf2Readers.of(back), printed);
        }
    }

    /**
     * A Score-P hybrid archive written again as OTF2 (a filter that drops nothing) is analysed exactly as the
     * original: every metric, call path (by region names) and location of the severity cube, root causes included.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"omp-kernels-2x4", "bt-mz.S-2x2"})
    void rewrittenScorePHybridArchiveIsAnalysedAsTheOriginal(String name) throws Exception {
        String shared = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(shared != null, "system property straggler.shared is not set");
        Path real = Path.of(shared, "traces", "hybrid", name);
        Assumptions.assumeTrue(Files.isDirectory(real), real + " is absent");
        Path filter = tmp.resolve("nothing.filter");
        Files.writeString(filter, "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE no_such_region\nSCOREP_REGION_NAMES_END\n");
        Path out = tmp.resolve(name).resolve("traces.otf2");
        CliTest.Run r = run("filter", real.toString(), "--filter", filter.toString(), "-o", out.toString(), "-q");
        assertEquals(0, r.code(), r.out() + r.err());
        Map<String, Double> original = cells(real, tmp.resolve("original.cubex"));
        Map<String, Double> rewritten = cells(out, tmp.resolve("rewritten.cubex"));
        assertTrue(original.keySet().stream().anyMatch(k -> k.startsWith("omp_")), original.keySet().toString());
        assertEquals(original, rewritten);
    }

    /** The nonzero cells of {@code straggler analyze --cube}: "metric | call path | location" to value. */
    private static Map<String, Double> cells(Path trace, Path cube) throws Exception {
        CliTest.Run r = run("analyze", trace.toString(), "--root-causes", "--cube", cube.toString(), "-q");
        assertEquals(0, r.code(), r.out() + r.err());
        var c = dev.straggler.patterns.cubex.CubexReader.read(cube);
        Map<String, Double> out = new java.util.TreeMap<>();
        for (int m = 0; m < c.metrics().size(); m++) {
            for (int p = 0; p < c.callPaths().size(); p++) {
                for (int l = 0; l < c.locations().size(); l++) {
                    double v = c.get(m, p, l);
                    if (v != 0) {
                        out.put(c.metrics().get(m).uniqueName() + " | " + String.join("/", c.pathNames(p)) + " | "
                                + c.locations().get(l), v);
                    }
                }
            }
        }
        return out;
    }

    @Test
    void aFileThatIsNoFilterIsRefusedByName() throws Exception {
        Path bogus = tmp.resolve("bogus.txt");
        Files.writeString(bogus, "hello\n");
        CliTest.Run r = run("filter", deepCallTree().toString(), "--filter", bogus.toString(), "-o", tmp.resolve("o").toString());
        assertEquals(1, r.code());
        assertTrue(r.err().contains(bogus + ": neither a Score-P filter file"), r.err());
    }

    /** A filter that matches no region changes nothing: "0.0 %", not "+0.0 %". */
    @Test
    void aFilterThatDropsNothingPrintsAnUnsignedZeroChange() throws Exception {
        Path filter = tmp.resolve("nothing.filter");
        Files.writeString(filter, "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE no_such_region\nSCOREP_REGION_NAMES_END\n");
        CliTest.Run r = run("filter", deepCallTree().toString(), "--filter", filter.toString(), "-o",
                tmp.resolve("same").toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("(0.0 %)"), r.out());
        assertFalse(r.out().contains("+0.0") || r.out().contains("-0.0"), r.out());
    }

    private static long expectedEvents(Path in) throws Exception {
        try (TraceSource src = Traces.open(in)) {
            return src.eventCount();
        }
    }

    /** The "before -> after" figure of a summary line: its second number. */
    private static String value(String out, String label) {
        for (String l : out.lines().toList()) {
            String s = l.strip();
            if (s.startsWith(label + " ")) {
                String[] f = s.substring(label.length()).trim().split("\\s+");
                return f[1];
            }
        }
        throw new AssertionError(label + " not in\n" + out);
    }
}
