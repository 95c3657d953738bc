package dev.straggler.testdata;

import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Writer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hybrid scenarios' traces go through OTF2: written by the OTF2 writer, they read back with the same locations
 * (Score-P's worker ids t << 32 | rank, in the same order), regions and events, and the OTF2 C library's
 * {@code otf2-print} reads them, with the thread records where the simulator put them.
 */
class HybridOtf2Test {
    private static final Map<String, String> SMALL = Map.of("threads", "3", "reps", "2");

    @ParameterizedTest
    @ValueSource(strings = {"omp-imbalance-explicit-barrier", "omp-imbalance-implicit-barrier",
            "omp-critical-contention", "omp-serial-phase", "hybrid-omp-to-late-sender"})
    void hybridTraceReadsBackFromOtf2AndOtf2PrintAcceptsIt(String name, @TempDir Path dir) throws Exception {
        Scenario s = Scenarios.byName(name);
        ScenarioParams p = new ScenarioParams(2, 1, SMALL);
        MemoryTrace memory = new MemoryTrace(name);
        s.generate(p, memory);
        Path anchor = dir.resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            s.generate(p, w);
        }
        TraceDefinitions want = memory.definitions();
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            TraceDefinitions got = a.definitions();
            assertEquals(want.regions(), got.regions());
            assertEquals(6, got.locations().size());
            for (int l = 0; l < want.locations().size(); l++) {
                Location x = want.location(l);
                Location y = got.location(l);
                assertEquals(java.util.List.of(x.id(), x.name(), x.type(), x.rank(), x.thread()),
                        java.util.List.of(y.id(), y.name(), y.type(), y.rank(), y.thread()), "location " + l);
                assertTrue(memory.readLocation(l).sameEvents(a.readLocation(l)), "events of location " + l);
            }
        }
        Map<String, Integer> printed = threadRecordsPrinted(anchor);
        assertEquals(threadRecords(memory), printed);
        assertTrue(printed.keySet().stream().anyMatch(k -> k.startsWith("THREAD_FORK 1")), printed.toString());
    }

    /**
     * The paradigms are defined as Score-P defines them for an MPI+OpenMP run (shared hybrid traces): MPI of class
     * PROCESS, OpenMP of class THREAD_FORK_JOIN.
     */
    @org.junit.jupiter.api.Test
    void paradigmsAreDefinedWithScorePsClasses(@TempDir Path dir) throws Exception {
        Scenario s = Scenarios.byName("hybrid-omp-to-late-sender");
        Path anchor = dir.resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            s.generate(new ScenarioParams(2, 1, SMALL), w);
        }
        String defs = otf2Print(anchor, "-G");
        java.util.List<String> paradigms = defs.lines().filter(l -> l.startsWith("PARADIGM ")).map(String::strip)
                .map(l -> l.replaceAll("\\s+", " ").replaceAll(" <\\d+>", "")).toList();
        assertEquals(java.util.List.of("PARADIGM 4 MPI, Name: \"MPI\", Class: PROCESS",
                "PARADIGM 3 OPENMP, Name: \"OpenMP\", Class: THREAD_FORK_JOIN"), paradigms);
    }

    private static String otf2Print(Path anchor, String... options) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("otf2-print"));
        cmd.addAll(java.util.List.of(options));
        cmd.add(anchor.toString());
        Process proc;
        try {
            proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("otf2-print is not installed");
            throw e;
        }
        String out;
        try (InputStream in = proc.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(0, proc.waitFor(), out);
        return out;
    }

    /** "KIND location-id" → count of the thread records of the trace. */
    private static Map<String, Integer> threadRecords(MemoryTrace t) {
        Map<String, Integer> m = new TreeMap<>();
        for (Location l : t.definitions().locations()) {
            var b = t.readLocation(l.index());
            for (int i = 0; i < b.size; i++) {
                EventKind k = b.kindAt(i);
                if (k.isThread()) {
                    m.merge(k + " " + Long.toUnsignedString(l.id()), 1, Integer::sum);
                }
            }
        }
        return m;
    }

    /** The same count from otf2-print's event listing (test skipped where otf2-print is not installed). */
    private static Map<String, Integer> threadRecordsPrinted(Path anchor) throws Exception {
        String out = otf2Print(anchor);
        Map<String, Integer> m = new TreeMap<>();
        for (String line : out.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 2 && f[0].startsWith("THREAD_")) {
                m.merge(f[0] + " " + f[1], 1, Integer::sum);
            }
        }
        return m;
    }
}
