package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.Analysis;
import dev.straggler.patterns.AnalysisOptions;
import dev.straggler.patterns.AnalysisResult;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.testdata.Scenarios;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Region;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.store.StoreOptions;
import dev.straggler.trace.store.StoreReader;
import dev.straggler.trace.store.StoreWriter;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OTF2 path gives the same result as the store path: simulator scenarios are written as OTF2 by the official
 * OTF2 library (python3-otf2, script {@code otf2/write_otf2.py}) and as a Straggler store, both are read back by
 * the project's readers and analysed, and every value must be identical.
 */
class Otf2PathTest {
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"late-sender-nonblocking", "wrong-order-different", "imbalance-at-allreduce",
            "waitall-late-senders", "late-broadcast"})
    void otf2WrittenByTheOfficialLibraryAnalysesLikeTheStore(String scenario) throws Exception {
        Assumptions.assumeTrue(pythonOtf2Available(), "python3-otf2 not installed");
        MemoryTrace generated = new MemoryTrace(scenario);
        Scenarios.byName(scenario).generate(ScenarioParams.of(4), generated);
        MemoryTrace trace = withoutProgramRecords(generated);

        Path store = tmp.resolve("store");
        try (StoreWriter w = StoreWriter.create(store, StoreOptions.defaults())) {
            for (Location l : trace.definitions().locations()) {
                w.append(l.index(), trace.readLocation(l.index()));
            }
            w.finish(trace.definitions());
        }
        Path archive = writeOtf2(trace);

        AnalysisResult fromStore;
        try (TraceSource s = StoreReader.open(store)) {
            fromStore = Analysis.run(s, AnalysisOptions.defaults().withThreads(2));
        }
        Optional<TraceSource> otf2 = RealTraces.openOtf2(archive.resolve("traces.otf2"));
        Assumptions.assumeTrue(otf2.isPresent(), "OTF2 reader not in the build yet");
        AnalysisResult fromOtf2;
        try (TraceSource s = otf2.get()) {
            fromOtf2 = Analysis.run(s, AnalysisOptions.defaults().withThreads(2));
        }
        assertTrue(fromStore.total("time") > 0);
        assertSame(fromStore.cube(), fromOtf2.cube());
        assertEquals(fromStore.violations(), fromOtf2.violations());
        assertEquals(fromStore.summary().messages(), fromOtf2.summary().messages());
    }

    /** Same values at the same (metric, call path by region names, rank, thread). */
    private static void assertSame(SeverityCube a, SeverityCube b) {
        Map<String, Integer> pathsB = new HashMap<>();
        for (int c = 0; c < b.callPaths().size(); c++) {
            pathsB.put(String.join("/", b.pathNames(c)), c);
        }
        assertEquals(a.callPaths().size(), b.callPaths().size());
        List<String> diff = new ArrayList<>();
        for (int m = 0; m < a.metrics().size(); m++) {
            int mb = b.metricIndex(a.metrics().get(m).uniqueName());
            for (int c = 0; c < a.callPaths().size(); c++) {
                Integer cb = pathsB.get(String.join("/", a.pathNames(c)));
                assertTrue(cb != null, "call path missing from the OTF2 analysis: " + a.pathNames(c));
                for (int l = 0; l < a.locations().size(); l++) {
                    if (a.get(m, c, l) != b.get(mb, cb, l)) {
                        diff.add(a.metrics().get(m).uniqueName() + " " + a.pathNames(c) + " loc " + l + ": store "
                                + a.get(m, c, l) + " otf2 " + b.get(mb, cb, l));
                    }
                }
            }
        }
        assertTrue(diff.isEmpty(), String.join("\n", diff.subList(0, Math.min(20, diff.size()))));
    }

    /** PROGRAM_BEGIN/END name the executable through OTF2 strings the writer script does not define. */
    private static MemoryTrace withoutProgramRecords(MemoryTrace t) throws IOException {
        List<EventBatch> streams = new ArrayList<>();
        for (Location l : t.definitions().locations()) {
            EventBatch in = t.readLocation(l.index());
            EventBatch out = new EventBatch(Math.max(1, in.size));
            for (int i = 0; i < in.size; i++) {
                if (in.kind[i] != EventKind.PROGRAM_BEGIN_CODE && in.kind[i] != EventKind.PROGRAM_END_CODE) {
                    out.addAll(in, i, i + 1);
                }
            }
            streams.add(out);
        }
        return new MemoryTrace(t.definitions(), streams, t.origin());
    }

    private Path writeOtf2(MemoryTrace t) throws IOException, InterruptedException {
        Path input = tmp.resolve("trace.tsv");
        TraceDefinitions d = t.definitions();
        try (BufferedWriter w = Files.newBufferedWriter(input)) {
            w.write("clock\t" + d.clock().ticksPerSecond() + "\t" + d.clock().globalOffset() + "\n");
            for (Region r : d.regions()) {
                w.write(String.join("\t", "region", Integer.toString(r.id()), r.name(), r.canonicalName(),
                        r.sourceFile().isEmpty() ? "-" : r.sourceFile(), r.paradigm().name(), r.role().name()) + "\n");
            }
            for (Location l : d.locations()) {
                w.write("location\t" + l.index() + "\t" + l.rank() + "\t" + l.thread() + "\t" + l.name() + "\n");
            }
            for (Communicator c : d.communicators()) {
                StringBuilder m = new StringBuilder();
                for (int g : c.members()) {
                    m.append(m.length() == 0 ? "" : ",").append(g);
                }
                w.write("comm\t" + c.id() + "\t" + c.name() + "\t" + (m.length() == 0 ? "-" : m) + "\n");
            }
            for (Location l : d.locations()) {
                EventBatch b = t.readLocation(l.index());
                for (int i = 0; i < b.size; i++) {
                    w.write("event\t" + l.index() + "\t" + b.time[i] + "\t" + b.kind[i] + "\t" + b.ref[i] + "\t"
                            + b.comm[i] + "\t" + b.tag[i] + "\t" + b.bytes[i] + "\t" + b.aux[i] + "\n");
                }
            }
        }
        Path script = tmp.resolve("write_otf2.py");
        try (InputStream in = Otf2PathTest.class.getResourceAsStream("/otf2/write_otf2.py")) {
            Files.copy(in, script);
        }
        Path archive = tmp.resolve("otf2");
        Process p = new ProcessBuilder(PYTHON, script.toString(), input.toString(), archive.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "python3-otf2 writer timed out");
        assertEquals(0, p.exitValue(), "python3-otf2 writer failed:\n" + output);
        return archive;
    }

    private static boolean pythonOtf2Available() {
        if (!Files.isExecutable(Path.of(PYTHON))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import otf2").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
